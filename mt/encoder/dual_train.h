// Training the neural sentence encoder (pc-embed train --kind neural): the
// dual encoder of dual_model.h over a joint SentencePiece vocabulary trained
// on both sides of the seed, optimised with the additive margin softmax over
// in-batch negatives in both directions (contrastive_loss.h, LaBSE's recipe).
//
// Each step takes the next `batch_pairs` pairs of the epoch's seeded order;
// their 2 x batch_pairs sentences, sorted by length, are cut into
// `grad_shards` pieces that run forward on the threads, the loss is taken on
// the whole batch (every pair is a negative for every other), and the pieces
// run backward with their rows of the loss's gradient; gradients are summed
// in shard order, so the weights depend on grad_shards and the seed, never on
// the thread count. Clipping, AdamW and the schedules are pc-nmt's
// (mt/train/adamw.h). A held-out slice of the seed (chosen by the seed, never
// trained on), or the pairs of a validation file, is encoded every
// `valid_every` steps: P@1 of each source
// against all held-out targets and back, their mean picks the best model and
// drives early stopping. Checkpoints (MODEL.ckpt: weights, moments, state,
// log) are written at each validation and at the end, and --resume continues
// from one bit for bit. The JSONL log and an SVG plot lie beside the model.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace mt {

// pc-embed's neural training options.
struct DualTrainSettings {
  int vocab_size = 8000, dim = 256, heads = 4, ffn_dim = 1024, layers = 2, max_len = 64;
  std::string activation = "gelu", norm = "pre", spm_type = "unigram", decay = "inv-sqrt", log, plot;
  std::string valid;  // a validation bitext instead of the held-out slice (the tool reads it)
  double scale = 20, margin = 0.3;  // logits = scale * (cos - margin on the positive)
  int batch_pairs = 128, grad_shards = 4, patience = 5;
  // With groups (train_dual_encoder's `groups`): the share of each batch
  // drawn from one group (a package, a web site, a document), so that its
  // negatives are the near misses a search among that group's sentences
  // meets; the rest of the batch is drawn from the whole seed.
  double group_share = 1.0;
  uint64_t warmup = 200, max_steps = 0, max_epochs = 0, valid_every = 100, log_every = 100, valid_pairs = 500,
           spm_sentences = 300000;
  double lr = 1e-3, beta1 = 0.9, beta2 = 0.98, adam_eps = 1e-9, weight_decay = 0, dropout = 0.1, clip_norm = 1.0,
         max_time = 0;
  bool resume = false;
};

struct DualTrainJob {
  std::string output;  // the model; the checkpoint is output + ".ckpt"
  uint64_t seed = 1;
  nlohmann::ordered_json provenance;  // kept in the model file
};

struct DualTrainState {
  int64_t step = 0, epoch = 0, batch_in_epoch = 0, pairs = 0;  // pairs: trained on, all steps
  double best = -1;                                             // best validation P@1 (mean of both ways)
  int64_t best_step = 0;
  int bad_validations = 0;
  bool stopped_early = false;
  nlohmann::ordered_json to_json() const;
  static DualTrainState from_json(const nlohmann::json& j);
};

// How the run reports; every member may be empty.
struct DualTrainEvents {
  std::function<void(const std::string&)> info;
  std::function<void(const std::string&, uint64_t)> count;
  std::function<void(const std::string&)> validated;
  std::function<void(const DualTrainState&, double loss, double pairs_per_s)> progress;  // after each step
  std::function<bool()> interrupted;
};

struct DualTrainResult {
  std::string why;  // max-steps, max-time, max-epochs, early-stop, interrupted
  DualTrainState state;
  double seconds = 0;  // training (tokenizer and steps), reading excluded
};

// The order of one epoch's n training pairs, each run of batch_pairs a batch:
// a function of (seed, epoch). With groups (one id per pair), the seeded order
// is sorted by group and cut into batches (a group smaller than a batch shares
// one with the next), the last B - round(group_share x B) places of every
// batch are dealt out again in seeded order, and the whole batches are
// shuffled (a short last batch stays last).
std::vector<uint32_t> dual_epoch_order(size_t n, const std::vector<uint32_t>& group, int batch_pairs, double group_share,
                                       uint64_t seed, int64_t epoch);

// Throws corpus::ConfigError for settings that cannot run, corpus::Error for
// data that cannot train (no pair with pieces on both sides, a checkpoint of
// another kind or config).
// With `valid` (pairs of the --valid file), validation uses those pairs and
// none is held out of the seed. With `groups` (one label per pair, the same
// length as `pairs`), batches are made of pairs of one group, at
// s.group_share (see there).
DualTrainResult train_dual_encoder(const std::vector<std::pair<std::string, std::string>>& pairs,
                                   const DualTrainSettings& s, const DualTrainJob& job, const DualTrainEvents& ev,
                                   const std::vector<std::pair<std::string, std::string>>* valid = nullptr,
                                   const std::vector<std::string>* groups = nullptr);

}  // namespace mt
