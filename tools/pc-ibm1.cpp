// pc-ibm1: IBM Model 1 — train, align, lexicon, score, translate.
#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "align/corpus_ids.h"
#include "align/ibm1.h"
#include "align/ibm1_apply.h"
#include "align/ibm1_rows.h"
#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_pipeline.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/tsv.h"
#include "libcorpus/core/utf8.h"

using namespace corpus;
using namespace align;

namespace {

struct Opts {
  std::string command, model, src_file, trg_file, tokenize = "icu", direction, sym = "grow-diag-final-and",
                                                   format = "ttable";
  bool lowercase = false, variational = false, drop_null = false;
  int iterations = 5, max_len = 0;
  double alpha = 0.01, prune = 1e-6, floor = 1e-7, min_prob = 0;
  uint64_t cache_mb = 2048;
};

const char* kCommands = "train, align, lexicon, score or translate";

std::unique_ptr<BitextLines> open_bitext(cli::Context& ctx, const Opts& o, const std::vector<std::string>& files) {
  if (o.src_file.empty() != o.trg_file.empty()) throw cli::UsageError("--src and --trg go together");
  if (!o.src_file.empty()) {
    if (!files.empty()) throw cli::UsageError("give either FILE or --src/--trg, not both");
    ctx.note_input(o.src_file);
    ctx.note_input(o.trg_file);
    return open_lockstep_lines(o.src_file, o.trg_file);
  }
  if (files.size() > 1) throw cli::UsageError("one input file at a time", "concatenate them first");
  const std::string path = files.empty() ? "-" : files[0];
  if (path == "-") ctx.check_stdin_not_terminal("pc-ibm1 " + o.command + " [options] [FILE]");
  ctx.note_input(path);
  return open_tsv_lines(open_input(path));
}

struct Trained {
  CorpusIds corpus;
  std::optional<Ibm1Model> model;
};

// Reads the bitext, runs EM and returns the model (train, and align without -m).
Trained train(cli::Context& ctx, const Opts& o, BitextLines& in) {
  LoadOptions lo;
  lo.rows.tok = {parse_token_mode(o.tokenize), o.lowercase};
  lo.rows.skip_bad = ctx.common().skip_bad;
  lo.max_len = static_cast<uint32_t>(o.max_len);
  Trained t;
  auto t0 = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  t.corpus = load_corpus(in, lo, [&](uint64_t b, uint64_t r) { ctx.progress().update(b, r); });
  const CorpusIds& c = t.corpus;
  ctx.set_count("pairs in", c.rows_in);
  if (c.empty_skipped) {
    ctx.set_count("empty side (skipped)", c.empty_skipped);
    ctx.warn(fmt::format("{} pairs with an empty side were skipped", c.empty_skipped));
  }
  if (c.long_skipped) ctx.set_count("over --max-len (skipped)", c.long_skipped);
  if (c.bad_skipped || ctx.common().skip_bad) ctx.set_count("skipped (bad)", c.bad_skipped);
  ctx.set_count("pairs trained", c.pairs());
  TrainOptions to;
  to.iterations = o.iterations;
  to.variational = o.variational;
  to.alpha = o.alpha;
  to.prune = o.prune;
  to.cache_bytes = o.cache_mb << 20;
  const double read_s = since();
  Ibm1Trainer tr(c, to);
  ctx.info(fmt::format("{} pairs, {} source and {} target words, {} co-occurring pairs{} (read and tokenised in {:.3f} s, "
                       "indexed in {:.3f} s)",
                       c.pairs(), c.src_vocab.size() - 1, c.trg_vocab.size() - 1, tr.parameters(),
                       tr.cached() ? "" : " (cell cache over --cache-mb: looking cells up)", read_s, since() - read_s));
  IterationStats last;
  for (int k = 0; k < o.iterations; ++k) {
    last = tr.iterate();
    ctx.info(fmt::format("iteration {}: perplexity fwd {:.4f} rev {:.4f}, log-likelihood fwd {:.6e} rev {:.6e} ({:.3f} s)",
                         last.iteration, last.perplexity_fwd(), last.perplexity_rev(), last.loglik_fwd,
                         last.loglik_rev, last.seconds));
  }
  nlohmann::ordered_json cfg;
  cfg["tokenize"] = o.tokenize;
  cfg["lowercase"] = o.lowercase;
  cfg["iterations"] = o.iterations;
  cfg["variational"] = o.variational;
  cfg["alpha"] = o.alpha;
  cfg["prune"] = o.prune;
  cfg["max_len"] = o.max_len;
  cfg["src_lang"] = ctx.common().src_lang;
  cfg["trg_lang"] = ctx.common().trg_lang;
  cfg["pairs"] = c.pairs();
  if (o.iterations > 0) {
    cfg["perplexity_fwd"] = last.perplexity_fwd();
    cfg["perplexity_rev"] = last.perplexity_rev();
  }
  t.model = tr.model(std::move(cfg));
  return t;
}

void append_alignment(std::string& out, const Ibm1Model& m, const Opts& o, std::span<const uint32_t> s,
                      std::span<const uint32_t> t) {
  if (o.direction == "fwd") append_pharaoh(out, viterbi_fwd(m, s, t));
  else if (o.direction == "rev") append_pharaoh(out, viterbi_rev(m, s, t));
  else append_pharaoh(out, symmetrize(viterbi_fwd(m, s, t), viterbi_rev(m, s, t), s.size(), t.size(),
                                      parse_symmetrize(o.sym)));
  out.push_back('\n');
}

RowOptions row_options(cli::Context& ctx, const Ibm1Model& m) {
  RowOptions r;
  r.tok = m.tokenizer();
  r.skip_bad = ctx.common().skip_bad;
  return r;
}

void run_align(cli::Context& ctx, const Opts& o, BitextLines& in, Output& out) {
  if (o.direction != "fwd" && o.direction != "rev" && o.direction != "sym")
    throw cli::UsageError("--direction for align must be fwd, rev or sym, not " + quote(o.direction));
  parse_symmetrize(o.sym);
  if (o.model.empty()) {  // train on the input, then align it
    Trained t = train(ctx, o, in);
    std::string buf;
    size_t p = 0;
    for (uint64_t row = 0; row < t.corpus.rows_in; ++row) {
      if (p < t.corpus.pairs() && t.corpus.row[p] == row) {
        append_alignment(buf, *t.model, o, t.corpus.src.sentence(p), t.corpus.trg.sentence(p));
        ++p;
      } else {
        buf.push_back('\n');
      }
      if (buf.size() > (1 << 20)) out.write(buf), buf.clear();
    }
    out.write(buf);
    return;
  }
  const Ibm1Model m = Ibm1Model::load(o.model);
  RowStats st = map_rows(
      in, row_options(ctx, m),
      [&](RowInput& r, std::string& buf) {
        thread_local std::vector<uint32_t> s, t;
        lookup(m.src, r.src, s);
        lookup(m.trg, r.trg, t);
        append_alignment(buf, m, o, s, t);
      },
      [&](std::string_view b) { out.write(b); }, [&](uint64_t b, uint64_t r) { ctx.progress().update(b, r); });
  ctx.set_count("pairs in", st.rows);
  if (st.skipped_bad || ctx.common().skip_bad) ctx.set_count("skipped (bad)", st.skipped_bad);
}

void run_score(cli::Context& ctx, const Opts& o, BitextLines& in, Output& out) {
  const Ibm1Model m = Ibm1Model::load(o.model);
  if (!(o.floor > 0 && o.floor < 1)) throw cli::UsageError("--floor must be between 0 and 1");
  static const char* kCols[] = {"ibm1_fwd_score", "ibm1_rev_score", "ibm1_qmax_fwd_score", "ibm1_qmax_rev_score"};
  std::vector<std::string> names = in.columns().names;
  for (const char* c : kCols) {
    if (in.columns().index(c) >= 0)
      throw cli::UsageError("the input already has a " + std::string(c) + " column", "remove it with cut first");
    names.emplace_back(c);
  }
  TsvWriter(out).header(names);
  uint64_t empty = 0;
  RowStats st = map_rows(
      in, row_options(ctx, m),
      [&](RowInput& r, std::string& buf) {
        if (r.bad) return;
        thread_local std::vector<uint32_t> s, t;
        lookup(m.src, r.src, s);
        lookup(m.trg, r.trg, t);
        PairScore sc = score_pair(m, s, t, o.floor);
        for (auto f : r.fields) buf.append(f).push_back('\t');
        fmt::format_to(std::back_inserter(buf), "{:.6g}\t{:.6g}\t{:.6g}\t{:.6g}\n", sc.fwd, sc.rev, sc.qmax_fwd,
                       sc.qmax_rev);
      },
      [&](std::string_view b) {
        out.write(b);
        for (size_t p = b.find("\tnan\tnan\tnan\tnan\n"); p != std::string_view::npos;
             p = b.find("\tnan\tnan\tnan\tnan\n", p + 1))
          ++empty;
      },
      [&](uint64_t b, uint64_t r) { ctx.progress().update(b, r); });
  ctx.set_count("pairs in", st.rows);
  if (st.skipped_bad || ctx.common().skip_bad) ctx.set_count("skipped (bad)", st.skipped_bad);
  if (empty) {
    ctx.set_count("empty side (scored nan)", empty);
    ctx.warn(fmt::format("{} pairs with an empty side were scored nan", empty));
  }
}

void run_translate(cli::Context& ctx, const Opts& o, const std::vector<std::string>& files, Output& out) {
  if (!o.src_file.empty() || !o.trg_file.empty()) throw cli::UsageError("translate reads plain text: give FILE, not --src/--trg");
  if (files.size() > 1) throw cli::UsageError("one input file at a time", "concatenate them first");
  const std::string path = files.empty() ? "-" : files[0];
  if (path == "-") ctx.check_stdin_not_terminal("pc-ibm1 translate -m MODEL [options] [FILE]");
  const Ibm1Model m = Ibm1Model::load(o.model);
  const WordTranslator tr(m, o.drop_null);
  ctx.note_input(path);
  auto src = open_input(path);
  LineReader reader(*src);
  const TokenizerOptions topt = m.tokenizer();
  const bool skip = ctx.common().skip_bad;
  uint64_t lines = 0, skipped = 0;
  LinePipelineSource ps{[&](std::string& s) {
                          std::string_view l;
                          if (!reader.next(l)) return false;
                          s.append(l);
                          return true;
                        },
                        [&] { return reader.line_number(); }, [&] { return src->raw_bytes_read(); }};
  run_line_pipeline(
      ps, 1 << 20,
      [&](LineBatch& b) {
        thread_local std::unique_ptr<Tokenizer> tok;
        thread_local TokenizerOptions tok_opt;
        if (!tok || tok_opt.mode != topt.mode || tok_opt.lowercase != topt.lowercase)
          tok = std::make_unique<Tokenizer>(topt), tok_opt = topt;
        std::vector<std::string> words;
        for (size_t i = 0; i < b.size(); ++i) {
          std::string msg = check_text(b.line(i));
          if (!msg.empty()) {
            if (b.error.empty()) b.error = msg, b.error_line = b.first_line + i;
            ++b.skipped;
            if (!skip) return;
            b.out.push_back('\n');
            continue;
          }
          words.clear();
          tok->tokenize(b.line(i), words);
          tr.translate(words, b.out);
          b.out.push_back('\n');
        }
      },
      [&](LineBatch& b) {
        if (!b.error.empty() && !skip)
          throw Error(b.error, "fix the line, or pass --skip-bad to skip such lines").at(src->name(), b.error_line);
        out.write(b.out);
        lines += b.size();
        skipped += b.skipped;
        ctx.progress().update(b.input_pos, lines);
      });
  ctx.set_count("lines", lines);
  if (skipped || skip) ctx.set_count("skipped (bad)", skipped);
}

void run_lexicon(cli::Context& ctx, const Opts& o, Output& out) {
  const std::string dir = o.direction == "sym" ? "fwd" : o.direction;
  if (dir != "fwd" && dir != "rev") throw cli::UsageError("--direction for lexicon must be fwd or rev, not " + quote(dir));
  if (o.format != "ttable" && o.format != "moses")
    throw cli::UsageError("--format must be ttable or moses, not " + quote(o.format));
  const Ibm1Model m = Ibm1Model::load(o.model);
  ctx.note_input(o.model);
  uint64_t lines = 0;
  write_lexicon(m, dir == "rev", o.format == "moses" ? LexFormat::kMoses : LexFormat::kTtable, o.min_prob,
                [&](std::string_view s) {
                  out.write(s);
                  lines += static_cast<uint64_t>(std::count(s.begin(), s.end(), '\n'));
                });
  ctx.set_count("entries", lines);
}

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-ibm1",
               "IBM Model 1 word alignment: train (EM, both directions), align (Viterbi, symmetrisation), lexicon "
               "(t-tables, Moses lex files), score (pair scores) and translate (word by word).",
               "pc-ibm1 COMMAND [options] [FILE]   COMMAND: train, align, lexicon, score, translate");
  cli::Common c;
  Opts o;
  app.group("Input and model");
  app.option("m,model", "FILE", &o.model,
             "model file to read (align, lexicon, score, translate); train writes its model to -o");
  app.option("src", "FILE", &o.src_file, "source sentences, one per line (Moses two-file input; with --trg)");
  app.option("trg", "FILE", &o.trg_file, "target sentences, one per line, parallel to --src");
  app.group("Tokenisation (train; align without -m; with -m the model's settings are used)");
  app.option("tokenize", "MODE", &o.tokenize, "icu (ICU word break) or whitespace", "icu");
  app.flag("lowercase", &o.lowercase, "lowercase words (Unicode, root locale)");
  app.group("Training (train; align without -m)");
  app.option("iterations", "N", &o.iterations, "EM iterations", "5");
  app.flag("variational", &o.variational, "variational Bayes with a symmetric Dirichlet prior instead of plain EM");
  app.option("alpha", "A", &o.alpha, "Dirichlet concentration for --variational", "0.01");
  app.option("prune", "P", &o.prune, "leave table entries below P out of the model (0 keeps all)", "1e-06");
  app.option("max-len", "N", &o.max_len, "skip pairs with a side longer than N tokens (0: no limit)", "0");
  app.option("cache-mb", "MB", &o.cache_mb, "memory for the per-pair cell index cache; beyond it cells are searched",
             "2048");
  app.group("Alignment, lexicon, scores, translation");
  app.option("direction", "DIR", &o.direction,
             "align: fwd, rev or sym (symmetrised) [sym]; lexicon: fwd (t(trg|src)) or rev [fwd]");
  app.option("symmetrize", "METHOD", &o.sym,
             "align --direction sym: intersect, union, grow-diag, grow-diag-final, grow-diag-final-and",
             "grow-diag-final-and");
  app.option("format", "FORMAT", &o.format, "lexicon: ttable (GIVEN TAB WORD TAB PROB) or moses (lex.f2e/lex.e2f lines)",
             "ttable");
  app.option("min-prob", "P", &o.min_prob, "lexicon: leave out entries below P", "0");
  app.option("floor", "P", &o.floor, "score: probability floor for unknown words and unseen pairs", "1e-07");
  app.flag("drop-null", &o.drop_null, "translate: drop source words that the NULL word explains best");
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kLangs | cli::Common::kSkipBad |
                    cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    if (c.inputs.empty()) throw cli::UsageError(std::string("no command given: use ") + kCommands, "see 'pc-ibm1 --help'");
    o.command = c.inputs[0];
    std::vector<std::string> files(c.inputs.begin() + 1, c.inputs.end());
    if (o.direction.empty()) o.direction = o.command == "align" ? "sym" : "fwd";
    if (o.iterations < 0 || o.iterations > 1000) throw cli::UsageError("--iterations must be between 0 and 1000");
    if (o.max_len < 0) throw cli::UsageError("--max-len must not be negative");
    if (!(o.alpha > 0)) throw cli::UsageError("--alpha must be positive");
    if (!(o.prune >= 0 && o.prune < 1)) throw cli::UsageError("--prune must be in [0, 1)");
    const bool needs_model = o.command == "lexicon" || o.command == "score" || o.command == "translate";
    if (needs_model && o.model.empty()) throw cli::UsageError(o.command + " needs a model: give -m FILE");
    if (o.command == "train" && !o.model.empty())
      throw cli::UsageError("train writes its model to -o FILE, not -m", "pc-ibm1 train -o model.safetensors data.tsv");
    if (o.command == "train" && c.output == "-")
      throw cli::UsageError("train needs -o FILE for the model", "pc-ibm1 train -o model.safetensors data.tsv");

    if (o.command == "train") {
      std::unique_ptr<BitextLines> in = open_bitext(ctx, o, files);
      Trained t = train(ctx, o, *in);
      t.model->save(c.output);
    } else if (o.command == "align") {
      std::unique_ptr<BitextLines> in = open_bitext(ctx, o, files);
      Output out(c.output);
      run_align(ctx, o, *in, out);
      out.commit();
    } else if (o.command == "score") {
      std::unique_ptr<BitextLines> in = open_bitext(ctx, o, files);
      Output out(c.output);
      run_score(ctx, o, *in, out);
      out.commit();
    } else if (o.command == "translate") {
      Output out(c.output);
      run_translate(ctx, o, files, out);
      out.commit();
    } else if (o.command == "lexicon") {
      if (!files.empty() || !o.src_file.empty()) throw cli::UsageError("lexicon reads only the model (-m)");
      Output out(c.output);
      run_lexicon(ctx, o, out);
      out.commit();
    } else {
      throw cli::UsageError("unknown command " + quote(o.command) + ": use " + kCommands);
    }
  });
}
