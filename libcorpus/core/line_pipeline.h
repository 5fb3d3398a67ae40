// An ordered, parallel pipeline over the lines of a stream.
//
// Lines are read serially into batches of about `batch_bytes`, each batch is
// transformed on a worker thread (oneTBB), and the batches are consumed
// serially in input order. Output therefore never depends on the thread count;
// memory is bounded by (2 x threads) batches in flight.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace corpus {

struct LineBatch {
  std::string data;          // the lines, back to back
  std::vector<size_t> ends;  // end offset of each line in `data`
  uint64_t first_line = 0;   // input line number of line 0 (for messages)
  uint64_t first_row = 0;    // 0-based index of line 0 among all lines read
  uint64_t input_pos = 0;    // source position after reading the batch (progress)

  // Filled by the transform, read by the consumer.
  std::string out;
  uint64_t rows_out = 0;
  uint64_t skipped = 0;
  std::string error;        // first error; stops the run unless skipping
  uint64_t error_line = 0;

  size_t size() const { return ends.size(); }
  std::string_view line(size_t i) const {
    size_t b = i == 0 ? 0 : ends[i - 1];
    return std::string_view(data).substr(b, ends[i] - b);
  }
};

struct LinePipelineSource {
  // Appends the next line to `out`; false at the end of input.
  std::function<bool(std::string& out)> next;
  // Input line number of the line last appended.
  std::function<uint64_t()> line_number;
  // Optional: how far the source has read (compressed bytes), for progress.
  std::function<uint64_t()> position;
};

// Runs the pipeline with the current oneTBB concurrency. Exceptions thrown by
// any stage stop it and propagate to the caller.
void run_line_pipeline(const LinePipelineSource& src, size_t batch_bytes,
                       const std::function<void(LineBatch&)>& transform,
                       const std::function<void(LineBatch&)>& consume);

}  // namespace corpus
