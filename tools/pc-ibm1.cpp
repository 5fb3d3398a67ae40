// pc-ibm1: IBM Model 1 — train, align, lexicon, score, translate.
#include <fmt/format.h>

#include <memory>
#include <string>

#include "align/ibm1_apply.h"
#include "align/ibm1_run.h"
#include "libcorpus/core/line_cap.h"
#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/tsv.h"

using namespace corpus;
using namespace align;

namespace {

struct Opts {
  std::string command, model, src_file, trg_file, tokenize = "icu", direction = "sym", lex_direction = "fwd",
                                                   sym = "grow-diag-final-and", format = "ttable";
  bool lowercase = false, variational = false, drop_null = false;
  int iterations = 5, max_len = 0;
  double alpha = 0.01, prune = 1e-6, floor = 1e-7, min_prob = 0;
  uint64_t cache_mb = 2048;
};

// FILE or stdin, its lines cut past --max-line (line_cap.h).
std::unique_ptr<ByteSource> open_one(cli::Context& ctx, const std::vector<std::string>& files, const std::string& usage) {
  return cap_lines(open_input(ctx.single_input(files, usage)), ctx.common().max_line);
}

std::unique_ptr<BitextLines> open_bitext(cli::Context& ctx, const Opts& o, const std::vector<std::string>& files) {
  if (o.src_file.empty() != o.trg_file.empty()) throw cli::UsageError("--src and --trg go together");
  if (!o.src_file.empty() && !files.empty()) throw cli::UsageError("give either FILE or --src/--trg, not both");
  if (!o.src_file.empty()) {
    for (const auto& f : {o.src_file, o.trg_file}) ctx.note_input(f);
    return open_lockstep_lines(o.src_file, o.trg_file, ctx.common().max_line);
  }
  return open_tsv_lines(open_one(ctx, files, "pc-ibm1 " + o.command + " [options] [FILE]"));
}

RowOptions row_options(cli::Context& ctx, TokenizerOptions t) { return {t, ctx.common().skip_bad, ctx.common().max_line}; }

ProgressFn progress(cli::Context& ctx) { return [&ctx](uint64_t b, uint64_t r) { ctx.progress().update(b, r); }; }
WriteFn writer(Output& out) { return [&out](std::string_view b) { out.write(b); }; }

void count_rows(cli::Context& ctx, const RunCounts& n, const char* rows = "pairs in") {
  ctx.set_count(rows, n.rows);
  if (n.skipped_bad || ctx.common().skip_bad) ctx.set_count("skipped (bad)", n.skipped_bad);
}
// Reads the bitext, runs EM and returns the model (train, and align without -m).
Trained train(cli::Context& ctx, const Opts& o, BitextLines& in) {
  const TrainRunOptions t{
      {row_options(ctx, {parse_token_mode(o.tokenize), o.lowercase}), static_cast<uint32_t>(o.max_len)},
      {o.iterations, o.variational, o.alpha, o.prune, o.cache_mb << 20}, ctx.common().src_lang, ctx.common().trg_lang};
  const TrainEvents ev{progress(ctx), [&](const CorpusIds& c) {
        ctx.set_counts(c.counts(ctx.common().skip_bad));
        if (c.empty_skipped) ctx.warn(fmt::format("{} pairs with an empty side were skipped", c.empty_skipped));
      },
      [&](const CorpusIds& c, const Ibm1Trainer& tr, double r, double i) { ctx.info(index_report(c, tr, r, i)); },
      [&](const IterationStats& s) { ctx.info(iteration_report(s)); }};
  return train_model(in, t, ev);
}

void run_align(cli::Context& ctx, const Opts& o, BitextLines& in, Output& out) {
  const AlignOptions a{o.direction == "fwd" ? Direction::kFwd : o.direction == "rev" ? Direction::kRev : Direction::kSym,
                       parse_symmetrize(o.sym)};
  if (o.model.empty()) return align_corpus(train(ctx, o, in), a, writer(out));  // train on the input, then align it
  const Ibm1Model m = Ibm1Model::load(o.model);
  count_rows(ctx, align_rows(in, m, row_options(ctx, m.tokenizer()), a, writer(out), progress(ctx)));
}

void run_score(cli::Context& ctx, const Opts& o, BitextLines& in, Output& out) {
  const Ibm1Model m = Ibm1Model::load(o.model);
  RunCounts n = score_rows(in, m, row_options(ctx, m.tokenizer()), o.floor, writer(out), progress(ctx));
  count_rows(ctx, n);
  if (n.empty_side) {
    ctx.set_count("empty side (scored nan)", n.empty_side);
    ctx.warn(fmt::format("{} pairs with an empty side were scored nan", n.empty_side));
  }
}

void run_translate(cli::Context& ctx, const Opts& o, const std::vector<std::string>& files, Output& out) {
  auto src = open_one(ctx, files, "pc-ibm1 translate -m MODEL [options] [FILE]");
  const Ibm1Model m = Ibm1Model::load(o.model);
  RunCounts n = translate_lines(*src, m, o.drop_null, ctx.common().skip_bad, ctx.common().max_line, writer(out), progress(ctx));
  count_rows(ctx, n, "lines");
}

void run_lexicon(cli::Context& ctx, const Opts& o, Output& out) {
  const Ibm1Model m = Ibm1Model::load(o.model);
  ctx.note_input(o.model);
  const LexFormat f = o.format == "moses" ? LexFormat::kMoses : LexFormat::kTtable;
  ctx.set_count("entries", write_lexicon(m, o.lex_direction == "rev", f, o.min_prob, writer(out)));
}

// The options several commands share, declared once for each command's table.
void input_options(cli::App& a, Opts& o, bool bitext) {
  a.group("Input and model");
  if (bitext) {
    a.option("src", "FILE", &o.src_file, "source sentences, one per line (Moses two-file input; with --trg)");
    a.option("trg", "FILE", &o.trg_file, "target sentences, one per line, parallel to --src");
  }
}

void model_option(cli::App& a, Opts& o, const char* help) { a.option("m,model", "FILE", &o.model, help); }

void training_options(cli::App& a, Opts& o) {
  a.group("Tokenisation (with -m the model's settings are used)");
  a.choice("tokenize", "MODE", &o.tokenize, {"icu", "whitespace"}, "icu: ICU word break; whitespace: split at spaces");
  a.flag("lowercase", &o.lowercase, "lowercase words (Unicode, root locale)");
  a.group("Training");
  a.option("iterations", "N", &o.iterations, "EM iterations").range(0, 1000);
  a.flag("variational", &o.variational, "variational Bayes with a symmetric Dirichlet prior instead of plain EM");
  a.option("alpha", "A", &o.alpha, "Dirichlet concentration for --variational").at_least(1e-9);
  a.option("prune", "P", &o.prune, "leave table entries below P out of the model (0 keeps all)").range(0, 1);
  a.option("max-len", "N", &o.max_len, "skip pairs with a side longer than N tokens (0: no limit)").at_least(0);
  a.option("cache-mb", "MB", &o.cache_mb, "memory for the per-pair cell index cache; beyond it cells are searched");
}

constexpr unsigned kBitextCommon = cli::Common::kOutput | cli::Common::kThreads | cli::Common::kLangs |
                                   cli::Common::kSkipBad | cli::Common::kMaxLine | cli::Common::kInputs;

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-ibm1",
               "IBM Model 1 word alignment: train (EM, both directions), align (Viterbi, symmetrisation), lexicon "
               "(t-tables, Moses lex files), score (pair scores) and translate (word by word).",
               "pc-ibm1 COMMAND [options] [FILE]");
  cli::Common c;
  Opts o;
  cli::App& train_cmd = app.subcommand("train", "train both directions by EM; the model goes to -o",
                                       "train -o MODEL [options] [BITEXT]");
  input_options(train_cmd, o, true);
  training_options(train_cmd, o);
  train_cmd.common(c, kBitextCommon);

  cli::App& align_cmd = app.subcommand("align", "Pharaoh word alignments (training on the input without -m)",
                                       "align [-m MODEL] [options] [BITEXT]");
  input_options(align_cmd, o, true);
  model_option(align_cmd, o, "model file to align with (default: train on the input first)");
  training_options(align_cmd, o);
  align_cmd.group("Alignment");
  align_cmd.choice("direction", "DIR", &o.direction, {"fwd", "rev", "sym"}, "fwd, rev, or sym (symmetrised)");
  align_cmd.choice("symmetrize", "METHOD", &o.sym,
                   {"intersect", "union", "grow-diag", "grow-diag-final", "grow-diag-final-and"},
                   "--direction sym: how the two directions combine");
  align_cmd.common(c, kBitextCommon);

  cli::App& lex_cmd = app.subcommand("lexicon", "write the model's translation tables", "lexicon -m MODEL [options]");
  model_option(lex_cmd, o, "model file to read");
  lex_cmd.group("Lexicon");
  lex_cmd.choice("direction", "DIR", &o.lex_direction, {"fwd", "rev"}, "fwd: t(trg|src); rev: t(src|trg)");
  lex_cmd.choice("format", "FORMAT", &o.format, {"ttable", "moses"},
                 "ttable: GIVEN TAB WORD TAB PROB; moses: lex.f2e/lex.e2f lines");
  lex_cmd.option("min-prob", "P", &o.min_prob, "leave out entries below P").range(0, 1);
  lex_cmd.common(c, cli::Common::kOutput);

  cli::App& score_cmd = app.subcommand("score", "append length-normalised IBM1 scores to each pair",
                                       "score -m MODEL [options] [BITEXT]");
  input_options(score_cmd, o, true);
  model_option(score_cmd, o, "model file to score with");
  score_cmd.group("Scores");
  score_cmd.option("floor", "P", &o.floor, "probability floor for unknown words and unseen pairs").range(1e-300, 0.5);
  score_cmd.common(c, kBitextCommon);

  cli::App& tr_cmd = app.subcommand("translate", "translate plain text word by word", "translate -m MODEL [options] [FILE]");
  input_options(tr_cmd, o, false);
  model_option(tr_cmd, o, "model file to translate with");
  tr_cmd.group("Translation");
  tr_cmd.flag("drop-null", &o.drop_null, "drop source words that the NULL word explains best");
  tr_cmd.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSkipBad | cli::Common::kMaxLine |
                       cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    o.command = ctx.command();
    const std::vector<std::string>& files = c.inputs;
    if (o.command != "train" && o.command != "align" && o.model.empty())
      throw cli::UsageError(o.command + " needs a model: give -m FILE");
    if (o.command == "train" && c.output == "-")
      throw cli::UsageError("train needs -o FILE for the model", "pc-ibm1 train -o model.safetensors data.tsv");

    if (o.command == "train") return train(ctx, o, *open_bitext(ctx, o, files)).model.save(c.output);
    std::unique_ptr<BitextLines> in;
    if (o.command == "align" || o.command == "score") in = open_bitext(ctx, o, files);
    Output out(c.output);  // the output appears under its name only when complete
    if (o.command == "align") run_align(ctx, o, *in, out);
    else if (o.command == "score") run_score(ctx, o, *in, out);
    else if (o.command == "translate") run_translate(ctx, o, files, out);
    else run_lexicon(ctx, o, out);
    out.commit();
  });
}
