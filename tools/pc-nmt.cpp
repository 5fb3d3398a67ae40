// pc-nmt: train a Transformer on bitext (SentencePiece trained in the same
// run), translate with greedy decoding, inspect a model file.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/output.h"
#include "mt/decode/translate_stream.h"
#include "mt/model/inspect.h"
#include "mt/model/marian_import.h"
#include "mt/tensor/tensor.h"
#include "mt/train/train_run.h"

using namespace corpus;

namespace {

const char* kUsage = "pc-nmt train -o MODEL [options] TRAIN.tsv... | translate -m MODEL [TEXT] | inspect -m MODEL | "
                     "import-marian -o MODEL FOLDER";

// The training settings, plus what translate and inspect take.
struct Args : mt::TrainSettings {
  std::string model;
  bool vocab = false;
  int beam = 1, n_best = 0, block = 4;
  std::string length_penalty = "gnmt", stats, decode = "greedy", draft = "pad";
  double alpha = 0.6;
};

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
  auto src = open_input(ctx.single_input(files, kUsage));
  const mt::TranslationModel model(a.model);
  mt::use_single_threaded_blas();
  mt::TranslateOptions opt;
  opt.decode = {a.batch_size, a.max_len_factor};
  mt::set_search(opt, a.beam, a.n_best, a.length_penalty, a.alpha, a.decode, a.block, a.draft);
  LineReader lines(*src, c.max_line);
  Output out(c.output);
  std::optional<Output> stats;
  if (!a.stats.empty()) opt.stats = &stats.emplace(a.stats);
  const mt::TranslateCounts n = mt::translate_stream(
      model, lines, out, opt, [&](uint64_t done) { ctx.progress().update(src->raw_bytes_read(), done); });
  out.commit();
  if (stats) stats->commit();
  ctx.set_count("sentences", n.sentences);
  if (n.empty) ctx.set_count("empty", n.empty);
  if (!stats) return;
  ctx.set_count("decoder passes", n.passes);
  ctx.info(fmt::format("median per sentence: {} passes, {:.3f} tokens per pass, {:.3f} ms", n.median_passes,
                       n.median_tokens_per_pass, n.median_ms));
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

// Decoding settings: translate's, and train's for validation.
void decoding_options(cli::App& a, Args& s) {
  a.group("Decoding");
  a.option("batch-size", "N", &s.batch_size, "sentences decoded together").at_least(1);
  a.option("max-len-factor", "X", &s.max_len_factor, "output tokens <= X * source tokens + 10").at_least(0);
}

void training_options(cli::App& t, Args& a) {
  t.group("Data");
  t.option("valid", "FILE", &a.valid, "validation bitext TSV: loss, chrF and BLEU every --valid-every steps");
  t.option("max-len", "N", &a.max_len, "tokens per sentence, EOS included; longer pairs are counted and skipped").at_least(2);
  t.option("vocab-size", "N", &a.vocab_size, "SentencePiece vocabulary size (a soft limit on small data)").at_least(8);
  t.choice("spm-type", "TYPE", &a.spm_type, {"unigram", "bpe"}, "SentencePiece model");
  t.option("spm-sentences", "N", &a.spm_sentences, "sentences sampled (seeded) to train SentencePiece").at_least(1);
  t.flag("separate-vocab", &a.separate_vocab, "one SentencePiece model per side (default: one joint model)");
  t.group("Architecture");
  t.choice("arch", "NAME", &a.arch, {"base", "small", "tiny"}, "preset (base: Marian transformer-base)");
  t.option("dim", "N", &a.dim, "model channels", "from --arch").range(0, 65536);
  t.option("heads", "N", &a.heads, "attention heads", "from --arch").range(0, 1024);
  t.option("ffn-dim", "N", &a.ffn_dim, "feed-forward channels", "from --arch").range(0, 262144);
  t.option("enc-layers", "N", &a.enc_layers, "encoder layers", "from --arch").range(0, 1024);
  t.option("dec-layers", "N", &a.dec_layers, "decoder layers", "from --arch").range(0, 1024);
  t.choice("activation", "F", &a.activation, {"relu", "swish", "gelu"}, "feed-forward activation", "from --arch");
  t.choice("norm", "WHERE", &a.norm, {"post", "pre"}, "layer norm (post: Marian)", "from --arch");
  t.flag("untie-output", &a.untie_output, "an output projection of its own (default: tied to target embeddings)");
  t.group("Training");
  t.option("batch-tokens", "N", &a.batch_tokens, "padded tokens per batch").at_least(1);
  t.option("grad-shards", "N", &a.grad_shards, "batch pieces with their own gradient, summed in order; "
           "results depend on this, never on --threads").at_least(1);
  t.option("lr", "X", &a.lr, "peak learning rate").at_least(0);
  t.option("warmup", "N", &a.warmup, "linear warm-up steps");
  t.choice("decay", "D", &a.decay, {"inv-sqrt", "linear", "none"}, "after warm-up (linear: to 0 at --max-steps)");
  t.option("beta1", "X", &a.beta1, "AdamW beta1").range(0, 1);
  t.option("beta2", "X", &a.beta2, "AdamW beta2").range(0, 1);
  t.option("adam-eps", "X", &a.adam_eps, "AdamW epsilon").at_least(0);
  t.option("weight-decay", "X", &a.weight_decay, "AdamW decoupled weight decay").at_least(0);
  t.option("label-smoothing", "X", &a.label_smoothing, "label smoothing").range(0, 1);
  t.option("dropout", "X", &a.dropout, "dropout on embeddings and sublayer outputs").range(0, 1);
  t.option("clip-norm", "X", &a.clip_norm, "clip the gradient's global norm to X (0: off)").at_least(0);
  t.option("max-steps", "N", &a.max_steps, "stop after N steps in all (0: no limit)");
  t.option("max-time", "SECONDS", &a.max_time, "stop this run after SECONDS (0: no limit)").at_least(0);
  t.option("max-epochs", "N", &a.max_epochs, "stop after N epochs (0: no limit)");
  t.option("valid-every", "N", &a.valid_every, "steps between validations and checkpoints").at_least(1);
  t.option("log-every", "N", &a.log_every, "steps between training-log records").at_least(1);
  t.option("patience", "N", &a.patience, "stop after N validations without improvement (0: never)").at_least(0);
  t.choice("stop-metric", "M", &a.stop_metric, {"chrf", "bleu", "loss"},
           "validation metric for the best model and early stopping");
  t.flag("resume", &a.resume, "continue from MODEL.ckpt, bit for bit, with the same options and data");
  t.option("log", "FILE", &a.log, "JSONL training log", "MODEL.log.jsonl");
  t.option("plot", "FILE", &a.plot, "SVG plot of the loss and score curves", "MODEL.svg");
  decoding_options(t, a);
}

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-nmt", "Train a Transformer translation model on CPU, translate with it, inspect model files.",
               "pc-nmt COMMAND [options]");
  app.version_line("blas", mt::blas_info());
  cli::Common c;
  Args a;
  cli::App& train_cmd = app.subcommand("train", "train a model (SentencePiece trained in the same run)",
                                       "train -o MODEL [--valid VALID.tsv] [options] TRAIN.tsv...");
  training_options(train_cmd, a);
  train_cmd.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSeed | cli::Common::kSkipBad |
                          cli::Common::kMaxLine | cli::Common::kInputs);
  cli::App& tr_cmd = app.subcommand("translate", "translate text, a sentence a line", "translate -m MODEL [-o OUT] [TEXT]");
  tr_cmd.group("Model");
  tr_cmd.option("m,model", "FILE", &a.model, "model file (.safetensors) to translate with");
  decoding_options(tr_cmd, a);
  tr_cmd.group("Search");
  tr_cmd.option("beam", "K", &a.beam, "beam size (1: greedy decoding)").range(1, 1024);
  tr_cmd.option("n-best", "N", &a.n_best, "write N best rows SENTENCE TAB TEXT TAB SCORE (0: a line each)").range(0, 1024);
  tr_cmd.choice("length-penalty", "LP", &a.length_penalty, {"none", "gnmt", "marian"},
                "beam ranking: log P / ((5+len)/6)^alpha (gnmt), / len^alpha (marian), log P (none)");
  tr_cmd.option("alpha", "X", &a.alpha, "length penalty exponent").range(0, 10);
  tr_cmd.choice("decode", "MODE", &a.decode, {"greedy", "jacobi", "gs-jacobi", "hybrid"},
                "greedy's output by parallel passes: jacobi (a sliding block), gs-jacobi (fixed blocks), hybrid");
  tr_cmd.option("block", "B", &a.block, "positions a parallel pass runs").range(1, 16);
  tr_cmd.choice("draft", "SRC", &a.draft, {"pad", "copy", "ngram"}, "guesses for new positions of a parallel pass");
  tr_cmd.option("stats", "FILE", &a.stats, "per-sentence TSV: passes, tokens, tokens per pass, ms; medians in the summary");
  tr_cmd.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kMaxLine | cli::Common::kInputs);
  cli::App& in_cmd = app.subcommand("inspect", "describe a model file", "inspect -m MODEL [--vocab]");
  in_cmd.group("Model");
  in_cmd.option("m,model", "FILE", &a.model, "model file (.safetensors) to inspect");
  in_cmd.flag("vocab", &a.vocab, "list the vocabulary (side, id, piece, score) instead of the summary");
  in_cmd.common(c, cli::Common::kOutput);
  app.subcommand("import-marian", "convert an OPUS-MT/Marian model", "import-marian -o MODEL FOLDER | MODEL.npz "
                 "[VOCAB.yml SOURCE.spm TARGET.spm]").common(c, cli::Common::kOutput | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    if (ctx.command() == "train") return train(ctx, c, a, c.inputs);
    if (ctx.command() == "translate") return translate(ctx, c, a, c.inputs);
    if (ctx.command() == "import-marian") return import_marian(ctx, c);
    return inspect(c, a);
  });
}
