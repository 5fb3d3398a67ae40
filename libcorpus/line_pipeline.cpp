#include "libcorpus/line_pipeline.h"

#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

#include <memory>

namespace corpus {

void run_line_pipeline(const LinePipelineSource& src, size_t batch_bytes,
                       const std::function<void(LineBatch&)>& transform,
                       const std::function<void(LineBatch&)>& consume) {
  const size_t tokens = 2 * static_cast<size_t>(std::max(1, oneapi::tbb::this_task_arena::max_concurrency()));
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
            auto b = std::make_unique<LineBatch>();
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
              fc.stop();
              return nullptr;
            }
            return b.release();
          }) &
          oneapi::tbb::make_filter<LineBatch*, LineBatch*>(oneapi::tbb::filter_mode::parallel,
                                                            [&](LineBatch* b) {
                                                              std::unique_ptr<LineBatch> guard(b);
                                                              transform(*b);
                                                              return guard.release();
                                                            }) &
          oneapi::tbb::make_filter<LineBatch*, void>(oneapi::tbb::filter_mode::serial_in_order, [&](LineBatch* b) {
            std::unique_ptr<LineBatch> guard(b);
            consume(*b);
          }));
}

}  // namespace corpus
