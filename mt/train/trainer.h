// The training loop of pc-nmt train: token batches split into a fixed number
// of gradient shards run on the threads, gradients summed in shard order
// (so the weights never depend on --threads), clipping, AdamW with the
// learning-rate schedule, periodic validation (loss, and chrF/BLEU of greedy
// translations through mt/metrics), early stopping, and atomic checkpoints
// from which --resume continues bit for bit.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mt/decode/greedy.h"
#include "mt/model/config.h"
#include "mt/model/model_file.h"
#include "mt/train/adamw.h"
#include "mt/train/batching.h"

namespace mt {

struct TrainOptions {
  int64_t batch_tokens = 4096;   // padded tokens per batch (sentences x longer side)
  int grad_shards = 4;           // pieces of a batch with their own gradient; fixed, not --threads
  double lr = 5e-4;              // peak learning rate
  int64_t warmup = 4000;         // linear warm-up steps
  Decay decay = Decay::kInvSqrt;
  AdamWConfig adam;
  float label_smoothing = 0.1f;
  float dropout = 0.1f;
  double clip_norm = 1.0;        // global gradient-norm clipping; 0: off
  int64_t max_steps = 0;         // 0: no limit
  double max_time = 0;           // seconds of this run; 0: no limit
  int64_t max_epochs = 0;        // 0: no limit
  int64_t valid_every = 1000;    // steps between validations (and checkpoints)
  int64_t log_every = 100;       // steps between training-log records
  int patience = 10;             // validations without improvement before stopping; 0: never stop early
  int keep_checkpoints = 0;      // weights at the last N validation points, MODEL.step-S (for averaging); 0: none
  std::string stop_metric = "chrf";  // chrf, bleu or loss
  uint64_t seed = 1;
  DecodeOptions decode;
};

struct ValidSet {
  Corpus data;                    // token ids
  std::vector<std::string> refs;  // target sentences as text, for chrF/BLEU
};

struct TrainState {
  int64_t step = 0;
  int64_t epoch = 0;
  int64_t batch_in_epoch = 0;  // next batch of the epoch
  int64_t target_tokens = 0;   // target tokens trained on
  double best = -std::numeric_limits<double>::infinity();  // best stop metric (loss negated)
  int64_t best_step = 0;
  int bad_validations = 0;
  bool stopped_early = false;
  nlohmann::ordered_json to_json() const;
  static TrainState from_json(const nlohmann::json& j);
};

class Trainer {
 public:
  struct Hooks {
    std::function<void(const nlohmann::ordered_json&)> record;  // every log record, as it is made
    std::function<void()> saved;                                // after a checkpoint is written
    std::function<void(const TrainState&, double loss, double tokens_per_s)> progress;  // after each step
    std::function<bool()> interrupted;                          // stop cleanly (SIGINT)
  };

  // `detok` turns target ids into text for the scores. The model is written
  // to `model_path` (best validated weights; the last ones without a
  // validation set), the checkpoint to `model_path + ".ckpt"`.
  Trainer(const Config& cfg, const TrainOptions& opt, const Corpus& train, const ValidSet& valid,
          const Vocabs& vocabs, std::function<std::string(const std::vector<int32_t>&)> detok,
          std::string model_path, nlohmann::ordered_json provenance);
  ~Trainer();

  void init_weights();
  // Loads weights, moments, state and log from a checkpoint; Error when its
  // config differs from this one.
  void resume(const std::string& checkpoint);

  // Trains until a stop condition; returns why ("max-steps", "max-time",
  // "max-epochs", "early-stop", "interrupted").
  std::string run(const Hooks& hooks);

  const TrainState& state() const { return state_; }
  const std::vector<float>& params() const { return params_; }
  const std::vector<nlohmann::ordered_json>& log() const { return log_; }
  std::string checkpoint_path() const { return model_path_ + ".ckpt"; }

  // Validation loss per token, and chrF / BLEU of greedy translations.
  nlohmann::ordered_json validate(int threads_hint = 0);

 private:
  double step_once(const std::vector<uint32_t>& batch, double lr, double& gnorm);
  void save_checkpoint();
  void save_model(const std::vector<float>& weights, const std::string& path);
  void keep_step_weights();  // MODEL.step-S, dropping the one --keep-checkpoints validations back

  Config cfg_;
  TrainOptions opt_;
  const Corpus& train_;
  const ValidSet& valid_;
  const Vocabs& vocabs_;
  std::function<std::string(const std::vector<int32_t>&)> detok_;
  std::string model_path_;
  nlohmann::ordered_json provenance_;
  std::vector<float> params_, m_, v_, grad_;
  std::vector<std::vector<float>> shard_grads_;
  std::vector<std::unique_ptr<Transformer<float>>> shard_models_;
  TrainState state_;
  std::vector<nlohmann::ordered_json> log_;
  int64_t param_count_ = 0;
};

}  // namespace mt
