// pc-nmt: train a Transformer on bitext (SentencePiece trained in the same
// run), translate with greedy decoding, inspect a model file.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/output.h"
#include "mt/decode/translate_stream.h"
#include "mt/model/inspect.h"
#include "mt/tensor/tensor.h"
#include "mt/train/train_run.h"

using namespace corpus;

namespace {

const char* kUsage =
    "pc-nmt train -o MODEL [--valid VALID.tsv] [options] TRAIN.tsv...\n"
    "         pc-nmt translate -m MODEL [-o OUT] [TEXT]\n"
    "         pc-nmt inspect -m MODEL [--vocab]";

// The training settings, plus what translate and inspect take.
struct Args : mt::TrainSettings {
  std::string model;
  bool vocab = false;
};

void train(cli::Context& ctx, const cli::Common& c, const Args& a, std::vector<std::string> files) {
  if (c.output == "-" || c.output.empty()) throw cli::UsageError("train needs -o MODEL (a .safetensors file)");
  if (files.empty()) {
    ctx.check_stdin_not_terminal(kUsage);
    files.push_back("-");
  }
  const bool bar = ctx.progress().enabled();
  auto last_draw = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  mt::TrainEvents ev;
  ev.input = [&](const std::string& f) { ctx.note_input(f); };
  ev.info = [&](const std::string& msg) { ctx.info(msg); };
  ev.count = [&](const std::string& key, uint64_t n) { ctx.set_count(key, n); };
  ev.validated = [&](const std::string& msg) {
    if (bar) fprintf(stderr, "\r\033[K");
    ctx.info(msg);
  };
  ev.progress = [&](const mt::TrainState& s, double loss, double tps) {
    if (!bar) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_draw < std::chrono::milliseconds(200)) return;
    last_draw = now;
    std::string total = a.max_steps ? fmt::format("/{}", a.max_steps) : "";
    fprintf(stderr, "\r\033[Kpc-nmt train: step %lld%s  epoch %lld  loss %.3f  %.0f tok/s",
            static_cast<long long>(s.step), total.c_str(), static_cast<long long>(s.epoch), loss, tps);
  };
  const mt::TrainJob job{std::move(files), c.output, c.seed, c.skip_bad,
                         {{"tool", "pc-nmt"}, {"command", ctx.provenance_command()}}};
  const mt::TrainResult r = mt::run_training(a, job, ev);
  if (bar) fprintf(stderr, "\r\033[K");
  ctx.set_count("steps", static_cast<uint64_t>(r.state.step));
  ctx.set_count("target tokens", static_cast<uint64_t>(r.state.target_tokens));
  ctx.info(fmt::format("stopped ({}) at step {}, epoch {}{}", r.why, r.state.step, r.state.epoch,
                       r.state.best_step ? fmt::format("; best validation at step {}", r.state.best_step) : ""));
}

void translate(cli::Context& ctx, const cli::Common& c, const Args& a, const std::vector<std::string>& files) {
  if (a.model.empty()) throw cli::UsageError("translate needs -m MODEL");
  if (files.size() > 1) throw cli::UsageError("translate takes one input file");
  const std::string in_path = files.empty() ? "-" : files[0];
  if (in_path == "-") ctx.check_stdin_not_terminal(kUsage);
  if (a.batch_size < 1) throw cli::UsageError("--batch-size must be positive");
  const mt::TranslationModel model(a.model);
  mt::use_single_threaded_blas();
  mt::TranslateOptions opt;
  opt.decode.batch_size = a.batch_size;
  opt.decode.max_len_factor = a.max_len_factor;
  ctx.note_input(in_path);
  auto src = open_input(in_path);
  LineReader lines(*src);
  Output out(c.output);
  const mt::TranslateCounts n = mt::translate_stream(
      model, lines, out, opt, [&](uint64_t done) { ctx.progress().update(src->raw_bytes_read(), done); });
  out.commit();
  ctx.set_count("sentences", n.sentences);
}

void inspect(const cli::Common& c, const Args& a) {
  if (a.model.empty()) throw cli::UsageError("inspect needs -m MODEL");
  Output out(c.output);
  mt::inspect_model(a.model, a.vocab, out);
  out.commit();
}

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-nmt", "Train a Transformer translation model on CPU, translate with it, inspect model files.",
               kUsage);
  app.version_line("blas", mt::blas_info());
  cli::Common c;
  Args a;
  app.group("Model file (translate, inspect)");
  app.option("m,model", "FILE", &a.model, "model file (.safetensors) to translate with or inspect");
  app.flag("vocab", &a.vocab, "inspect: list the vocabulary (side, id, piece, score) instead of the summary");
  app.group("Data (train)");
  app.option("valid", "FILE", &a.valid, "validation bitext TSV: loss, chrF and BLEU every --valid-every steps");
  app.option("max-len", "N", &a.max_len, "tokens per sentence, EOS included; longer pairs are counted and skipped",
             "128");
  app.option("vocab-size", "N", &a.vocab_size, "SentencePiece vocabulary size (a soft limit on small data)", "8000");
  app.option("spm-type", "TYPE", &a.spm_type, "SentencePiece model: unigram or bpe", "unigram");
  app.option("spm-sentences", "N", &a.spm_sentences, "sentences sampled (seeded) to train SentencePiece", "300000");
  app.flag("separate-vocab", &a.separate_vocab, "one SentencePiece model per side (default: one joint model)");
  app.group("Architecture (train)");
  app.option("arch", "NAME", &a.arch, "preset: base (Marian transformer-base), small or tiny", "small");
  app.option("dim", "N", &a.dim, "model channels", "from --arch");
  app.option("heads", "N", &a.heads, "attention heads", "from --arch");
  app.option("ffn-dim", "N", &a.ffn_dim, "feed-forward channels", "from --arch");
  app.option("enc-layers", "N", &a.enc_layers, "encoder layers", "from --arch");
  app.option("dec-layers", "N", &a.dec_layers, "decoder layers", "from --arch");
  app.option("activation", "F", &a.activation, "feed-forward activation: relu, swish or gelu", "relu");
  app.option("norm", "WHERE", &a.norm, "layer norm: post (Marian) or pre", "post");
  app.flag("untie-output", &a.untie_output, "an output projection of its own (default: tied to target embeddings)");
  app.group("Training (train)");
  app.option("batch-tokens", "N", &a.batch_tokens, "padded tokens per batch", "4096");
  app.option("grad-shards", "N", &a.grad_shards, "batch pieces with their own gradient, summed in order; "
             "results depend on this, never on --threads", "4");
  app.option("lr", "X", &a.lr, "peak learning rate", "0.0005");
  app.option("warmup", "N", &a.warmup, "linear warm-up steps", "4000");
  app.option("decay", "D", &a.decay, "after warm-up: inv-sqrt, linear (to 0 at --max-steps) or none", "inv-sqrt");
  app.option("beta1", "X", &a.beta1, "AdamW beta1", "0.9");
  app.option("beta2", "X", &a.beta2, "AdamW beta2", "0.98");
  app.option("adam-eps", "X", &a.adam_eps, "AdamW epsilon", "1e-9");
  app.option("weight-decay", "X", &a.weight_decay, "AdamW decoupled weight decay", "0");
  app.option("label-smoothing", "X", &a.label_smoothing, "label smoothing", "0.1");
  app.option("dropout", "X", &a.dropout, "dropout on embeddings and sublayer outputs", "0.1");
  app.option("clip-norm", "X", &a.clip_norm, "clip the gradient's global norm to X (0: off)", "1");
  app.option("max-steps", "N", &a.max_steps, "stop after N steps in all (0: no limit)", "0");
  app.option("max-time", "SECONDS", &a.max_time, "stop this run after SECONDS (0: no limit)", "0");
  app.option("max-epochs", "N", &a.max_epochs, "stop after N epochs (0: no limit)", "0");
  app.option("valid-every", "N", &a.valid_every, "steps between validations and checkpoints", "1000");
  app.option("log-every", "N", &a.log_every, "steps between training-log records", "100");
  app.option("patience", "N", &a.patience, "stop after N validations without improvement (0: never)", "10");
  app.option("stop-metric", "M", &a.stop_metric, "validation metric for the best model and early stopping: "
             "chrf, bleu or loss", "chrf");
  app.flag("resume", &a.resume, "continue from MODEL.ckpt, bit for bit, with the same options and data");
  app.option("log", "FILE", &a.log, "JSONL training log", "MODEL.log.jsonl");
  app.option("plot", "FILE", &a.plot, "SVG plot of the loss and score curves", "MODEL.svg");
  app.group("Decoding (translate, validation)");
  app.option("batch-size", "N", &a.batch_size, "sentences decoded together", "32");
  app.option("max-len-factor", "X", &a.max_len_factor, "output tokens <= X * source tokens + 10", "2");
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSeed | cli::Common::kSkipBad |
                    cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    if (c.inputs.empty()) throw cli::UsageError("no subcommand", std::string("Usage: ") + kUsage);
    const std::string cmd = c.inputs[0];
    std::vector<std::string> files(c.inputs.begin() + 1, c.inputs.end());
    if (cmd == "train") return train(ctx, c, a, files);
    if (cmd == "translate") return translate(ctx, c, a, files);
    if (cmd == "inspect") {
      if (!files.empty()) throw cli::UsageError("inspect takes -m MODEL, not files");
      return inspect(c, a);
    }
    throw cli::UsageError("unknown subcommand " + quote(cmd), "use train, translate or inspect");
  });
}
