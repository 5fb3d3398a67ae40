// Checkpoint averaging: the elementwise mean of the weights of several saved
// states of one training run (Vaswani et al. 2017 average the last 5 or 20
// checkpoints; fairseq's scripts/average_checkpoints.py does the same). The
// trainer keeps the last N validation-point weights with --keep-checkpoints;
// `pc-nmt average` writes their mean as a model file.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mt {

// The file a run keeps for the weights at `step`: MODEL.step-<step> before
// the extension (`en-es.safetensors` -> `en-es.step-6000.safetensors`).
std::string step_model_path(const std::string& model_path, int64_t step);

struct AverageSummary {
  int models = 0;
  int64_t params = 0;
  std::vector<int64_t> steps;  // each input's trained_steps (-1 where the file does not say)
};

// Writes to `output` the mean of the inputs' weights, summed in double in
// input order, with the first input's config and vocabularies. Throws
// corpus::Error (naming the file) when an input is not a pc-nmt model or its
// config or vocabularies differ from the first's.
AverageSummary average_models(const std::vector<std::string>& inputs, const std::string& output,
                              const nlohmann::ordered_json& provenance);

}  // namespace mt
