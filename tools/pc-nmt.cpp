// pc-nmt: train a Transformer on bitext (SentencePiece trained in the same
// run), translate with greedy decoding, inspect a model file.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/tsv.h"
#include "mt/decode/heads_run.h"
#include "mt/decode/translate_stream.h"
#include "mt/model/inspect.h"
#include "mt/model/marian_import.h"
#include "mt/tensor/tensor.h"
#include "mt/train/average.h"
#include "mt/train/train_run.h"
#include "tools/pc-nmt-options.h"

using namespace corpus;

namespace {

const char* kUsage = "pc-nmt train -o MODEL [options] TRAIN.tsv... | translate -m MODEL [TEXT] | "
                     "train-heads -m MODEL -o HEADS [TEXT] | inspect -m MODEL | "
                     "import-marian -o MODEL FOLDER | average -o MODEL MODEL...";

// translate's and train-heads' input: the lines of a text, or with
// --column one column of a TSV bitext.
struct Sentences {
  std::unique_ptr<ByteSource> src;  // the text's (the bitext's reader owns it)
  std::optional<LineReader> lines;
  std::unique_ptr<corpus::BitextLines> rows;
  std::unique_ptr<mt::SentenceSource> sentences;
  uint64_t bytes_read() const { return rows ? rows->raw_bytes_read() : src->raw_bytes_read(); }
};

Sentences open_sentences(std::unique_ptr<ByteSource> src, const Args& a, const cli::Common& c) {
  Sentences s;
  s.src = std::move(src);
  if (a.column.empty()) {
    s.sentences = mt::text_sentences(s.lines.emplace(*s.src, c.max_line));
  } else {
    s.rows = corpus::open_tsv_lines(std::move(s.src), {c.max_line});
    s.sentences = mt::column_sentences(*s.rows, a.column, a.out_column);
  }
  return s;
}

void train(cli::Context& ctx, const cli::Common& c, const Args& a, std::vector<std::string> files) {
  if (c.output == "-" || c.output.empty()) throw cli::UsageError("train needs -o MODEL (a .safetensors file)");
  if (files.empty()) ctx.check_stdin_not_terminal(kUsage);
  if (files.empty()) files.push_back("-");
  const bool bar = ctx.progress().enabled();
  auto last_draw = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  mt::TrainEvents ev;
  ev.input = [&](const std::string& f) { ctx.note_input(f); };
  ev.info = [&](const std::string& msg) { ctx.info(msg); };
  ev.count = [&](const std::string& key, uint64_t n) { ctx.set_count(key, n); };
  ev.validated = [&](const std::string& msg) { if (bar) std::fputs("\r\033[K", stderr); ctx.info(msg); };
  ev.progress = [&](const mt::TrainState& s, double loss, double tps) {
    const auto now = std::chrono::steady_clock::now();
    if (!bar || now - last_draw < std::chrono::milliseconds(200)) return;
    last_draw = now;
    fmt::print(stderr, "\r\033[Kpc-nmt train: step {}{}  epoch {}  loss {:.3f}  {:.0f} tok/s", s.step,
               a.max_steps ? fmt::format("/{}", a.max_steps) : "", s.epoch, loss, tps);
  };
  const mt::TrainJob job{std::move(files), c.output, c.seed, c.skip_bad,
                         {{"tool", "pc-nmt"}, {"command", ctx.provenance_command()}}, c.max_line};
  const mt::TrainResult r = mt::run_training(a, job, ev);
  if (bar) fprintf(stderr, "\r\033[K");
  ctx.set_count("steps", static_cast<uint64_t>(r.state.step));
  ctx.set_count("target tokens", static_cast<uint64_t>(r.state.target_tokens));
  ctx.info(fmt::format("stopped ({}) at step {}, epoch {}{}", r.why, r.state.step, r.state.epoch,
                       r.state.best_step ? fmt::format("; best validation at step {}", r.state.best_step) : ""));
}

void translate(cli::Context& ctx, const cli::Common& c, const Args& a, const std::vector<std::string>& files) {
  if (a.model.empty()) throw cli::UsageError("translate needs -m MODEL");
  if (a.n_best && !a.column.empty()) throw cli::UsageError("--n-best writes its own rows: give it without --column");
  Sentences in = open_sentences(open_input(ctx.single_input(files, kUsage)), a, c);
  const mt::TranslationModel model(a.model);
  mt::use_single_threaded_blas();
  mt::TranslateOptions opt;
  opt.decode = {a.batch_size, a.max_len_factor};
  opt.placeholder_quota = !a.free_placeholders;
  mt::set_search(opt, a.beam, a.n_best, a.length_penalty, a.alpha, a.decode, a.block, a.draft, a.candidates);
  Output out(c.output);
  std::optional<Output> stats;
  if (!a.stats.empty()) opt.stats = &stats.emplace(a.stats);
  std::optional<mt::NgramPool> pool;
  if (!a.ngram_pool.empty()) {
    if (a.decode == "greedy") throw cli::UsageError("--ngram-pool is for a parallel --decode mode");
    auto f = open_input(a.ngram_pool);
    LineReader r(*f, c.max_line);
    const mt::Config& cfg = model.file.config();
    pool.emplace(mt::NgramPool::from_text(r, model.trg, cfg.bos_id, cfg.eos_id, std::clamp(a.candidates, 1, 16),
                                          static_cast<size_t>(cfg.max_len)));
    opt.parallel.pool = &*pool;
    ctx.info(fmt::format("n-gram pool: {} sentences, {} tokens with successors", pool->sentences(), pool->contexts()));
  }
  std::optional<mt::Ibm1Drafter> ibm1;
  if (!a.ibm1.empty()) opt.ibm1 = &ibm1.emplace(a.ibm1, model.trg);
  std::optional<mt::DraftHeads> heads;
  if (!a.draft_heads.empty()) {
    if (a.draft != "heads") throw cli::UsageError("--draft-heads is for --draft heads");
    heads.emplace(mt::load_draft_heads(a.draft_heads));
    heads->bind(model.file.config(), model.file.params());
    opt.parallel.heads = &*heads;
  }
  std::optional<Output> ddg;
  if (!a.ddg.empty()) opt.ddg = &ddg.emplace(a.ddg);
  opt.ddg_caption = fmt::format("pc-nmt translate --decode {} --block {} --draft {} --candidates {}", a.decode, a.block,
                                a.draft, a.candidates);
  const mt::TranslateCounts n = mt::translate_stream(model, *in.sentences, out, opt, [&](uint64_t done) {
    ctx.progress().update(in.bytes_read(), done);
  });
  out.commit();
  if (stats) stats->commit();
  if (ddg) ddg->commit();
  ctx.set_count("sentences", n.sentences);
  if (n.empty) ctx.set_count("empty", n.empty);
  if (n.placeholder_lines) ctx.set_count("lines with placeholders", n.placeholder_lines);
  if (n.placeholder_lines) ctx.set_count("placeholder mismatches", n.placeholder_mismatches);
  if (!stats) return;
  ctx.set_count("decoder passes", n.passes);
  ctx.info(fmt::format("median per sentence: {} passes, {:.3f} tokens per pass, {:.3f} ms", n.median_passes,
                       n.median_tokens_per_pass, n.median_ms));
}

void train_heads(cli::Context& ctx, const cli::Common& c, const Args& a, const std::vector<std::string>& files) {
  if (a.model.empty()) throw cli::UsageError("train-heads needs -m MODEL");
  if (c.output.empty() || c.output == "-") throw cli::UsageError("train-heads needs -o HEADS (a .safetensors file)");
  const std::string name = ctx.single_input(files, kUsage);
  Sentences in = open_sentences(open_input(name), a, c);
  const mt::TranslationModel model(a.model);
  mt::use_single_threaded_blas();
  mt::DraftHeadsTrainOptions o;
  o.heads = a.guesses, o.hidden = a.head_dim, o.shortlist = a.shortlist, o.epochs = a.head_epochs, o.seed = c.seed;
  mt::HeadsRunCounts n;
  mt::DraftHeadsTrainReport rep;
  const mt::DraftHeads h = mt::train_heads_on_text(
      model, *in.sentences, a.sentences, {a.batch_size, a.max_len_factor}, o, n, &rep,
      [&](int epoch, double loss) { ctx.info(fmt::format("epoch {}: loss {:.4f} (heads summed)", epoch, loss)); });
  mt::save_draft_heads(c.output, h, fmt::format("{} sentences of {}", n.sentences, name));
  ctx.set_count("lines", n.lines);
  ctx.set_count("sentences", n.sentences);
  if (n.empty) ctx.set_count("empty", n.empty);
  ctx.set_count("positions", static_cast<uint64_t>(rep.positions));
  ctx.info(fmt::format("{} heads, shortlist of {} pieces ({:.1f}% of the output tokens)", h.heads,
                       h.shortlist_size(), 100.0 * rep.shortlist_cover));
}

void inspect(const cli::Common& c, const Args& a) {
  if (a.model.empty()) throw cli::UsageError("inspect needs -m MODEL");
  Output out(c.output);
  mt::inspect_model(a.model, a.vocab, out);
  out.commit();
}

void import_marian(cli::Context& ctx, const cli::Common& c) {
  if (c.output.empty() || c.output == "-") throw cli::UsageError("import-marian needs -o MODEL (a .safetensors file)");
  const mt::MarianSources src = mt::marian_sources(c.inputs);
  ctx.info(mt::describe(mt::import_marian(src, c.output, {{"tool", "pc-nmt"}, {"command", ctx.provenance_command()}})));
}

void average(cli::Context& ctx, const cli::Common& c) {
  if (c.output.empty() || c.output == "-") throw cli::UsageError("average needs -o MODEL (a .safetensors file)");
  if (c.inputs.empty()) throw cli::UsageError("average needs the model files to average");
  for (const std::string& f : c.inputs) ctx.note_input(f);
  const mt::AverageSummary s =
      mt::average_models(c.inputs, c.output, {{"tool", "pc-nmt"}, {"command", ctx.provenance_command()}});
  std::string steps;
  for (int64_t st : s.steps) steps += (steps.empty() ? "" : ", ") + (st < 0 ? std::string("?") : std::to_string(st));
  ctx.set_count("models", static_cast<uint64_t>(s.models));
  ctx.info(fmt::format("averaged {} models of {} weights (steps {})", s.models, s.params, steps));
}

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-nmt", "Train a Transformer translation model on CPU, translate with it, inspect model files.",
               "pc-nmt COMMAND [options]");
  app.version_line("blas", mt::blas_info());
  app.version_line("gemm", mt::gemm_backend_name());
  cli::Common c;
  Args a;
  cli::App& train_cmd = app.subcommand("train", "train a model (SentencePiece trained in the same run)",
                                       "train -o MODEL [--valid VALID.tsv] [options] TRAIN.tsv...");
  training_options(train_cmd, a);
  train_cmd.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSeed | cli::Common::kSkipBad |
                          cli::Common::kMaxLine | cli::Common::kInputs);
  cli::App& tr_cmd = app.subcommand("translate", "translate text, a sentence a line", "translate -m MODEL [-o OUT] [TEXT]");
  translate_options(tr_cmd, a);
  tr_cmd.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kMaxLine | cli::Common::kInputs);
  cli::App& th_cmd = app.subcommand("train-heads", "train draft heads for --draft heads on the model's own translations",
                                    "train-heads -m MODEL -o HEADS [options] [TEXT]");
  train_heads_options(th_cmd, a);
  th_cmd.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSeed | cli::Common::kMaxLine |
                       cli::Common::kInputs);
  cli::App& in_cmd = app.subcommand("inspect", "describe a model file", "inspect -m MODEL [--vocab]");
  in_cmd.group("Model");
  in_cmd.option("m,model", "FILE", &a.model, "model file (.safetensors) to inspect");
  in_cmd.flag("vocab", &a.vocab, "list the vocabulary (side, id, piece, score) instead of the summary");
  in_cmd.common(c, cli::Common::kOutput);
  app.subcommand("import-marian", "convert an OPUS-MT/Marian model", "import-marian -o MODEL FOLDER | MODEL.npz "
                 "[VOCAB.yml SOURCE.spm TARGET.spm]").common(c, cli::Common::kOutput | cli::Common::kInputs);

  app.subcommand("average", "average the weights of checkpoints of one run (--keep-checkpoints)",
                 "average -o MODEL MODEL.step-S...").common(c, cli::Common::kOutput | cli::Common::kInputs);

  // --recipe NAME becomes the recipe's options, ahead of those on the command line.
  std::vector<std::string> args = mt::expand_recipes(std::vector<std::string>(argv, argv + argc));
  std::vector<char*> argv2;
  for (std::string& s : args) argv2.push_back(s.data());
  argv2.push_back(nullptr);
  return app.run(static_cast<int>(args.size()), argv2.data(), [&](cli::Context& ctx) {
    if (ctx.command() == "train") return train(ctx, c, a, c.inputs);
    if (ctx.command() == "translate") return translate(ctx, c, a, c.inputs);
    if (ctx.command() == "train-heads") return train_heads(ctx, c, a, c.inputs);
    if (ctx.command() == "import-marian") return import_marian(ctx, c);
    if (ctx.command() == "average") return average(ctx, c);
    return inspect(c, a);
  });
}
