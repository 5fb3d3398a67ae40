#include "mt/decode/translate_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/placeholders.h"
#include "libcorpus/core/utf8.h"
#include "mt/decode/ddg_svg.h"
#include "mt/decode/placeholder_quota.h"
#include "mt/model/tokenizers.h"
#include "mt/model/transformer.h"
#include "mt/tensor/packed_weights.h"

namespace mt {

namespace {

const Vocabs& with_spm(const Vocabs& v, const std::string& path) {
  if (v.joint.empty() && (v.src.empty() || v.trg.empty()))
    throw corpus::Error("the model has no SentencePiece model inside").at(path);
  return v;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

}  // namespace

TranslationModel::TranslationModel(const std::string& path)
    : file(path),
      src(side_tokenizer(with_spm(file.vocabs(), path), true, path)),
      trg(side_tokenizer(file.vocabs(), false, path)) {}

bool TranslationModel::protects_placeholders() const {
  const std::string first = corpus::placeholder_symbol(1);
  return src.piece_id(first) >= 0 && trg.piece_id(first) >= 0;
}

std::optional<PlaceholderQuota> placeholder_quota(const TranslationModel& model) {
  if (!model.protects_placeholders()) return std::nullopt;
  std::vector<int32_t> src_ids, trg_ids;
  for (size_t k = 1; k <= corpus::kMaxPlaceholders; ++k) {
    src_ids.push_back(model.src.piece_id(corpus::placeholder_symbol(k)));
    trg_ids.push_back(model.trg.piece_id(corpus::placeholder_symbol(k)));
  }
  const Config& cfg = model.file.config();
  return PlaceholderQuota(std::move(src_ids), std::move(trg_ids), cfg.eos_id, cfg.trg_vocab);
}

void set_search(TranslateOptions& opt, int beam, int n_best, const std::string& length_penalty, double alpha,
                const std::string& decode, int block, const std::string& draft, int candidates) {
  if (n_best > beam) throw corpus::ConfigError(fmt::format("--n-best {} needs --beam {} or more", n_best, n_best));
  if (decode != "greedy" && (beam > 1 || n_best > 0))
    throw corpus::ConfigError("--decode " + decode + " is greedy's search: give no --beam or --n-best");
  opt.beam = {beam, std::max(1, n_best), parse_length_penalty(length_penalty), alpha};
  opt.n_best_rows = n_best > 0;
  if (decode == "greedy" && candidates > 1) throw corpus::ConfigError("--candidates is for a parallel --decode mode");
  opt.parallel = {parse_decode_mode(decode), block, parse_draft_source(draft), candidates};
}

namespace {

class TextSentences : public SentenceSource {
 public:
  explicit TextSentences(corpus::LineReader& in) : in_(in) {}
  bool next(std::string_view& text) override { return in_.next(text); }
  const std::string& name() const override { return in_.name(); }
  uint64_t line_number() const override { return in_.line_number(); }
  void write(corpus::Output& out, size_t, std::string_view translation) override {
    out.write(translation);
    out.put('\n');
  }

 private:
  corpus::LineReader& in_;
};

class ColumnSentences : public SentenceSource {
 public:
  ColumnSentences(corpus::BitextLines& in, const std::string& column, const std::string& out_column)
      : in_(in), ncols_(in.columns().size()), column_(corpus::column_of(in, column)) {
    if (!corpus::is_known_column(out_column))
      throw corpus::ConfigError("--out-column " + corpus::quote(out_column) + " is no column name a TSV header has",
                                "give x_NAME (a user column), NAME_score, or one of pc(7)'s fixed names");
    if (in.columns().index(out_column) >= 0)
      throw corpus::ConfigError("the input already has a column " + corpus::quote(out_column),
                                "drop it first (cut), or give another --out-column")
          .at(in.name());
    for (const auto& s : in.columns().names) header_ += s + "\t";
    header_ += out_column + "\n";
  }
  bool next(std::string_view& text) override {
    // Rows are appended to one buffer until forget(); an earlier row is found
    // again by its offset (the buffer may move), the text is used at once.
    const size_t at = buf_.size();
    if (!in_.next(buf_)) return false;
    std::string_view row(buf_.data() + at, buf_.size() - at);
    corpus::split_tsv(row, fields_);
    if (fields_.size() != ncols_)
      throw corpus::Error(fmt::format("{} columns where the header has {}", fields_.size(), ncols_))
          .at(in_.name(), in_.line_number());
    rows_.push_back({at, row.size()});
    text = fields_[column_];
    return true;
  }
  const std::string& name() const override { return in_.name(); }
  uint64_t line_number() const override { return in_.line_number(); }
  void begin(corpus::Output& out) override { out.write(header_); }
  void write(corpus::Output& out, size_t k, std::string_view translation) override {
    out.write(std::string_view(buf_.data() + rows_[k].first, rows_[k].second));
    out.put('\t');
    out.write(translation);
    out.put('\n');
  }
  void forget() override { buf_.clear(), rows_.clear(); }

 private:
  corpus::BitextLines& in_;
  size_t ncols_, column_;
  std::string header_, buf_;
  std::vector<std::string_view> fields_;
  std::vector<std::pair<size_t, size_t>> rows_;  // offset and size in buf_
};

}  // namespace

std::unique_ptr<SentenceSource> text_sentences(corpus::LineReader& in) { return std::make_unique<TextSentences>(in); }

std::unique_ptr<SentenceSource> column_sentences(corpus::BitextLines& in, const std::string& column,
                                                 const std::string& out_column) {
  return std::make_unique<ColumnSentences>(in, column, out_column);
}

TranslateCounts translate_stream(const TranslationModel& model, corpus::LineReader& in, corpus::Output& out,
                                 const TranslateOptions& opt, const std::function<void(uint64_t)>& progress) {
  return translate_stream(model, *text_sentences(in), out, opt, progress);
}

TranslateCounts translate_stream(const TranslationModel& model, SentenceSource& in, corpus::Output& out,
                                 const TranslateOptions& opt, const std::function<void(uint64_t)>& progress) {
  const Config& cfg = model.file.config();
  const size_t chunk_size = static_cast<size_t>(opt.batches_per_chunk) * static_cast<size_t>(opt.decode.batch_size);
  std::vector<std::vector<int32_t>> chunk;  // the lines with tokens
  std::vector<int64_t> slot;                // each line of the chunk: its index in `chunk`, or -1 (no tokens)
  TranslateCounts n;
  std::vector<double> passes, per_pass, ms;
  if (opt.stats) opt.stats->write("sentence\tpasses\ttokens\ttokens_per_pass\tms\tplaceholders\n");
  const bool protect = model.protects_placeholders();
  std::vector<corpus::Masked> masks;  // with protect: each line of the chunk's
  std::optional<PlaceholderQuota> quota;
  DecodeOptions decode = opt.decode;
  // The weights packed once for the whole stream, not once per chunk (a
  // chunk of --batch-size 1 is 64 sentences).
  ModelOffsets offsets;
  PackedWeights packed(model.file.params(), make_layout(cfg, offsets).total());
  if (!decode.packed) decode.packed = &packed;
  if (opt.placeholder_quota && (quota = placeholder_quota(model))) decode.quota = &*quota;
  if (opt.ddg && opt.parallel.mode == DecodeMode::kGreedy)
    throw corpus::ConfigError("the decoding dependency graph is drawn for a parallel mode",
                              "give --decode jacobi, gs-jacobi or hybrid with --ddg");
  std::vector<DdgSentence> ddg;
  if (opt.parallel.draft == DraftSource::kIbm1 && !opt.ibm1)
    throw corpus::ConfigError("--draft ibm1 needs an IBM1 model of the pair", "give --ibm1 MODEL (pc-ibm1 train)");
  std::vector<std::vector<int32_t>> drafts;  // with opt.ibm1: chunk[i]'s draft
  uint64_t first = 0;  // sentence number of the chunk's first line
  auto flush = [&] {
    std::vector<std::vector<Hypothesis>> hyps;
    std::vector<SentenceStats> st;
    if (opt.beam.beam > 1 || opt.n_best_rows) {
      hyps = beam_translate(cfg, model.file.params(), chunk, decode, opt.beam, &st);
    } else if (opt.parallel.mode != DecodeMode::kGreedy) {
      std::vector<DecodeTrace> traces;
      if (opt.ddg) traces.resize(std::min(chunk.size(), opt.ddg_sentences - ddg.size()));
      if (opt.ibm1) opt.ibm1->check_pair();
      for (auto& h : parallel_translate(cfg, model.file.params(), chunk, decode, opt.parallel, &st, &traces,
                                        opt.ibm1 ? &drafts : nullptr))
        hyps.push_back({Hypothesis{std::move(h), 0, 0}});
      for (size_t i = 0; i < slot.size(); ++i)
        if (slot[i] >= 0 && static_cast<size_t>(slot[i]) < traces.size())
          ddg.push_back({first + i, model.src.decode(chunk[static_cast<size_t>(slot[i])]),
                         std::move(traces[static_cast<size_t>(slot[i])])});
    } else {
      for (auto& h : greedy_translate(cfg, model.file.params(), chunk, decode, &st))
        hyps.push_back({Hypothesis{std::move(h), 0, 0}});
    }
    for (size_t i = 0; i < slot.size(); ++i) {
      const uint64_t sentence = first + i;
      static const std::vector<Hypothesis> kEmpty{Hypothesis{}};
      const std::vector<Hypothesis>& hs = slot[i] < 0 ? kEmpty : hyps[static_cast<size_t>(slot[i])];
      const corpus::Masked* mask = protect && !masks[i].values.empty() ? &masks[i] : nullptr;
      bool mismatch = false;
      auto text = [&](const Hypothesis& h, bool* bad) {
        std::string t = model.trg.decode(h.tokens);
        return mask ? corpus::unmask_placeholders(t, *mask, bad) : t;
      };
      if (opt.n_best_rows) {
        for (size_t r = 0; r < hs.size(); ++r)
          out.write(fmt::format("{}\t{}\t{:.6f}\n", sentence, text(hs[r], r == 0 ? &mismatch : nullptr), hs[r].score));
      } else {
        in.write(out, i, text(hs.front(), &mismatch));
      }
      n.placeholder_lines += mask != nullptr;
      n.placeholder_mismatches += mismatch;
      const SentenceStats s = slot[i] < 0 ? SentenceStats{} : st[static_cast<size_t>(slot[i])];
      const double tpp = s.passes ? static_cast<double>(s.tokens) / s.passes : 0.0;
      if (opt.stats)
        opt.stats->write(fmt::format("{}\t{}\t{}\t{:.3f}\t{:.3f}\t{}\n", sentence, s.passes, s.tokens, tpp, s.ms,
                                     !mask ? "-" : mismatch ? "mismatch" : "ok"));
      if (slot[i] < 0) continue;
      n.passes += static_cast<uint64_t>(s.passes);
      n.tokens += static_cast<uint64_t>(s.tokens);
      passes.push_back(s.passes), per_pass.push_back(tpp), ms.push_back(s.ms);
    }
    first += slot.size();
    chunk.clear();
    drafts.clear();
    masks.clear();
    slot.clear();
    in.forget();
    if (progress) progress(n.sentences);
  };
  if (!opt.n_best_rows) in.begin(out);
  std::string_view line;
  while (in.next(line)) {
    std::string bad = corpus::check_text(line);
    if (!bad.empty()) throw corpus::Error(bad).at(in.name(), in.line_number());
    bool cut = false;  // the decoders keep max_len - 1 tokens: the rest of a huge line is not encoded
    if (protect) masks.push_back(corpus::mask_placeholders(line));
    std::vector<int32_t> ids =
        model.src.encode_prefix(protect ? std::string_view(masks.back().text) : line, static_cast<size_t>(cfg.max_len), cut);
    ++n.sentences;
    if (ids.empty()) {
      slot.push_back(-1);
      ++n.empty;
    } else {
      slot.push_back(static_cast<int64_t>(chunk.size()));
      chunk.push_back(std::move(ids));
      if (opt.ibm1) drafts.push_back(opt.ibm1->draft(line));
    }
    if (slot.size() >= chunk_size) flush();
  }
  flush();
  if (opt.ddg)
    opt.ddg->write(ddg_svg(ddg, [&](int32_t id) { return model.trg.piece(id); }, opt.ddg_caption));
  n.median_passes = median(passes);
  n.median_tokens_per_pass = median(per_pass);
  n.median_ms = median(ms);
  return n;
}

}  // namespace mt
