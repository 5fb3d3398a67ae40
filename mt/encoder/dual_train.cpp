#include "mt/encoder/dual_train.h"

#include <fmt/format.h>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "libcorpus/core/error.h"
#include "libcorpus/core/json_write.h"
#include "libcorpus/core/hash_mix.h"
#include "libcorpus/core/output.h"
#include "mt/encoder/contrastive_loss.h"
#include "mt/encoder/dual_model.h"
#include "mt/encoder/dual_plot.h"
#include "mt/encoder/neural_file.h"
#include "mt/model/tokenizers.h"
#include "mt/tensor/tensor.h"
#include "mt/train/adamw.h"

namespace mt {

nlohmann::ordered_json DualTrainState::to_json() const {
  return {{"step", step},
          {"epoch", epoch},
          {"batch_in_epoch", batch_in_epoch},
          {"pairs", pairs},
          {"best", best},
          {"best_step", best_step},
          {"bad_validations", bad_validations},
          {"stopped_early", stopped_early}};
}

DualTrainState DualTrainState::from_json(const nlohmann::json& j) {
  DualTrainState s;
  s.step = j.at("step").get<int64_t>();
  s.epoch = j.at("epoch").get<int64_t>();
  s.batch_in_epoch = j.at("batch_in_epoch").get<int64_t>();
  s.pairs = j.at("pairs").get<int64_t>();
  s.best = j.at("best").get<double>();
  s.best_step = j.at("best_step").get<int64_t>();
  s.bad_validations = j.at("bad_validations").get<int>();
  s.stopped_early = j.at("stopped_early").get<bool>();
  return s;
}

namespace {

struct Data {
  std::vector<std::vector<int32_t>> src, trg;
  std::vector<uint32_t> group;  // empty: no groups
  size_t size() const { return src.size(); }
};

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// P@1 of each row of a [n,C] against every row of b and back (cosine: the
// rows are unit length or zero; the first best wins ties).
std::pair<double, double> p_at_1(const std::vector<float>& a, const std::vector<float>& b, int n, int C) {
  std::vector<float> sim(static_cast<size_t>(n) * n);
  gemm_nt<float>(a.data(), b.data(), sim.data(), n, n, C, false);
  int64_t fwd = 0, bwd = 0;
  for (int i = 0; i < n; ++i) {
    int bf = 0, bb = 0;
    for (int j = 1; j < n; ++j) {
      if (sim[static_cast<size_t>(i) * n + j] > sim[static_cast<size_t>(i) * n + bf]) bf = j;
      if (sim[static_cast<size_t>(j) * n + i] > sim[static_cast<size_t>(bb) * n + i]) bb = j;
    }
    fwd += bf == i;
    bwd += bb == i;
  }
  return {static_cast<double>(fwd) / n, static_cast<double>(bwd) / n};
}

class DualTrainer {
 public:
  DualTrainer(const NeuralConfig& cfg, const DualTrainSettings& s, const Data& train, const Data& valid,
              std::string spm, const DualTrainJob& job)
      : cfg_(cfg), s_(s), train_(train), valid_(valid), spm_(std::move(spm)), job_(job) {
    use_single_threaded_blas();
    for (int k = 0; k < s_.grad_shards; ++k) shards_.push_back(std::make_unique<DualModel<float>>(cfg_));
    n_ = shards_[0]->layout().total();
    params_.assign(n_, 0.0f);
    m_.assign(n_, 0.0f);
    v_.assign(n_, 0.0f);
    grad_.assign(n_, 0.0f);
    shard_grads_.assign(s_.grad_shards, std::vector<float>(n_, 0.0f));
  }

  void init() { init_params<float>(shards_[0]->layout(), params_.data(), job_.seed); }

  void resume(const std::string& ckpt) {
    const NeuralFile f(ckpt);
    if (f.config().to_json() != cfg_.to_json())
      throw corpus::Error("the checkpoint's encoder config differs from this run's",
                          "resume with the same data and architecture options")
          .at(ckpt);
    const auto& meta = f.file().metadata();
    auto st = meta.find("train_state");
    if (st == meta.end())
      throw corpus::Error("an encoder without training state, not a checkpoint", "resume from MODEL.ckpt").at(ckpt);
    try {
      state_ = DualTrainState::from_json(nlohmann::json::parse(st->second));
      log_.clear();
      auto lg = meta.find("train_log");
      if (lg != meta.end())
        for (const auto& r : nlohmann::ordered_json::parse(lg->second)) log_.push_back(r);
    } catch (const nlohmann::json::exception& e) {
      throw corpus::Error(std::string("bad training state: ") + e.what()).at(ckpt);
    }
    params_ = f.params();
    std::memcpy(m_.data(), f.extra("adam.m", n_), n_ * sizeof(float));
    std::memcpy(v_.data(), f.extra("adam.v", n_), n_ * sizeof(float));
  }

  std::string run(const DualTrainEvents& ev, const std::string& log_path, const std::string& plot_path) {
    const auto start = Clock::now();
    auto saved = [&] {
      corpus::Output log(log_path, corpus::Compression::kNone);
      for (const auto& r : log_) log.write(r.dump() + "\n");
      log.commit();
      corpus::Output svg(plot_path, corpus::Compression::kNone);
      svg.write(dual_training_svg(log_, "pc-embed train --kind neural: " + job_.output));
      svg.commit();
    };
    double loss_acc = 0, window_start = 0;
    int64_t loss_n = 0, correct = 0, pairs_before = state_.pairs, window_pairs = 0;
    auto order = epoch_order(state_.epoch);
    std::string why;
    for (;;) {
      if (s_.max_steps > 0 && state_.step >= static_cast<int64_t>(s_.max_steps)) { why = "max-steps"; break; }
      if (s_.max_time > 0 && since(start) >= s_.max_time) { why = "max-time"; break; }
      if (ev.interrupted && ev.interrupted()) { why = "interrupted"; break; }
      const int64_t batches = (static_cast<int64_t>(order.size()) + s_.batch_pairs - 1) / s_.batch_pairs;
      if (state_.batch_in_epoch >= batches) {
        ++state_.epoch;
        state_.batch_in_epoch = 0;
        if (s_.max_epochs > 0 && state_.epoch >= static_cast<int64_t>(s_.max_epochs)) { why = "max-epochs"; break; }
        order = epoch_order(state_.epoch);
      }
      const size_t b0 = static_cast<size_t>(state_.batch_in_epoch) * s_.batch_pairs;
      const std::vector<uint32_t> batch(order.begin() + b0,
                                        order.begin() + std::min(order.size(), b0 + s_.batch_pairs));
      const double lr = learning_rate(s_.lr, state_.step + 1, static_cast<int64_t>(s_.warmup), parse_decay(s_.decay),
                                      static_cast<int64_t>(s_.max_steps));
      double gnorm = 0;
      int64_t hits = 0;
      const double loss = step_once(batch, lr, gnorm, hits);
      ++state_.batch_in_epoch;
      ++state_.step;
      state_.pairs += static_cast<int64_t>(batch.size());
      loss_acc += loss * batch.size();
      loss_n += static_cast<int64_t>(batch.size());
      correct += hits;
      window_pairs += static_cast<int64_t>(batch.size());
      if (ev.progress) ev.progress(state_, loss, static_cast<double>(state_.pairs - pairs_before) / std::max(1e-9, since(start)));
      if (s_.log_every > 0 && state_.step % static_cast<int64_t>(s_.log_every) == 0) {
        const double now = since(start);
        log_.push_back({{"type", "train"}, {"step", state_.step}, {"epoch", state_.epoch},
                {"loss", loss_acc / std::max<int64_t>(1, loss_n)},
                {"batch_p_at_1", static_cast<double>(correct) / std::max<int64_t>(1, 2 * loss_n)}, {"lr", lr},
                {"grad_norm", gnorm}, {"pairs", state_.pairs},
                {"pairs_per_s", static_cast<double>(window_pairs) / std::max(1e-9, now - window_start)}});
        loss_acc = 0, loss_n = 0, correct = 0, window_pairs = 0, window_start = now;
      }
      if (s_.valid_every > 0 && state_.step % static_cast<int64_t>(s_.valid_every) == 0) {
        if (valid_.size() > 0) {
          nlohmann::ordered_json v = validate();
          const double metric = v["p_at_1"].get<double>();
          const bool better = metric > state_.best;
          if (better) {
            state_.best = metric;
            state_.best_step = state_.step;
            state_.bad_validations = 0;
            save_model();
          } else {
            ++state_.bad_validations;
          }
          v["best"] = better;
          log_.push_back(v);
          if (ev.validated)
            ev.validated(fmt::format("step {}: validation loss {:.4f}, P@1 {:.3f} / {:.3f}{}", state_.step,
                                     v["loss"].get<double>(), v["p_at_1_fwd"].get<double>(),
                                     v["p_at_1_bwd"].get<double>(), better ? " (best)" : ""));
          if (s_.patience > 0 && state_.bad_validations >= s_.patience) state_.stopped_early = true;
        }
        save_checkpoint();
        saved();
        if (state_.stopped_early) { why = "early-stop"; break; }
      }
    }
    save_checkpoint();
    if (valid_.size() == 0 || state_.best_step == 0) save_model();
    saved();
    return why;
  }

  const DualTrainState& state() const { return state_; }
  int64_t params() const { return n_; }

 private:
  std::vector<uint32_t> epoch_order(int64_t epoch) const {
    return dual_epoch_order(train_.size(), train_.group, s_.batch_pairs, s_.group_share, job_.seed, epoch);
  }

  double step_once(const std::vector<uint32_t>& batch, double lr, double& gnorm, int64_t& hits) {
    const int B = static_cast<int>(batch.size()), C = cfg_.dim, K = s_.grad_shards;
    // Rows 0..B-1 are the sources, B..2B-1 the targets; sorted by length so
    // each shard pads to its own longest sentence.
    std::vector<const std::vector<int32_t>*> seq(2 * B);
    for (int i = 0; i < B; ++i) seq[i] = &train_.src[batch[i]], seq[B + i] = &train_.trg[batch[i]];
    std::vector<int> rows(2 * B);
    std::iota(rows.begin(), rows.end(), 0);
    std::stable_sort(rows.begin(), rows.end(), [&](int a, int b) { return seq[a]->size() < seq[b]->size(); });
    std::vector<std::vector<int>> part(K);
    for (int r = 0; r < 2 * B; ++r) part[static_cast<size_t>(r) * K / (2 * B)].push_back(rows[r]);
    std::vector<float> pooled(static_cast<size_t>(2 * B) * C), dpooled(pooled.size());
    std::vector<std::vector<float>> out(K);
    tbb::parallel_for(0, K, [&](int k) {
      if (part[k].empty()) return;
      std::vector<const std::vector<int32_t>*> s;
      for (int r : part[k]) s.push_back(seq[r]);
      out[k].resize(s.size() * C);
      const uint64_t seed =
          corpus::mix64(job_.seed ^ corpus::mix64(static_cast<uint64_t>(state_.step) * 256 + static_cast<uint64_t>(k)));
      shards_[k]->forward(params_.data(), s, out[k].data(), static_cast<float>(s_.dropout), seed);
      for (size_t j = 0; j < part[k].size(); ++j)
        std::copy_n(out[k].data() + j * C, C, pooled.data() + static_cast<size_t>(part[k][j]) * C);
    });
    const ContrastiveResult res =
        contrastive_loss<float>(pooled.data(), pooled.data() + static_cast<size_t>(B) * C, B, C,
                                static_cast<float>(s_.scale), static_cast<float>(s_.margin), dpooled.data(),
                                dpooled.data() + static_cast<size_t>(B) * C);
    hits = res.correct_fwd + res.correct_bwd;
    tbb::parallel_for(0, K, [&](int k) {
      std::fill(shard_grads_[k].begin(), shard_grads_[k].end(), 0.0f);
      if (part[k].empty()) return;
      std::vector<float> d(part[k].size() * C);
      for (size_t j = 0; j < part[k].size(); ++j)
        std::copy_n(dpooled.data() + static_cast<size_t>(part[k][j]) * C, C, d.data() + j * C);
      shards_[k]->backward(params_.data(), shard_grads_[k].data(), d.data());
    });
    // Deterministic reduction: every element summed over shards in shard order.
    tbb::parallel_for(tbb::blocked_range<int64_t>(0, n_, 1 << 16), [&](const tbb::blocked_range<int64_t>& r) {
      for (int64_t i = r.begin(); i < r.end(); ++i) {
        float acc = shard_grads_[0][i];
        for (int k = 1; k < K; ++k) acc += shard_grads_[k][i];
        grad_[i] = acc;
      }
    });
    gnorm = grad_norm(grad_.data(), n_);
    if (s_.clip_norm > 0 && gnorm > s_.clip_norm) {
      const float coef = static_cast<float>(s_.clip_norm / (gnorm + 1e-6));
      for (auto& g : grad_) g *= coef;
    }
    adamw_step(params_.data(), grad_.data(), m_.data(), v_.data(), n_, lr,
               {s_.beta1, s_.beta2, s_.adam_eps, s_.weight_decay}, state_.step + 1);
    return res.loss;
  }

  // Every held-out sentence encoded alone (as NeuralEncoder does), on the threads.
  std::vector<float> embed_all(const std::vector<std::vector<int32_t>>& seqs) const {
    const int C = cfg_.dim;
    std::vector<float> out(seqs.size() * C);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, seqs.size(), 16), [&](const tbb::blocked_range<size_t>& r) {
      std::vector<const std::vector<int32_t>*> s;
      for (size_t i = r.begin(); i < r.end(); ++i) s.push_back(&seqs[i]);
      neural_embed(cfg_, params_.data(), s, out.data() + r.begin() * C);
    });
    return out;
  }

  nlohmann::ordered_json validate() const {
    const int n = static_cast<int>(valid_.size()), C = cfg_.dim;
    const std::vector<float> a = embed_all(valid_.src), b = embed_all(valid_.trg);
    const auto [fwd, bwd] = p_at_1(a, b, n, C);
    // The loss over the whole held-out set as one batch (more negatives
    // than a training batch, so larger; a curve to compare with itself).
    const ContrastiveResult res = contrastive_loss<float>(a.data(), b.data(), n, C, static_cast<float>(s_.scale),
                                                          static_cast<float>(s_.margin), nullptr, nullptr);
    return {{"type", "valid"}, {"step", state_.step}, {"loss", res.loss}, {"p_at_1_fwd", fwd},
            {"p_at_1_bwd", bwd}, {"p_at_1", (fwd + bwd) / 2}};
  }

  void write(const std::string& path, bool checkpoint) const {
    NeuralWrite w;
    w.config = &cfg_;
    w.layout = &shards_[0]->layout();
    w.params = params_.data();
    w.spm = spm_;
    w.metadata["provenance"] = corpus::json_text(job_.provenance);
    w.metadata["trained_steps"] = std::to_string(state_.step);
    if (checkpoint) {
      w.metadata["train_state"] = state_.to_json().dump();
      nlohmann::ordered_json lg = nlohmann::ordered_json::array();
      for (const auto& r : log_) lg.push_back(r);
      w.metadata["train_log"] = lg.dump();
      w.extra = {{"adam.m", &m_}, {"adam.v", &v_}};
    }
    save_neural(path, w);
  }
  void save_model() const { write(job_.output, false); }
  void save_checkpoint() const { write(job_.output + ".ckpt", true); }

  NeuralConfig cfg_;
  DualTrainSettings s_;
  const Data& train_;
  const Data& valid_;
  std::string spm_;
  DualTrainJob job_;
  std::vector<std::unique_ptr<DualModel<float>>> shards_;
  int64_t n_ = 0;
  std::vector<float> params_, m_, v_, grad_;
  std::vector<std::vector<float>> shard_grads_;
  DualTrainState state_;
  std::vector<nlohmann::ordered_json> log_;
};

// The encoder's config from the settings; ConfigError when the numbers do
// not fit together (they are the caller's).
NeuralConfig make_config(const DualTrainSettings& s, int vocab) {
  NeuralConfig cfg;
  cfg.vocab = vocab;
  cfg.dim = s.dim;
  cfg.heads = s.heads;
  cfg.ffn_dim = s.ffn_dim;
  cfg.layers = s.layers;
  cfg.max_len = s.max_len;
  cfg.activation = parse_activation(s.activation);
  cfg.pre_norm = s.norm == "pre";
  try {
    cfg.validate();
  } catch (const corpus::Error& e) {
    throw corpus::ConfigError(e.what());
  }
  return cfg;
}

void check_settings(const DualTrainSettings& s) {
  auto bad = [](const std::string& what, const std::string& hint = {}) { throw corpus::ConfigError(what, hint); };
  if (s.max_len < 4 || s.max_len > 4096) bad(fmt::format("--max-len must be 4 to 4096, not {}", s.max_len));
  if (s.grad_shards < 1 || s.grad_shards > 256) bad("--grad-shards must be 1 to 256");
  if (s.batch_pairs < 2) bad("--batch-pairs must be at least 2: the other pairs of a batch are the negatives");
  if (s.max_steps == 0 && s.max_time == 0 && s.max_epochs == 0 && ((s.valid_pairs == 0 && s.valid.empty()) || s.patience == 0))
    bad("training would never stop", "give --max-steps, --max-time, --max-epochs, or --valid-pairs with --patience");
  parse_decay(s.decay);
  make_config(s, std::max(s.vocab_size, 5));  // before minutes of SentencePiece training
}

}  // namespace

std::vector<uint32_t> dual_epoch_order(size_t n, const std::vector<uint32_t>& group, int batch_pairs, double group_share,
                                       uint64_t seed, int64_t epoch) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  const uint64_t es = corpus::mix64(seed ^ corpus::mix64(static_cast<uint64_t>(epoch) + 0x6475616cULL));
  std::vector<uint64_t> key(n);
  for (size_t i = 0; i < n; ++i) key[i] = corpus::mix64(es + i);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
  if (group.empty()) return order;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return group[a] < group[b]; });
  const size_t B = static_cast<size_t>(batch_pairs), nb = (n + B - 1) / B;
  const size_t keep = static_cast<size_t>(std::lround(group_share * static_cast<double>(B)));
  std::vector<size_t> loose;  // places dealt out again
  for (size_t b = 0; b < nb; ++b)
    for (size_t i = b * B + keep; i < std::min(n, (b + 1) * B); ++i) loose.push_back(i);
  std::vector<uint32_t> dealt(loose.size());
  for (size_t i = 0; i < loose.size(); ++i) dealt[i] = order[loose[i]];
  std::sort(dealt.begin(), dealt.end(), [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
  for (size_t i = 0; i < loose.size(); ++i) order[loose[i]] = dealt[i];
  std::vector<uint32_t> batches(n / B);  // whole batches; a short one stays last
  std::iota(batches.begin(), batches.end(), 0u);
  const uint64_t bs = corpus::mix64(es ^ 0x62617463680aULL);
  std::sort(batches.begin(), batches.end(),
            [&](uint32_t a, uint32_t b) { return corpus::mix64(bs + a) < corpus::mix64(bs + b); });
  std::vector<uint32_t> out;
  out.reserve(n);
  for (uint32_t b : batches) out.insert(out.end(), order.begin() + b * B, order.begin() + (b + 1) * B);
  out.insert(out.end(), order.begin() + batches.size() * B, order.end());
  return out;
}

DualTrainResult train_dual_encoder(const std::vector<std::pair<std::string, std::string>>& pairs,
                                   const DualTrainSettings& s, const DualTrainJob& job, const DualTrainEvents& ev,
                                   const std::vector<std::pair<std::string, std::string>>* valid_pairs,
                                   const std::vector<std::string>* groups) {
  auto count = [&](const std::string& key, uint64_t n) {
    if (ev.count) ev.count(key, n);
  };
  auto info = [&](const std::string& msg) {
    if (ev.info) ev.info(msg);
  };
  check_settings(s);
  if (pairs.empty()) throw corpus::Error("no training pairs in the input", "give bitext TSV with src_text and trg_text");
  if (groups && groups->size() != pairs.size())
    throw corpus::Error(fmt::format("{} group labels for {} training pairs", groups->size(), pairs.size()),
                        "give one group label per training pair, line for line");
  std::vector<uint32_t> group_id;  // labels numbered in order of first appearance
  if (groups) {
    std::unordered_map<std::string_view, uint32_t> ids;
    for (const auto& gl : *groups) group_id.push_back(ids.emplace(gl, static_cast<uint32_t>(ids.size())).first->second);
    count("groups", ids.size());
  }
  const auto t0 = Clock::now();
  const std::string ckpt = job.output + ".ckpt";
  std::string spm;
  if (s.resume) {
    spm = std::string(NeuralFile(ckpt).spm());
  } else {
    SpmTrainOptions so;
    so.vocab_size = s.vocab_size;
    so.model_type = s.spm_type;
    so.max_sentences = s.spm_sentences;
    so.seed = job.seed;
    std::vector<std::string> both;
    both.reserve(2 * pairs.size());
    for (const auto& p : pairs) both.push_back(p.first), both.push_back(p.second);
    spm = train_spm(both, so);
    info(fmt::format("SentencePiece trained in {:.1f} s", since(t0)));
  }
  const Tokenizer tok = load_tokenizer(spm, ckpt, "tokenizer");

  // Pairs with pieces on both sides; the held-out slice is the pairs whose
  // seeded hash is smallest, so it is a function of the seed and the data.
  Data all;
  uint64_t empty = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    auto x = neural_pieces(tok, pairs[i].first, s.max_len), y = neural_pieces(tok, pairs[i].second, s.max_len);
    if (x.empty() || y.empty()) {
      ++empty;
      continue;
    }
    all.src.push_back(std::move(x));
    all.trg.push_back(std::move(y));
    if (groups) all.group.push_back(group_id[i]);
  }
  count("pairs with pieces", all.size());
  if (empty) count("empty side (skipped)", empty);
  if (all.size() < 2) throw corpus::Error("fewer than 2 pairs with pieces on both sides", "give a larger seed bitext");
  const size_t n_valid = valid_pairs ? 0 : std::min<size_t>(s.valid_pairs, all.size() / 10);
  std::vector<uint32_t> order(all.size());
  std::iota(order.begin(), order.end(), 0u);
  const uint64_t vs = corpus::mix64(job.seed ^ 0x76616c6964ULL);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return corpus::mix64(vs + a) < corpus::mix64(vs + b); });
  std::vector<bool> held(all.size(), false);
  for (size_t i = 0; i < n_valid; ++i) held[order[i]] = true;
  Data train, valid;
  for (size_t i = 0; i < all.size(); ++i) {
    Data& d = held[i] ? valid : train;
    d.src.push_back(std::move(all.src[i]));
    d.trg.push_back(std::move(all.trg[i]));
    if (groups && !held[i]) d.group.push_back(all.group[i]);
  }
  count("training pairs", train.size());
  if (valid_pairs) {
    // Given validation pairs (say, of other sources than the seed's, so that
    // the model is chosen by how it generalises).
    for (const auto& [a, b] : *valid_pairs) {
      auto x = neural_pieces(tok, a, s.max_len), y = neural_pieces(tok, b, s.max_len);
      if (x.empty() || y.empty()) continue;
      valid.src.push_back(std::move(x));
      valid.trg.push_back(std::move(y));
    }
    count("validation pairs", valid.size());
    if (valid.size() < 2) throw corpus::Error("fewer than 2 validation pairs with pieces on both sides");
  } else if (s.valid_pairs > 0) {
    count("held-out pairs", valid.size());
  }
  if (!valid_pairs && s.valid_pairs > 0 && valid.size() < 2) {
    if (s.max_steps == 0 && s.max_time == 0 && s.max_epochs == 0)
      throw corpus::ConfigError(fmt::format("{} pairs are too few to hold some out, and training would never stop",
                                            all.size()),
                                "give --max-steps, --max-time or --max-epochs");
    info("too few pairs to hold some out: no validation");
    valid = Data{};
  }

  const NeuralConfig cfg = make_config(s, tok.vocab_size());
  DualTrainer trainer(cfg, s, train, valid, spm, job);
  if (s.resume)
    trainer.resume(ckpt);
  else
    trainer.init();
  info(fmt::format("encoder: {} parameters (d={} heads={} ffn={} layers={}, {} pieces); BLAS: {}", trainer.params(),
                   cfg.dim, cfg.heads, cfg.ffn_dim, cfg.layers, cfg.vocab, blas_info()));
  DualTrainResult r;
  r.why = trainer.run(ev, s.log.empty() ? job.output + ".log.jsonl" : s.log,
                      s.plot.empty() ? job.output + ".svg" : s.plot);
  r.state = trainer.state();
  r.seconds = since(t0);
  return r;
}

}  // namespace mt
