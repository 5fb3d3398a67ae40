#include "libcorpus/core/split_stream.h"

#include <memory>
#include <string>

#include <oneapi/tbb/enumerable_thread_specific.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/line_pipeline.h"
#include "libcorpus/core/paragraph_reader.h"

namespace corpus {

SplitStreamResult split_stream(PeekableSource& in, Output& out, const SplitConfig& cfg, bool jsonl,
                               size_t max_json_line, const std::function<void(uint64_t, uint64_t)>& progress) {
  PieceReader reader(in, jsonl ? max_json_line : kSplitMaxPiece, !jsonl, cfg.skip_bad);
  oneapi::tbb::enumerable_thread_specific<std::unique_ptr<SplitWorker>> workers;
  oneapi::tbb::enumerable_thread_specific<SplitCounts> counts;
  SplitStreamResult r;
  LinePipelineSource src{[&](std::string& o) { return reader.next(o); }, [&] { return reader.line_number(); },
                         [&] { return reader.bytes_read(); }};
  run_line_pipeline(
      src, size_t{1} << 20,
      [&](LineBatch& b) {
        auto& w = workers.local();
        if (!w) w = std::make_unique<SplitWorker>(cfg);
        SplitCounts& n = counts.local();
        uint64_t line = b.first_line;
        b.out.reserve(b.data.size() + b.data.size() / 8);
        for (size_t i = 0; i < b.size(); ++i) {
          std::string_view rec = b.line(i);
          // A piece that continues the previous one starts with '\n' and is on the same line.
          if (i > 0 && (rec.empty() || rec.front() != '\n')) ++line;
          std::string msg = jsonl ? w->jsonl_line(rec, b.out, n) : w->text_line(rec, b.first_row + i == 0, b.out, n);
          if (!msg.empty()) {
            b.error = msg;
            b.error_line = line;
            return;
          }
        }
      },
      [&](LineBatch& b) {
        if (!b.error.empty())
          throw Error(b.error, jsonl ? "fix the line, or pass --skip-bad to repair bad UTF-8 and skip bad documents"
                                     : "repair it with --skip-bad (bad bytes become U+FFFD)")
              .at(in.name(), b.error_line);
        out.write(b.out);
        r.records += b.size();
        if (progress) progress(b.input_pos, r.records);
      });
  for (const SplitCounts& n : counts) r.counts.add(n);
  r.reader_repaired = reader.repaired();
  // Lines over the limit are documents read and skipped.
  r.records += reader.long_lines_skipped();
  r.counts.skipped += reader.long_lines_skipped();
  return r;
}

}  // namespace corpus
