#include "mt/train/train_run.h"

#include <fmt/format.h>

#include <chrono>
#include <utility>

#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/placeholders.h"
#include "mt/model/model_file.h"
#include "mt/model/tokenizers.h"
#include "mt/spm/spm.h"
#include "mt/tensor/tensor.h"
#include "mt/train/plot.h"
#include "mt/train/train_data.h"

namespace mt {

Config make_config(const TrainSettings& a, int src_vocab, int trg_vocab) {
  Config cfg = Config::from_preset(a.arch);
  if (a.dim) cfg.dim = a.dim;
  if (a.heads) cfg.heads = a.heads;
  if (a.ffn_dim) cfg.ffn_dim = a.ffn_dim;
  if (a.enc_layers) cfg.enc_layers = a.enc_layers;
  if (a.dec_layers) cfg.dec_layers = a.dec_layers;
  if (!a.activation.empty()) cfg.activation = parse_activation(a.activation);
  if (!a.norm.empty()) {
    if (a.norm != "pre" && a.norm != "post")
      throw corpus::ConfigError("--norm must be pre or post, not " + corpus::quote(a.norm));
    cfg.pre_norm = a.norm == "pre";
  }
  cfg.src_vocab = src_vocab;
  cfg.trg_vocab = trg_vocab;
  cfg.shared_embeddings = !a.separate_vocab;
  cfg.tied_output = !a.untie_output;
  cfg.max_len = a.max_len;
  try {
    cfg.validate();
  } catch (const corpus::Error& e) {
    throw corpus::ConfigError(e.what());  // numbers the caller chose
  }
  return cfg;
}

namespace {

TrainOptions train_options(const TrainSettings& a, const TrainJob& job) {
  TrainOptions o;
  o.batch_tokens = static_cast<int64_t>(a.batch_tokens);
  o.grad_shards = a.grad_shards;
  o.lr = a.lr;
  o.warmup = static_cast<int64_t>(a.warmup);
  o.decay = parse_decay(a.decay);
  o.adam = {a.beta1, a.beta2, a.adam_eps, a.weight_decay};
  o.label_smoothing = static_cast<float>(a.label_smoothing);
  o.dropout = static_cast<float>(a.dropout);
  o.clip_norm = a.clip_norm;
  o.max_steps = static_cast<int64_t>(a.max_steps);
  o.max_time = a.max_time;
  o.max_epochs = static_cast<int64_t>(a.max_epochs);
  o.valid_every = static_cast<int64_t>(a.valid_every);
  o.keep_checkpoints = a.keep_checkpoints;
  o.log_every = static_cast<int64_t>(a.log_every);
  o.patience = a.patience;
  o.stop_metric = a.stop_metric;
  o.seed = job.seed;
  o.decode.batch_size = a.batch_size;
  o.decode.max_len_factor = a.max_len_factor;
  if (o.max_steps == 0 && o.max_time == 0 && o.max_epochs == 0 && (a.valid.empty() || o.patience == 0))
    throw corpus::ConfigError("training would never stop", "give --max-steps, --max-time, --max-epochs or --valid");
  if (o.batch_tokens < a.max_len) throw corpus::ConfigError("--batch-tokens must be at least --max-len");
  return o;
}

// Masks the placeholders of every pair (the target with the source's
// numbers); returns the pairs that had any.
uint64_t mask_bitext(Bitext& b) {
  uint64_t n = 0;
  for (size_t i = 0; i < b.src.size(); ++i) {
    corpus::Masked m = corpus::mask_placeholders(b.src[i]);
    if (m.values.empty()) continue;
    ++n;
    b.trg[i] = corpus::mask_like(b.trg[i], m);
    b.src[i] = std::move(m.text);
  }
  return n;
}

// The tokenizers' models: from the checkpoint when resuming, else trained now.
Vocabs make_vocabs(const TrainSettings& a, const TrainJob& job, const Bitext& raw, const std::string& ckpt,
                   const TrainEvents& ev) {
  if (a.resume) return ModelFile(ckpt).vocabs();
  const auto t0 = std::chrono::steady_clock::now();
  Vocabs vocabs;
  SpmTrainOptions so;
  so.vocab_size = a.vocab_size;
  so.model_type = a.spm_type;
  so.max_sentences = a.spm_sentences;
  so.seed = job.seed;
  if (a.protect_placeholders)
    for (size_t n = 1; n <= corpus::kMaxPlaceholders; ++n) so.user_symbols.push_back(corpus::placeholder_symbol(n));
  if (a.separate_vocab) {
    vocabs.src = train_spm(raw.src, so);
    vocabs.trg = train_spm(raw.trg, so);
  } else {
    std::vector<std::string> both(raw.src);
    both.insert(both.end(), raw.trg.begin(), raw.trg.end());
    vocabs.joint = train_spm(both, so);
  }
  if (ev.info)
    ev.info(fmt::format("SentencePiece trained in {:.1f} s",
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
  return vocabs;
}

}  // namespace

TrainResult run_training(const TrainSettings& a, const TrainJob& job, const TrainEvents& ev) {
  auto count = [&](const std::string& key, uint64_t n) {
    if (ev.count) ev.count(key, n);
  };
  auto info = [&](const std::string& msg) {
    if (ev.info) ev.info(msg);
  };
  if (a.max_len < 4 || a.max_len > 4096)
    throw corpus::ConfigError(fmt::format("--max-len must be 4 to 4096, not {}", a.max_len));
  if (a.grad_shards < 1 || a.grad_shards > 256) throw corpus::ConfigError("--grad-shards must be 1 to 256");
  if (a.stop_metric != "chrf" && a.stop_metric != "bleu" && a.stop_metric != "loss")
    throw corpus::ConfigError("--stop-metric must be chrf, bleu or loss, not " + corpus::quote(a.stop_metric));
  if (ev.input) {
    for (const auto& f : job.files) ev.input(f);
    if (!a.valid.empty()) ev.input(a.valid);
  }
  Bitext raw = read_bitext(job.files, job.skip_bad, job.max_line);
  if (raw.src.empty()) throw corpus::Error("no training pairs in the input", "give bitext TSV with src_text and trg_text");
  Bitext raw_valid;
  if (!a.valid.empty()) raw_valid = read_bitext({a.valid}, job.skip_bad, job.max_line);
  if (!a.valid.empty() && raw_valid.src.empty()) throw corpus::Error("no validation pairs").at(a.valid);

  if (a.protect_placeholders) {
    count("pairs with placeholders", mask_bitext(raw) + mask_bitext(raw_valid));
  }
  const std::string ckpt = job.output + ".ckpt";
  const Vocabs vocabs = make_vocabs(a, job, raw, ckpt, ev);
  Tokenizer src_tok = side_tokenizer(vocabs, true, ckpt);  // only a resumed checkpoint's can be damaged
  Tokenizer trg_tok = side_tokenizer(vocabs, false, ckpt);
  EncodedBitext tr = encode_bitext(raw, src_tok, trg_tok, a.max_len, false);
  EncodedBitext va = encode_bitext(raw_valid, src_tok, trg_tok, a.max_len, true);
  const uint64_t skipped_bad = raw.skipped_bad + raw_valid.skipped_bad;
  raw = {};
  count("training pairs", tr.ids.size());
  if (tr.too_long) count("skipped (longer than --max-len)", tr.too_long);
  if (tr.empty) count("skipped (empty side)", tr.empty);
  if (skipped_bad || job.skip_bad) count("skipped (bad)", skipped_bad);
  if (!a.valid.empty()) count("validation pairs", va.ids.size());
  if (tr.ids.size() == 0) throw corpus::Error("no training pair fits --max-len", "raise --max-len");

  const Config cfg = make_config(a, src_tok.vocab_size(), trg_tok.vocab_size());
  const TrainOptions o = train_options(a, job);
  auto detok = [&](const std::vector<int32_t>& ids) { return trg_tok.decode(ids); };
  const ValidSet valid{std::move(va.ids), std::move(va.refs)};  // the trainer keeps a reference
  Trainer trainer(cfg, o, tr.ids, valid, vocabs, detok, job.output, job.provenance);
  if (a.resume)
    trainer.resume(ckpt);
  else
    trainer.init_weights();
  info(fmt::format("model: {} parameters ({} {}/{}/{}, {}+{} layers); products: {}; BLAS: {}", trainer.params().size(),
                   cfg.preset, cfg.dim, cfg.heads, cfg.ffn_dim, cfg.enc_layers, cfg.dec_layers, gemm_backend_name(),
                   blas_info()));

  const std::string log_path = a.log.empty() ? job.output + ".log.jsonl" : a.log;
  const std::string plot_path = a.plot.empty() ? job.output + ".svg" : a.plot;
  Trainer::Hooks hooks;
  hooks.record = [&](const nlohmann::ordered_json& r) {
    if (r.value("type", "") == "valid" && ev.validated)
      ev.validated(fmt::format("step {}: validation loss {:.4f}, chrF {:.2f}, BLEU {:.2f}{}", r["step"].get<int64_t>(),
                               r["loss"].get<double>(), r["chrf"].get<double>(), r["bleu"].get<double>(),
                               r["best"].get<bool>() ? " (best)" : ""));
  };
  hooks.saved = [&] {
    corpus::Output log(log_path, corpus::Compression::kNone);
    for (const auto& r : trainer.log()) log.write(r.dump() + "\n");
    log.commit();
    corpus::Output svg(plot_path, corpus::Compression::kNone);
    svg.write(training_svg(trainer.log(), "pc-nmt train: " + job.output));
    svg.commit();
  };
  hooks.progress = ev.progress;
  TrainResult res;
  res.why = trainer.run(hooks);
  res.state = trainer.state();
  return res;
}

}  // namespace mt
