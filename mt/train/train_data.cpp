#include "mt/train/train_data.h"

#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/tsv.h"

namespace mt {

Bitext read_bitext(const std::vector<std::string>& files, bool skip_bad, size_t max_line) {
  Bitext b;
  for (const auto& f : files) {
    corpus::BitextReader reader(corpus::open_tsv_lines(corpus::open_input(f), {max_line, skip_bad}), skip_bad);
    const int si = reader.columns().index("src_text"), ti = reader.columns().index("trg_text");
    if (si < 0 || ti < 0)
      throw corpus::ConfigError("no src_text and trg_text columns", "give bitext TSV (see paracorp(7))").at(f);
    std::vector<std::string_view> fields;
    while (reader.next(fields)) {
      b.src.emplace_back(fields[si]);
      b.trg.emplace_back(fields[ti]);
    }
    b.skipped_bad += reader.skipped();
  }
  return b;
}

EncodedBitext encode_bitext(const Bitext& b, const Tokenizer& src, const Tokenizer& trg, int max_len,
                            bool keep_refs) {
  EncodedBitext e;
  for (size_t i = 0; i < b.src.size(); ++i) {
    bool s_cut = false, t_cut = false;  // a side too long to be worth encoding whole
    auto s = src.encode_prefix(b.src[i], static_cast<size_t>(max_len), s_cut);
    auto t = trg.encode_prefix(b.trg[i], static_cast<size_t>(max_len), t_cut);
    if (!s_cut && !t_cut && (s.empty() || t.empty())) {
      ++e.empty;
      continue;
    }
    if (s_cut || t_cut || static_cast<int>(s.size()) >= max_len || static_cast<int>(t.size()) >= max_len) {
      ++e.too_long;
      continue;
    }
    e.ids.src.push_back(std::move(s));
    e.ids.trg.push_back(std::move(t));
    if (keep_refs) e.refs.push_back(b.trg[i]);
  }
  return e;
}

}  // namespace mt
