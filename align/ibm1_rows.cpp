#include "align/ibm1_rows.h"

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <atomic>
#include <memory>

#include "libcorpus/core/error.h"
#include "libcorpus/core/line_pipeline.h"

namespace align {

RowStats map_rows(corpus::BitextLines& in, const RowOptions& opt,
                  const std::function<void(RowInput& row, std::string& out)>& fn,
                  const std::function<void(std::string_view)>& write,
                  const std::function<void(uint64_t, uint64_t)>& progress) {
  const corpus::TsvColumns& cols = in.columns();
  const int si = cols.index("src_text"), ti = cols.index("trg_text");
  if (si < 0 || ti < 0) throw corpus::Error("the input has no src_text and trg_text columns").at(in.name());
  const size_t ncols = cols.size();
  oneapi::tbb::enumerable_thread_specific<std::unique_ptr<Tokenizer>> tokenizers(
      [&] { return std::make_unique<Tokenizer>(opt.tok); });
  RowStats st;
  // Summed over the batches in any order: a count does not depend on it.
  std::atomic<uint64_t> empty_side{0};
  corpus::LinePipelineSource src{[&](std::string& o) { return in.next(o); }, [&] { return in.line_number(); },
                                 [&] { return in.raw_bytes_read(); }};
  corpus::run_line_pipeline(
      src, opt.batch_bytes,
      [&](corpus::LineBatch& b) {
        Tokenizer& tok = *tokenizers.local();
        RowInput row;
        uint64_t empty = 0;
        for (size_t i = 0; i < b.size(); ++i) {
          row.src.clear();
          row.trg.clear();
          std::string msg;
          if (opt.max_line && b.line(i).size() > opt.max_line) {
            row.fields.clear();
            msg = "line longer than " + std::to_string(opt.max_line) + " bytes";
          } else {
            corpus::split_tsv(b.line(i), row.fields);
            msg = corpus::check_row(row.fields, ncols);
          }
          row.bad = !msg.empty();
          if (row.bad) {
            if (b.error.empty()) {
              b.error = msg;
              b.error_line = b.first_line + i;
            }
            ++b.skipped;
            if (!opt.skip_bad) break;
            row.fields.clear();
            row.src_text = row.trg_text = {};
          } else {
            row.src_text = row.fields[static_cast<size_t>(si)];
            row.trg_text = row.fields[static_cast<size_t>(ti)];
            tok.tokenize(row.src_text, row.src);
            tok.tokenize(row.trg_text, row.trg);
            if (row.src.empty() || row.trg.empty()) ++empty;
          }
          fn(row, b.out);
        }
        empty_side += empty;
      },
      [&](corpus::LineBatch& b) {
        if (!b.error.empty() && !opt.skip_bad)
          throw corpus::Error(b.error, "fix the line, or pass --skip-bad to skip such lines")
              .at(in.name(), b.error_line);
        write(b.out);
        st.rows += b.size();
        st.skipped_bad += b.skipped;
        if (progress) progress(b.input_pos, st.rows);
      });
  st.empty_side = empty_side;
  return st;
}

}  // namespace align
