// One `pc-nmt train` run: read the bitext, train (or, resuming, reload) the
// SentencePiece models, encode, build the model config from the settings,
// train, and keep the JSONL log and the SVG plot beside the model. The tool
// gives the settings and the events; what the run says goes through them.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mt/model/config.h"
#include "mt/train/trainer.h"

namespace mt {

// The settings of a run, as pc-nmt's options give them (0 or "" for the
// architecture's numbers: from the preset).
struct TrainSettings {
  std::string valid, log, plot, arch = "small", activation, norm, spm_type = "unigram", decay = "inv-sqrt",
                                stop_metric = "chrf";
  int vocab_size = 8000, max_len = 128, dim = 0, heads = 0, ffn_dim = 0, enc_layers = 0, dec_layers = 0,
      grad_shards = 4, patience = 10, batch_size = 32, keep_checkpoints = 0;
  uint64_t batch_tokens = 4096, warmup = 4000, max_steps = 0, max_epochs = 0, valid_every = 1000, log_every = 100,
           spm_sentences = 300000;
  double lr = 5e-4, beta1 = 0.9, beta2 = 0.98, adam_eps = 1e-9, weight_decay = 0, label_smoothing = 0.1,
         dropout = 0.1, clip_norm = 1.0, max_time = 0, max_len_factor = 2.0;
  bool separate_vocab = false, untie_output = false, resume = false;
  // Placeholders masked as numbered symbols in training and translation
  // (libcorpus/core/placeholders.h; the SentencePiece model holds the symbols).
  bool protect_placeholders = false;
};

// What the run needs besides the settings.
struct TrainJob {
  std::vector<std::string> files;  // bitext TSV ("-": stdin)
  std::string output;              // the model; the checkpoint is output + ".ckpt"
  uint64_t seed = 1;
  bool skip_bad = false;
  nlohmann::ordered_json provenance;  // kept in the model file
  uint64_t max_line = uint64_t{32} << 20;  // longest bitext line in bytes (--max-line)
};

// How the run reports; every member may be empty.
struct TrainEvents {
  std::function<void(const std::string&)> input;                // an input file, for provenance
  std::function<void(const std::string&)> info;                 // a message for the log
  std::function<void(const std::string&, uint64_t)> count;      // a summary counter's value
  std::function<void(const std::string&)> validated;            // a validation's message
  std::function<void(const TrainState&, double loss, double tokens_per_s)> progress;  // after each step
};

struct TrainResult {
  std::string why;  // the stop condition (Trainer::run)
  TrainState state;
};

// The model config from the settings and the vocabulary sizes; throws
// corpus::ConfigError when the settings do not make a model.
Config make_config(const TrainSettings& s, int src_vocab, int trg_vocab);

// Throws corpus::ConfigError for settings that cannot run, corpus::Error for
// bad data.
TrainResult run_training(const TrainSettings& s, const TrainJob& job, const TrainEvents& ev);

}  // namespace mt
