#include "align/encode_run.h"

#include <fmt/format.h>

#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/line_pipeline.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/utf8.h"

namespace align {

namespace {

// What is wrong with a sentence, or "".
std::string check_line(std::string_view s, size_t max_line) {
  if (max_line && s.size() > max_line) return "line longer than " + std::to_string(max_line) + " bytes";
  return corpus::check_text(s);
}

// Notes a batch's first bad line; returns whether the run goes on.
bool note_bad(corpus::LineBatch& b, size_t i, std::string msg, bool skip_bad) {
  if (b.error.empty()) b.error = std::move(msg), b.error_line = b.first_line + i;
  ++b.skipped;
  return skip_bad;
}

void throw_if_bad(const corpus::LineBatch& b, bool skip_bad, const std::string& name, const char* hint) {
  if (!b.error.empty() && !skip_bad) throw corpus::Error(b.error, hint).at(name, b.error_line);
}

uint64_t zero_rows(std::span<const float> v, size_t d) {
  uint64_t n = 0;
  for (size_t r = 0; r < v.size() / d; ++r) {
    bool zero = true;
    for (size_t k = 0; k < d && zero; ++k) zero = v[r * d + k] == 0.0f;
    n += zero;
  }
  return n;
}

// The shared loop of encode_text and encode_column: `pick` gives a line's
// sentence or an error message.
EncodeCounts encode_lines(const corpus::LinePipelineSource& src, const std::string& name,
                          const std::function<std::string(std::string_view, std::string_view&)>& pick,
                          const SentenceEncoder& e, const EncodeRunOptions& opt, corpus::npy::Writer& out,
                          const EncodeProgress& progress) {
  if (out.dim() != e.dim()) throw corpus::Error("the .npy writer's dimension is not the encoder's");
  const size_t d = e.dim();
  EncodeCounts n;
  corpus::run_line_pipeline(
      src, opt.batch_bytes,
      [&](corpus::LineBatch& b) {
        std::vector<std::string_view> text(b.size());
        for (size_t i = 0; i < b.size(); ++i) {
          std::string msg = pick(b.line(i), text[i]);
          if (msg.empty()) msg = check_line(text[i], opt.max_line);
          if (!msg.empty()) {
            text[i] = {};
            if (!note_bad(b, i, std::move(msg), opt.skip_bad)) return;
          }
        }
        b.out.assign(b.size() * d * sizeof(float), '\0');
        e.encode(text, opt.side, {reinterpret_cast<float*>(b.out.data()), b.size() * d});
      },
      [&](corpus::LineBatch& b) {
        throw_if_bad(b, opt.skip_bad, name, "fix the line, or pass --skip-bad to give it the empty sentence's vector");
        const std::span<const float> v(reinterpret_cast<const float*>(b.out.data()), b.size() * d);
        out.write(v);
        n.rows += b.size();
        n.skipped_bad += b.skipped;
        n.empty += zero_rows(v, d) - b.skipped;
        if (progress) progress(b.input_pos, n.rows);
      });
  return n;
}

corpus::LinePipelineSource bitext_source(corpus::BitextLines& in) {
  return {[&in](std::string& s) { return in.next(s); }, [&in] { return in.line_number(); },
          [&in] { return in.raw_bytes_read(); }};
}

}  // namespace

EncodeCounts encode_text(corpus::ByteSource& src, const SentenceEncoder& e, const EncodeRunOptions& opt,
                         corpus::npy::Writer& out, const EncodeProgress& progress) {
  corpus::LineReader reader(src);
  const corpus::LinePipelineSource ps{[&](std::string& s) {
                                        std::string_view l;
                                        if (!reader.next(l)) return false;
                                        s.append(l);
                                        return true;
                                      },
                                      [&] { return reader.line_number(); }, [&] { return src.raw_bytes_read(); }};
  return encode_lines(
      ps, src.name(), [](std::string_view line, std::string_view& text) { return text = line, std::string(); }, e,
      opt, out, progress);
}

EncodeCounts encode_column(corpus::BitextLines& in, const std::string& column, const SentenceEncoder& e,
                           const EncodeRunOptions& opt, corpus::npy::Writer& out, const EncodeProgress& progress) {
  const size_t c = corpus::column_of(in, column), ncols = in.columns().size();
  return encode_lines(
      bitext_source(in), in.name(),
      [c, ncols](std::string_view line, std::string_view& text) {
        std::vector<std::string_view> f;
        corpus::split_tsv(line, f);
        if (f.size() != ncols) return fmt::format("{} columns where the header has {}", f.size(), ncols);
        text = f[c];
        return std::string();
      },
      e, opt, out, progress);
}

EncodeCounts score_pairs(corpus::BitextLines& in, const SentenceEncoder& e, const EncodeRunOptions& opt,
                         const std::function<void(std::string_view)>& write, const EncodeProgress& progress) {
  if (in.columns().index(kEmbedScoreColumn) >= 0)
    throw corpus::ConfigError("the input already has an embed_score column", "drop it first (cut)").at(in.name());
  const size_t si = corpus::column_of(in, "src_text");
  const size_t ti = corpus::column_of(in, "trg_text");
  const size_t ncols = in.columns().size(), d = e.dim();
  std::string head;
  for (const auto& s : in.columns().names) head += s + "\t";
  write(head + kEmbedScoreColumn + "\n");
  EncodeCounts n;
  corpus::run_line_pipeline(
      bitext_source(in), opt.batch_bytes,
      [&](corpus::LineBatch& b) {
        std::vector<std::string_view> src, trg, f;
        std::vector<size_t> good;
        for (size_t i = 0; i < b.size(); ++i) {
          corpus::split_tsv(b.line(i), f);
          std::string msg = opt.max_line && b.line(i).size() > opt.max_line
                                ? "line longer than " + std::to_string(opt.max_line) + " bytes"
                                : corpus::check_row(f, ncols);
          if (!msg.empty()) {
            if (!note_bad(b, i, std::move(msg), opt.skip_bad)) return;
            continue;
          }
          good.push_back(i);
          src.push_back(f[si]);
          trg.push_back(f[ti]);
        }
        std::vector<float> a(src.size() * d), c(trg.size() * d);
        e.encode(src, SentenceEncoder::Side::kSource, a);
        e.encode(trg, SentenceEncoder::Side::kTarget, c);
        for (size_t r = 0; r < good.size(); ++r) {
          double dot = 0;
          for (size_t k = 0; k < d; ++k) dot += static_cast<double>(a[r * d + k]) * c[r * d + k];
          const bool empty = zero_rows({a.data() + r * d, d}, d) + zero_rows({c.data() + r * d, d}, d) > 0;
          b.rows_out += empty;  // rows_out: pairs with a side without words
          b.out.append(b.line(good[r]));
          b.out += fmt::format("\t{:.6f}\n", empty ? 0.0 : dot);
        }
      },
      [&](corpus::LineBatch& b) {
        throw_if_bad(b, opt.skip_bad, in.name(), "fix the row, or pass --skip-bad to leave such rows out");
        write(b.out);
        n.rows += b.size();
        n.skipped_bad += b.skipped;
        n.empty += b.rows_out;
        if (progress) progress(b.input_pos, n.rows);
      });
  return n;
}

}  // namespace align
