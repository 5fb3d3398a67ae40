// pc-nmt: train a Transformer on bitext (SentencePiece trained in the same
// run), translate with greedy decoding, inspect a model file.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/utf8.h"
#include "mt/decode/greedy.h"
#include "mt/model/model_file.h"
#include "mt/spm/spm.h"
#include "mt/train/plot.h"
#include "mt/train/train_data.h"
#include "mt/tensor/tensor.h"
#include "mt/train/trainer.h"

using namespace corpus;

namespace {

const char* kUsage =
    "pc-nmt train -o MODEL [--valid VALID.tsv] [options] TRAIN.tsv...\n"
    "         pc-nmt translate -m MODEL [-o OUT] [TEXT]\n"
    "         pc-nmt inspect -m MODEL [--vocab]";

struct Args {
  std::string model, valid, log, plot, arch = "small", activation, norm, spm_type = "unigram", decay = "inv-sqrt",
                                       stop_metric = "chrf";
  int vocab_size = 8000, max_len = 128, dim = 0, heads = 0, ffn_dim = 0, enc_layers = 0, dec_layers = 0,
      grad_shards = 4, patience = 10, batch_size = 32;
  uint64_t batch_tokens = 4096, warmup = 4000, max_steps = 0, max_epochs = 0, valid_every = 1000, log_every = 100,
           spm_sentences = 300000;
  double lr = 5e-4, beta1 = 0.9, beta2 = 0.98, adam_eps = 1e-9, weight_decay = 0, label_smoothing = 0.1,
         dropout = 0.1, clip_norm = 1.0, max_time = 0, max_len_factor = 2.0;
  bool separate_vocab = false, untie_output = false, resume = false, vocab = false;
};

mt::Config make_config(const Args& a, int src_vocab, int trg_vocab) {
  mt::Config cfg = mt::Config::from_preset(a.arch);
  if (a.dim) cfg.dim = a.dim;
  if (a.heads) cfg.heads = a.heads;
  if (a.ffn_dim) cfg.ffn_dim = a.ffn_dim;
  if (a.enc_layers) cfg.enc_layers = a.enc_layers;
  if (a.dec_layers) cfg.dec_layers = a.dec_layers;
  if (!a.activation.empty()) cfg.activation = mt::parse_activation(a.activation);
  if (!a.norm.empty()) {
    if (a.norm != "pre" && a.norm != "post") throw cli::UsageError("--norm must be pre or post, not " + quote(a.norm));
    cfg.pre_norm = a.norm == "pre";
  }
  cfg.src_vocab = src_vocab;
  cfg.trg_vocab = trg_vocab;
  cfg.shared_embeddings = !a.separate_vocab;
  cfg.tied_output = !a.untie_output;
  cfg.max_len = a.max_len;
  try {
    cfg.validate();
  } catch (const Error& e) {
    throw cli::UsageError(e.what());
  }
  return cfg;
}

// A tokenizer from a model file's tensor; a damaged one is an Error naming both.
mt::Tokenizer load_tokenizer(std::string_view bytes, const std::string& file, std::string_view tensor) {
  try {
    return mt::Tokenizer(bytes);
  } catch (const Error& e) {
    throw Error(fmt::format("tensor '{}': {}", tensor, e.what()), "the model file is damaged: copy it again or retrain")
        .at(file);
  }
}

// One side's tokenizer: the joint model when there is one, else that side's.
// `file` is where the vocabularies came from, for the error.
mt::Tokenizer side_tokenizer(const mt::Vocabs& v, bool source, const std::string& file) {
  if (!v.joint.empty()) return load_tokenizer(v.joint, file, "spm.joint");
  return source ? load_tokenizer(v.src, file, "spm.src") : load_tokenizer(v.trg, file, "spm.trg");
}

void train(cli::Context& ctx, const cli::Common& c, const Args& a, std::vector<std::string> files) {
  if (c.output == "-" || c.output.empty()) throw cli::UsageError("train needs -o MODEL (a .safetensors file)");
  if (files.empty()) {
    ctx.check_stdin_not_terminal(kUsage);
    files.push_back("-");
  }
  if (a.max_len < 4 || a.max_len > 4096) throw cli::UsageError(fmt::format("--max-len must be 4 to 4096, not {}", a.max_len));
  if (a.grad_shards < 1 || a.grad_shards > 256) throw cli::UsageError("--grad-shards must be 1 to 256");
  if (a.stop_metric != "chrf" && a.stop_metric != "bleu" && a.stop_metric != "loss")
    throw cli::UsageError("--stop-metric must be chrf, bleu or loss, not " + quote(a.stop_metric));
  for (const auto& f : files) ctx.note_input(f);
  if (!a.valid.empty()) ctx.note_input(a.valid);
  const auto t0 = std::chrono::steady_clock::now();
  mt::Bitext raw = mt::read_bitext(files, c.skip_bad);
  if (raw.src.empty()) throw Error("no training pairs in the input", "give bitext TSV with src_text and trg_text");
  mt::Bitext raw_valid;
  if (!a.valid.empty()) raw_valid = mt::read_bitext({a.valid}, c.skip_bad);
  if (!a.valid.empty() && raw_valid.src.empty()) throw Error("no validation pairs").at(a.valid);

  // Tokenizers: from the checkpoint when resuming, else trained now.
  mt::Vocabs vocabs;
  const std::string ckpt = c.output + ".ckpt";
  if (a.resume) {
    vocabs = mt::ModelFile(ckpt).vocabs();
  } else {
    mt::SpmTrainOptions so;
    so.vocab_size = a.vocab_size;
    so.model_type = a.spm_type;
    so.max_sentences = a.spm_sentences;
    so.seed = c.seed;
    if (a.separate_vocab) {
      vocabs.src = mt::train_spm(raw.src, so);
      vocabs.trg = mt::train_spm(raw.trg, so);
    } else {
      std::vector<std::string> both(raw.src);
      both.insert(both.end(), raw.trg.begin(), raw.trg.end());
      vocabs.joint = mt::train_spm(both, so);
    }
    ctx.info(fmt::format("SentencePiece trained in {:.1f} s",
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
  }
  mt::Tokenizer src_tok = side_tokenizer(vocabs, true, ckpt);  // only a resumed checkpoint's can be damaged
  mt::Tokenizer trg_tok = side_tokenizer(vocabs, false, ckpt);
  mt::EncodedBitext tr = mt::encode_bitext(raw, src_tok, trg_tok, a.max_len, false);
  mt::EncodedBitext va = mt::encode_bitext(raw_valid, src_tok, trg_tok, a.max_len, true);
  const uint64_t skipped_bad = raw.skipped_bad + raw_valid.skipped_bad;
  raw = {};
  ctx.set_count("training pairs", tr.ids.size());
  if (tr.too_long) ctx.set_count("skipped (longer than --max-len)", tr.too_long);
  if (tr.empty) ctx.set_count("skipped (empty side)", tr.empty);
  if (skipped_bad || c.skip_bad) ctx.set_count("skipped (bad)", skipped_bad);
  if (!a.valid.empty()) ctx.set_count("validation pairs", va.ids.size());
  if (tr.ids.size() == 0) throw Error("no training pair fits --max-len", "raise --max-len");

  mt::Config cfg = make_config(a, src_tok.vocab_size(), trg_tok.vocab_size());
  mt::TrainOptions o;
  o.batch_tokens = static_cast<int64_t>(a.batch_tokens);
  o.grad_shards = a.grad_shards;
  o.lr = a.lr;
  o.warmup = static_cast<int64_t>(a.warmup);
  o.decay = mt::parse_decay(a.decay);
  o.adam = {a.beta1, a.beta2, a.adam_eps, a.weight_decay};
  o.label_smoothing = static_cast<float>(a.label_smoothing);
  o.dropout = static_cast<float>(a.dropout);
  o.clip_norm = a.clip_norm;
  o.max_steps = static_cast<int64_t>(a.max_steps);
  o.max_time = a.max_time;
  o.max_epochs = static_cast<int64_t>(a.max_epochs);
  o.valid_every = static_cast<int64_t>(a.valid_every);
  o.log_every = static_cast<int64_t>(a.log_every);
  o.patience = a.patience;
  o.stop_metric = a.stop_metric;
  o.seed = c.seed;
  o.decode.batch_size = a.batch_size;
  o.decode.max_len_factor = a.max_len_factor;
  if (o.max_steps == 0 && o.max_time == 0 && o.max_epochs == 0 && (a.valid.empty() || o.patience == 0))
    throw cli::UsageError("training would never stop", "give --max-steps, --max-time, --max-epochs or --valid");
  if (o.batch_tokens < a.max_len) throw cli::UsageError("--batch-tokens must be at least --max-len");

  nlohmann::ordered_json prov = {{"tool", "pc-nmt"}, {"command", ctx.provenance_command()}};
  auto detok = [&](const std::vector<int32_t>& ids) { return trg_tok.decode(ids); };
  const mt::ValidSet valid{std::move(va.ids), std::move(va.refs)};  // the trainer keeps a reference
  mt::Trainer trainer(cfg, o, tr.ids, valid, vocabs, detok, c.output, prov);
  if (a.resume)
    trainer.resume(ckpt);
  else
    trainer.init_weights();
  ctx.info(fmt::format("model: {} parameters ({} {}/{}/{}, {}+{} layers); BLAS: {}", trainer.params().size(),
                       cfg.preset, cfg.dim, cfg.heads, cfg.ffn_dim, cfg.enc_layers, cfg.dec_layers, mt::blas_info()));

  const std::string log_path = a.log.empty() ? c.output + ".log.jsonl" : a.log;
  const std::string plot_path = a.plot.empty() ? c.output + ".svg" : a.plot;
  const bool bar = ctx.progress().enabled();
  mt::Trainer::Hooks hooks;
  hooks.record = [&](const nlohmann::ordered_json& r) {
    if (r.value("type", "") == "valid") {
      if (bar) fprintf(stderr, "\r\033[K");
      ctx.info(fmt::format("step {}: validation loss {:.4f}, chrF {:.2f}, BLEU {:.2f}{}", r["step"].get<int64_t>(),
                           r["loss"].get<double>(), r["chrf"].get<double>(), r["bleu"].get<double>(),
                           r["best"].get<bool>() ? " (best)" : ""));
    }
  };
  hooks.saved = [&] {
    Output log(log_path, Compression::kNone);
    for (const auto& r : trainer.log()) log.write(r.dump() + "\n");
    log.commit();
    Output svg(plot_path, Compression::kNone);
    svg.write(mt::training_svg(trainer.log(), "pc-nmt train: " + c.output));
    svg.commit();
  };
  auto last_draw = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  hooks.progress = [&](const mt::TrainState& s, double loss, double tps) {
    if (!bar) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_draw < std::chrono::milliseconds(200)) return;
    last_draw = now;
    std::string total = o.max_steps ? fmt::format("/{}", o.max_steps) : "";
    fprintf(stderr, "\r\033[Kpc-nmt train: step %lld%s  epoch %lld  loss %.3f  %.0f tok/s",
            static_cast<long long>(s.step), total.c_str(), static_cast<long long>(s.epoch), loss, tps);
  };
  std::string why = trainer.run(hooks);
  if (bar) fprintf(stderr, "\r\033[K");
  const auto& s = trainer.state();
  ctx.set_count("steps", static_cast<uint64_t>(s.step));
  ctx.set_count("target tokens", static_cast<uint64_t>(s.target_tokens));
  ctx.info(fmt::format("stopped ({}) at step {}, epoch {}{}", why, s.step, s.epoch,
                       s.best_step ? fmt::format("; best validation at step {}", s.best_step) : ""));
}

void translate(cli::Context& ctx, const cli::Common& c, const Args& a, const std::vector<std::string>& files) {
  if (a.model.empty()) throw cli::UsageError("translate needs -m MODEL");
  if (files.size() > 1) throw cli::UsageError("translate takes one input file");
  const std::string in_path = files.empty() ? "-" : files[0];
  if (in_path == "-") ctx.check_stdin_not_terminal(kUsage);
  if (a.batch_size < 1) throw cli::UsageError("--batch-size must be positive");
  mt::ModelFile mf(a.model);
  const mt::Vocabs vocabs = mf.vocabs();
  if (vocabs.joint.empty() && (vocabs.src.empty() || vocabs.trg.empty()))
    throw Error("the model has no SentencePiece model inside").at(a.model);
  mt::Tokenizer src_tok = side_tokenizer(vocabs, true, a.model);
  mt::Tokenizer trg_tok = side_tokenizer(vocabs, false, a.model);
  mt::use_single_threaded_blas();
  mt::DecodeOptions opt;
  opt.batch_size = a.batch_size;
  opt.max_len_factor = a.max_len_factor;
  ctx.note_input(in_path);
  auto src = open_input(in_path);
  LineReader lines(*src);
  Output out(c.output);
  std::vector<std::vector<int32_t>> chunk;
  uint64_t n = 0;
  auto flush = [&] {
    for (const auto& h : mt::greedy_translate(mf.config(), mf.params(), chunk, opt)) {
      out.write(trg_tok.decode(h));
      out.put('\n');
    }
    chunk.clear();
    ctx.progress().update(src->raw_bytes_read(), n);
  };
  std::string_view line;
  while (lines.next(line)) {
    std::string bad = check_text(line);
    if (!bad.empty()) throw Error(bad).at(lines.name(), lines.line_number());
    bool cut = false;  // greedy_translate keeps max_len - 1 tokens: the rest of a huge line is not encoded
    chunk.push_back(src_tok.encode_prefix(line, static_cast<size_t>(mf.config().max_len), cut));
    ++n;
    if (chunk.size() >= 64 * static_cast<size_t>(a.batch_size)) flush();
  }
  flush();
  out.commit();
  ctx.set_count("sentences", n);
}

void inspect(const cli::Common& c, const Args& a) {
  if (a.model.empty()) throw cli::UsageError("inspect needs -m MODEL");
  mt::ModelFile mf(a.model);
  Output out(c.output);
  const auto& meta = mf.file().metadata();
  nlohmann::ordered_json j;
  j["file"] = a.model;
  j["format"] = meta.at("format") + " version " + meta.at("version");
  j["bytes"] = mf.file().file_size();
  j["parameters"] = mf.layout().total();
  j["weights_mapped"] = mf.mapped();
  j["config"] = mf.config().to_json();
  if (meta.count("trained_steps")) j["trained_steps"] = std::stoll(meta.at("trained_steps"));
  if (meta.count("train_state")) j["train_state"] = nlohmann::ordered_json::parse(meta.at("train_state"));
  if (meta.count("provenance")) j["provenance"] = nlohmann::ordered_json::parse(meta.at("provenance"));
  nlohmann::ordered_json voc = nlohmann::ordered_json::object();
  for (const char* side : {"spm.joint", "spm.src", "spm.trg"})
    if (mf.file().has(side)) voc[side] = load_tokenizer(mf.file().bytes(side), a.model, side).vocab_size();
  j["vocabularies"] = voc;
  nlohmann::ordered_json tensors = nlohmann::ordered_json::array();
  for (const auto& [name, t] : mf.file().tensors())
    tensors.push_back(fmt::format("{} {} [{}]", name, corpus::safetensors::dtype_name(t.dtype), fmt::join(t.shape, ",")));
  j["tensors"] = tensors;
  if (!a.vocab) {
    out.write(j.dump(1) + "\n");
  } else {
    // One line per piece: side, id, piece, score.
    for (const char* side : {"spm.joint", "spm.src", "spm.trg"}) {
      if (!mf.file().has(side)) continue;
      mt::Tokenizer t = load_tokenizer(mf.file().bytes(side), a.model, side);
      for (int i = 0; i < t.vocab_size(); ++i)
        out.write(fmt::format("{}\t{}\t{}\t{}\n", side + 4, i, t.piece(i), t.score(i)));
    }
  }
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
