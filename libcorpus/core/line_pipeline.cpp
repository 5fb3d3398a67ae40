#include "libcorpus/core/line_pipeline.h"

#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

#include <memory>
#include <mutex>

namespace corpus {

namespace {

// Owns every batch of a run. Batches are recycled (their buffers keep their
// capacity), and when a stage throws, the ones still in flight are freed here
// rather than leaked by the cancelled pipeline.
class BatchPool {
 public:
  LineBatch* get() {
    std::lock_guard<std::mutex> lock(m_);
    if (free_.empty()) {
      all_.push_back(std::make_unique<LineBatch>());
      return all_.back().get();
    }
    LineBatch* b = free_.back();
    free_.pop_back();
    return b;
  }
  void put(LineBatch* b) {
    b->data.clear();
    b->ends.clear();
    b->out.clear();
    b->rows_out = b->skipped = b->error_line = 0;
    b->error.clear();
    std::lock_guard<std::mutex> lock(m_);
    free_.push_back(b);
  }

 private:
  std::mutex m_;
  std::vector<std::unique_ptr<LineBatch>> all_;
  std::vector<LineBatch*> free_;
};

}  // namespace

void run_line_pipeline(const LinePipelineSource& src, size_t batch_bytes,
                       const std::function<void(LineBatch&)>& transform,
                       const std::function<void(LineBatch&)>& consume) {
  const size_t tokens = 2 * static_cast<size_t>(std::max(1, oneapi::tbb::this_task_arena::max_concurrency()));
  BatchPool pool;
  uint64_t rows = 0;
  bool done = false;
  oneapi::tbb::parallel_pipeline(
      tokens,
      oneapi::tbb::make_filter<void, LineBatch*>(
          oneapi::tbb::filter_mode::serial_in_order,
          [&](oneapi::tbb::flow_control& fc) -> LineBatch* {
            if (done) {
              fc.stop();
              return nullptr;
            }
            LineBatch* b = pool.get();
            b->data.reserve(batch_bytes + batch_bytes / 4);
            b->first_row = rows;
            while (b->data.size() < batch_bytes) {
              if (!src.next(b->data)) {
                done = true;
                break;
              }
              if (b->ends.empty()) b->first_line = src.line_number();
              b->ends.push_back(b->data.size());
            }
            rows += b->ends.size();
            if (src.position) b->input_pos = src.position();
            if (b->ends.empty()) {
              pool.put(b);
              fc.stop();
              return nullptr;
            }
            return b;
          }) &
          oneapi::tbb::make_filter<LineBatch*, LineBatch*>(oneapi::tbb::filter_mode::parallel,
                                                            [&](LineBatch* b) {
                                                              transform(*b);
                                                              return b;
                                                            }) &
          oneapi::tbb::make_filter<LineBatch*, void>(oneapi::tbb::filter_mode::serial_in_order, [&](LineBatch* b) {
            consume(*b);
            pool.put(b);
          }));
}

}  // namespace corpus
