#include "mt/train/trainer.h"

#include <fmt/format.h>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "libcorpus/core/error.h"
#include "libcorpus/core/json_write.h"
#include "libcorpus/core/hash_mix.h"
#include "libcorpus/eval/bleu.h"
#include "libcorpus/eval/chrf.h"
#include "libcorpus/eval/corpus_score.h"
#include "mt/model/transformer.h"
#include "mt/train/average.h"

namespace mt {

namespace {
constexpr int64_t kUpdateBlock = 1 << 16;  // parameters per block of the gradient reduction and update
}  // namespace

nlohmann::ordered_json TrainState::to_json() const {
  return {{"step", step},
          {"epoch", epoch},
          {"batch_in_epoch", batch_in_epoch},
          {"target_tokens", target_tokens},
          {"best", std::isfinite(best) ? nlohmann::ordered_json(best) : nlohmann::ordered_json(nullptr)},
          {"best_step", best_step},
          {"bad_validations", bad_validations},
          {"stopped_early", stopped_early}};
}

TrainState TrainState::from_json(const nlohmann::json& j) {
  TrainState s;
  s.step = j.at("step").get<int64_t>();
  s.epoch = j.at("epoch").get<int64_t>();
  s.batch_in_epoch = j.at("batch_in_epoch").get<int64_t>();
  s.target_tokens = j.at("target_tokens").get<int64_t>();
  if (!j.at("best").is_null()) s.best = j.at("best").get<double>();
  s.best_step = j.at("best_step").get<int64_t>();
  s.bad_validations = j.at("bad_validations").get<int>();
  s.stopped_early = j.at("stopped_early").get<bool>();
  return s;
}

Trainer::Trainer(const Config& cfg, const TrainOptions& opt, const Corpus& train, const ValidSet& valid,
                 const Vocabs& vocabs, std::function<std::string(const std::vector<int32_t>&)> detok,
                 std::string model_path, nlohmann::ordered_json provenance)
    : cfg_(cfg),
      opt_(opt),
      train_(train),
      valid_(valid),
      vocabs_(vocabs),
      detok_(std::move(detok)),
      model_path_(std::move(model_path)),
      provenance_(std::move(provenance)) {
  use_single_threaded_blas();
  const int shards = std::max(1, opt_.grad_shards);
  for (int s = 0; s < shards; ++s) shard_models_.push_back(std::make_unique<Transformer<float>>(cfg_));
  param_count_ = shard_models_[0]->layout().total();
  params_.assign(param_count_, 0.0f);
  m_.assign(param_count_, 0.0f);
  v_.assign(param_count_, 0.0f);
  grad_.assign(param_count_, 0.0f);
  shard_grads_.assign(shards, std::vector<float>(param_count_, 0.0f));
}

Trainer::~Trainer() = default;

void Trainer::init_weights() { init_params<float>(shard_models_[0]->layout(), params_.data(), opt_.seed); }

void Trainer::resume(const std::string& checkpoint) {
  ModelFile mf(checkpoint);
  const auto& meta = mf.file().metadata();
  if (mf.config().to_json() != cfg_.to_json())
    throw corpus::Error("the checkpoint's model config differs from this run's",
                        "resume with the same data and architecture options")
        .at(checkpoint);
  auto st = meta.find("train_state");
  if (st == meta.end())
    throw corpus::Error("a model without training state, not a checkpoint", "resume from MODEL.ckpt").at(checkpoint);
  try {
    state_ = TrainState::from_json(nlohmann::json::parse(st->second));
    log_.clear();
    auto lg = meta.find("train_log");
    if (lg != meta.end())
      for (const auto& r : nlohmann::ordered_json::parse(lg->second)) log_.push_back(r);
  } catch (const nlohmann::json::exception& e) {
    throw corpus::Error(std::string("bad training state: ") + e.what()).at(checkpoint);
  }
  std::memcpy(params_.data(), mf.params(), param_count_ * sizeof(float));
  std::memcpy(m_.data(), mf.extra("adam.m", param_count_), param_count_ * sizeof(float));
  std::memcpy(v_.data(), mf.extra("adam.v", param_count_), param_count_ * sizeof(float));
}

void Trainer::save_model(const std::vector<float>& weights, const std::string& path) {
  ModelWrite w;
  w.config = &cfg_;
  w.layout = &shard_models_[0]->layout();
  w.params = weights.data();
  w.vocabs = &vocabs_;
  w.metadata["provenance"] = corpus::json_text(provenance_);
  w.metadata["trained_steps"] = std::to_string(state_.step);
  mt::save_model(path, w);
}

void Trainer::keep_step_weights() {
  save_model(params_, step_model_path(model_path_, state_.step));
  const int64_t old = state_.step - static_cast<int64_t>(opt_.keep_checkpoints) * opt_.valid_every;
  if (old > 0) std::remove(step_model_path(model_path_, old).c_str());
}

void Trainer::save_checkpoint() {
  ModelWrite w;
  w.config = &cfg_;
  w.layout = &shard_models_[0]->layout();
  w.params = params_.data();
  w.vocabs = &vocabs_;
  w.metadata["provenance"] = corpus::json_text(provenance_);
  w.metadata["train_state"] = state_.to_json().dump();
  nlohmann::ordered_json lg = nlohmann::ordered_json::array();
  for (const auto& r : log_) lg.push_back(r);
  w.metadata["train_log"] = lg.dump();
  w.extra = {{"adam.m", &m_}, {"adam.v", &v_}};
  mt::save_model(checkpoint_path(), w);
}

double Trainer::step_once(const std::vector<uint32_t>& batch, double lr, double& gnorm) {
  const int shards = static_cast<int>(shard_models_.size());
  auto parts = split_batch(train_, batch, shards);
  int64_t tokens = 0;
  for (uint32_t i : batch) tokens += static_cast<int64_t>(train_.trg[i].size()) + 1;
  std::vector<double> losses(shards, 0.0);
  tbb::parallel_for(0, shards, [&](int s) {
    std::fill(shard_grads_[s].begin(), shard_grads_[s].end(), 0.0f);
    if (parts[s].empty()) return;
    std::vector<const std::vector<int32_t>*> src, trg;
    for (uint32_t i : parts[s]) src.push_back(&train_.src[i]), trg.push_back(&train_.trg[i]);
    Batch b = make_batch(cfg_, src, trg);
    PassOptions po;
    po.dropout = opt_.dropout;
    po.label_smoothing = opt_.label_smoothing;
    po.loss_scale = 1.0 / static_cast<double>(tokens);
    po.seed =
        corpus::mix64(opt_.seed ^ corpus::mix64(static_cast<uint64_t>(state_.step) * 64 + static_cast<uint64_t>(s)));
    losses[s] = shard_models_[s]->pass(params_.data(), shard_grads_[s].data(), b, po).loss;
  });
  // Deterministic reduction: every element summed over shards in shard
  // order, and the squared norm summed (in double) over fixed blocks that
  // are then added in block order, so neither depends on the threads. Then
  // clipping and AdamW, elementwise, block by block on the threads (run on
  // one thread they were 2% of a one-thread step, and waited for at -j2).
  const int64_t nblocks = (param_count_ + kUpdateBlock - 1) / kUpdateBlock;
  std::vector<double> sq(nblocks, 0.0);
  tbb::parallel_for(tbb::blocked_range<int64_t>(0, nblocks, 1), [&](const tbb::blocked_range<int64_t>& r) {
    for (int64_t b = r.begin(); b < r.end(); ++b) {
      const int64_t hi = std::min(param_count_, (b + 1) * kUpdateBlock);
      double s2 = 0;
      for (int64_t i = b * kUpdateBlock; i < hi; ++i) {
        float acc = shard_grads_[0][i];
        for (int s = 1; s < shards; ++s) acc += shard_grads_[s][i];
        grad_[i] = acc;
        s2 += static_cast<double>(acc) * acc;
      }
      sq[b] = s2;
    }
  });
  double total = 0;
  for (double s2 : sq) total += s2;
  gnorm = std::sqrt(total);
  double loss = 0;
  for (double l : losses) loss += l;
  loss /= static_cast<double>(tokens);
  // A step whose loss or gradient is not finite would make every weight NaN
  // and the rest of the run train nothing (the user finds out an hour
  // later). Stop before the update: the weights stay those of the step
  // before, and the model file keeps the best validation's.
  if (!std::isfinite(gnorm) || !std::isfinite(loss))
    throw corpus::Error(fmt::format(
        "training diverged at step {}: the loss is {} and the gradient norm {} (learning rate {:g}); nothing of this "
        "step was applied, {} holds the best validated model so far and {} the last validation's state",
        state_.step + 1, loss, gnorm, lr, model_path_, checkpoint_path()),
        "train again with a lower --lr (or a longer --warmup); resuming from the checkpoint keeps the same rate");
  const bool clip = opt_.clip_norm > 0 && gnorm > opt_.clip_norm;
  const float coef = clip ? static_cast<float>(opt_.clip_norm / (gnorm + 1e-6)) : 1.0f;
  tbb::parallel_for(tbb::blocked_range<int64_t>(0, nblocks, 1), [&](const tbb::blocked_range<int64_t>& r) {
    for (int64_t b = r.begin(); b < r.end(); ++b) {
      const int64_t lo = b * kUpdateBlock, n = std::min(param_count_, lo + kUpdateBlock) - lo;
      if (clip)
        for (int64_t i = lo; i < lo + n; ++i) grad_[i] *= coef;
      adamw_step(params_.data() + lo, grad_.data() + lo, m_.data() + lo, v_.data() + lo, n, lr, opt_.adam,
                 state_.step + 1);
    }
  });
  state_.target_tokens += tokens;
  return loss;
}

nlohmann::ordered_json Trainer::validate(int) {
  nlohmann::ordered_json r;
  if (valid_.data.size() == 0) return r;
  // Loss per target token, no dropout, no smoothing.
  auto batches = make_batches(valid_.data, opt_.batch_tokens, 0, 0, false);
  std::vector<double> loss(batches.size(), 0.0);
  std::vector<int64_t> toks(batches.size(), 0);
  tbb::parallel_for(size_t{0}, batches.size(), [&](size_t k) {
    std::vector<const std::vector<int32_t>*> src, trg;
    for (uint32_t i : batches[k]) src.push_back(&valid_.data.src[i]), trg.push_back(&valid_.data.trg[i]);
    Batch b = make_batch(cfg_, src, trg);
    Transformer<float> model(cfg_);
    XentResult x = model.pass(params_.data(), nullptr, b, PassOptions{});
    loss[k] = x.loss;
    toks[k] = x.tokens;
  });
  double total = 0;
  int64_t n = 0;
  for (size_t k = 0; k < batches.size(); ++k) total += loss[k], n += toks[k];
  r["loss"] = total / static_cast<double>(std::max<int64_t>(1, n));
  auto hyp_ids = greedy_translate(cfg_, params_.data(), valid_.data.src, opt_.decode);
  std::vector<std::string> hyps;
  hyps.reserve(hyp_ids.size());
  for (const auto& ids : hyp_ids) hyps.push_back(detok_(ids));
  const std::span<const std::vector<std::string>> refs(&valid_.refs, 1);
  r["chrf"] = corpus::eval::corpus_score(corpus::eval::Chrf{corpus::eval::ChrfConfig{}}, hyps, refs);
  r["bleu"] = corpus::eval::corpus_score(corpus::eval::Bleu{corpus::eval::BleuConfig{}}, hyps, refs);
  return r;
}

std::string Trainer::run(const Hooks& hooks) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  auto record = [&](nlohmann::ordered_json r) {
    log_.push_back(r);
    if (hooks.record) hooks.record(r);
  };
  double loss_acc = 0, window_start = seconds();
  int64_t loss_n = 0, window_tokens = 0, tokens_before = state_.target_tokens;
  auto batches = make_batches(train_, opt_.batch_tokens, opt_.seed, state_.epoch, true);
  if (batches.empty()) throw corpus::Error("no training examples");
  std::string why;
  for (;;) {
    if (opt_.max_steps > 0 && state_.step >= opt_.max_steps) { why = "max-steps"; break; }
    if (opt_.max_time > 0 && seconds() >= opt_.max_time) { why = "max-time"; break; }
    if (hooks.interrupted && hooks.interrupted()) { why = "interrupted"; break; }
    if (state_.batch_in_epoch >= static_cast<int64_t>(batches.size())) {
      ++state_.epoch;
      state_.batch_in_epoch = 0;
      if (opt_.max_epochs > 0 && state_.epoch >= opt_.max_epochs) { why = "max-epochs"; break; }
      batches = make_batches(train_, opt_.batch_tokens, opt_.seed, state_.epoch, true);
    }
    const double lr = learning_rate(opt_.lr, state_.step + 1, opt_.warmup, opt_.decay, opt_.max_steps);
    double gnorm = 0;
    const int64_t before = state_.target_tokens;
    double loss = step_once(batches[state_.batch_in_epoch], lr, gnorm);
    ++state_.batch_in_epoch;
    ++state_.step;
    loss_acc += loss * static_cast<double>(state_.target_tokens - before);
    loss_n += state_.target_tokens - before;
    window_tokens += state_.target_tokens - before;
    const double tps = static_cast<double>(state_.target_tokens - tokens_before) / std::max(1e-9, seconds());
    if (hooks.progress) hooks.progress(state_, loss, tps);
    if (opt_.log_every > 0 && state_.step % opt_.log_every == 0) {
      const double now = seconds();
      record({{"type", "train"}, {"step", state_.step}, {"epoch", state_.epoch},
              {"loss", loss_acc / static_cast<double>(std::max<int64_t>(1, loss_n))}, {"lr", lr},
              {"grad_norm", gnorm}, {"target_tokens", state_.target_tokens},
              {"tokens_per_s", static_cast<double>(window_tokens) / std::max(1e-9, now - window_start)}});
      loss_acc = 0, loss_n = 0, window_tokens = 0, window_start = now;
    }
    if (opt_.valid_every > 0 && state_.step % opt_.valid_every == 0) {
      nlohmann::ordered_json v = validate();
      if (!v.empty()) {
        double metric = opt_.stop_metric == "loss" ? -v["loss"].get<double>() : v[opt_.stop_metric].get<double>();
        bool better = metric > state_.best;
        if (better) {
          state_.best = metric;
          state_.best_step = state_.step;
          state_.bad_validations = 0;
          save_model(params_, model_path_);
        } else {
          ++state_.bad_validations;
        }
        nlohmann::ordered_json rec = {{"type", "valid"}, {"step", state_.step}};
        for (auto& [k, x] : v.items()) rec[k] = x;
        rec["best"] = better;
        record(rec);
        if (opt_.patience > 0 && state_.bad_validations >= opt_.patience) state_.stopped_early = true;
      }
      if (opt_.keep_checkpoints > 0) keep_step_weights();
      save_checkpoint();
      if (hooks.saved) hooks.saved();
      if (state_.stopped_early) { why = "early-stop"; break; }
    }
  }
  save_checkpoint();
  if (valid_.data.size() == 0 || state_.best_step == 0) save_model(params_, model_path_);
  if (hooks.saved) hooks.saved();
  return why;
}

}  // namespace mt
