#include "align/ibm1_run.h"

#include <fmt/format.h>
#include <oneapi/tbb/enumerable_thread_specific.h>

#include <chrono>
#include <iterator>
#include <memory>
#include <vector>

#include "align/ibm1_apply.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/line_pipeline.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/utf8.h"

namespace align {

namespace {

RunCounts counts_of(const RowStats& st) {
  RunCounts c;
  c.rows = st.rows;
  c.skipped_bad = st.skipped_bad;
  c.empty_side = st.empty_side;
  return c;
}

}  // namespace

Trained train_model(corpus::BitextLines& in, const TrainRunOptions& opt, const TrainEvents& ev) {
  const auto t0 = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  Trained t{load_corpus(in, opt.load, ev.progress), {}};
  const CorpusIds& c = t.corpus;
  if (ev.loaded) ev.loaded(c);
  const double read_s = since();
  Ibm1Trainer tr(c, opt.train);
  if (ev.indexed) ev.indexed(c, tr, read_s, since() - read_s);
  IterationStats last;
  for (int k = 0; k < opt.train.iterations; ++k) {
    last = tr.iterate();
    if (ev.iteration) ev.iteration(last);
  }
  // The key order is part of the model file: keep it.
  nlohmann::ordered_json cfg;
  cfg["tokenize"] = token_mode_name(opt.load.rows.tok.mode);
  cfg["lowercase"] = opt.load.rows.tok.lowercase;
  cfg["iterations"] = opt.train.iterations;
  cfg["variational"] = opt.train.variational;
  cfg["alpha"] = opt.train.alpha;
  cfg["prune"] = opt.train.prune;
  cfg["max_len"] = static_cast<int>(opt.load.max_len);
  cfg["src_lang"] = opt.src_lang;
  cfg["trg_lang"] = opt.trg_lang;
  cfg["pairs"] = c.pairs();
  if (opt.train.iterations > 0) {
    cfg["perplexity_fwd"] = last.perplexity_fwd();
    cfg["perplexity_rev"] = last.perplexity_rev();
  }
  t.model = tr.model(std::move(cfg));
  return t;
}

std::string index_report(const CorpusIds& c, const Ibm1Trainer& tr, double read_s, double index_s) {
  return fmt::format("{} pairs, {} source and {} target words, {} co-occurring pairs{} (read and tokenised in {:.3f} s, "
                     "indexed in {:.3f} s)",
                     c.pairs(), c.src_vocab.size() - 1, c.trg_vocab.size() - 1, tr.parameters(),
                     tr.cached() ? "" : " (cell cache over --cache-mb: looking cells up)", read_s, index_s);
}

std::string iteration_report(const IterationStats& s) {
  return fmt::format("iteration {}: perplexity fwd {:.4f} rev {:.4f}, log-likelihood fwd {:.6e} rev {:.6e} ({:.3f} s)",
                     s.iteration, s.perplexity_fwd(), s.perplexity_rev(), s.loglik_fwd, s.loglik_rev, s.seconds);
}

void append_alignment(std::string& out, const Ibm1Model& m, const AlignOptions& opt, std::span<const uint32_t> s,
                      std::span<const uint32_t> t) {
  switch (opt.direction) {
    case Direction::kFwd: append_pharaoh(out, viterbi_fwd(m, s, t)); break;
    case Direction::kRev: append_pharaoh(out, viterbi_rev(m, s, t)); break;
    case Direction::kSym:
      append_pharaoh(out, symmetrize(viterbi_fwd(m, s, t), viterbi_rev(m, s, t), s.size(), t.size(), opt.sym));
      break;
  }
  out.push_back('\n');
}

void align_corpus(const Trained& t, const AlignOptions& opt, const WriteFn& write) {
  const CorpusIds& c = t.corpus;
  std::string buf;
  size_t p = 0;
  for (uint64_t row = 0; row < c.rows_in; ++row) {
    if (p < c.pairs() && c.row[p] == row) {
      append_alignment(buf, t.model, opt, c.src.sentence(p), c.trg.sentence(p));
      ++p;
    } else {
      buf.push_back('\n');
    }
    if (buf.size() > (1 << 20)) write(buf), buf.clear();
  }
  write(buf);
}

RunCounts align_rows(corpus::BitextLines& in, const Ibm1Model& m, const RowOptions& rows, const AlignOptions& opt,
                     const WriteFn& write, const ProgressFn& progress) {
  RowStats st = map_rows(
      in, rows,
      [&](RowInput& r, std::string& buf) {
        thread_local std::vector<uint32_t> s, t;
        lookup(m.src, r.src, s);
        lookup(m.trg, r.trg, t);
        append_alignment(buf, m, opt, s, t);
      },
      write, progress);
  return counts_of(st);
}

RunCounts score_rows(corpus::BitextLines& in, const Ibm1Model& m, const RowOptions& rows, double floor,
                     const WriteFn& write, const ProgressFn& progress) {
  std::string header;
  for (const auto& n : in.columns().names) header.append(n).push_back('\t');
  for (const char* c : kScoreColumns) {
    if (in.columns().index(c) >= 0)
      throw corpus::ConfigError("the input already has a " + std::string(c) + " column", "remove it with cut first");
    header.append(c).push_back('\t');
  }
  header.back() = '\n';
  write(header);
  RowStats st = map_rows(
      in, rows,
      [&](RowInput& r, std::string& buf) {
        if (r.bad) return;
        thread_local std::vector<uint32_t> s, t;
        lookup(m.src, r.src, s);
        lookup(m.trg, r.trg, t);
        PairScore sc = score_pair(m, s, t, floor);
        for (auto f : r.fields) buf.append(f).push_back('\t');
        fmt::format_to(std::back_inserter(buf), "{:.6g}\t{:.6g}\t{:.6g}\t{:.6g}\n", sc.fwd, sc.rev, sc.qmax_fwd,
                       sc.qmax_rev);
      },
      write, progress);
  return counts_of(st);
}

RunCounts translate_lines(corpus::ByteSource& src, const Ibm1Model& m, bool drop_null, bool skip_bad,
                          size_t max_line, const WriteFn& write, const ProgressFn& progress) {
  const WordTranslator tr(m, drop_null);
  const TokenizerOptions topt = m.tokenizer();
  oneapi::tbb::enumerable_thread_specific<std::unique_ptr<Tokenizer>> tokenizers(
      [&] { return std::make_unique<Tokenizer>(topt); });
  corpus::LineReader reader(src);
  RunCounts n;
  corpus::LinePipelineSource ps{[&](std::string& s) {
                                  std::string_view l;
                                  if (!reader.next(l)) return false;
                                  s.append(l);
                                  return true;
                                },
                                [&] { return reader.line_number(); }, [&] { return src.raw_bytes_read(); }};
  corpus::run_line_pipeline(
      ps, 1 << 20,
      [&](corpus::LineBatch& b) {
        Tokenizer& tok = *tokenizers.local();
        std::vector<std::string> words;
        for (size_t i = 0; i < b.size(); ++i) {
          std::string msg = max_line && b.line(i).size() > max_line
                                ? "line longer than " + std::to_string(max_line) + " bytes"
                                : corpus::check_text(b.line(i));
          if (!msg.empty()) {
            if (b.error.empty()) b.error = msg, b.error_line = b.first_line + i;
            ++b.skipped;
            if (!skip_bad) return;
            b.out.push_back('\n');
            continue;
          }
          words.clear();
          tok.tokenize(b.line(i), words);
          tr.translate(words, b.out);
          b.out.push_back('\n');
        }
      },
      [&](corpus::LineBatch& b) {
        if (!b.error.empty() && !skip_bad)
          throw corpus::Error(b.error, "fix the line, or pass --skip-bad to skip such lines")
              .at(src.name(), b.error_line);
        write(b.out);
        n.rows += b.size();
        n.skipped_bad += b.skipped;
        if (progress) progress(b.input_pos, n.rows);
      });
  return n;
}

}  // namespace align
