// An SVG plot of the neural encoder's training log (the JSONL records of
// dual_train.h): the contrastive loss (training batches and the held-out
// set) against steps on the left, held-out P@1 both ways on the right: pc-nmt
// train's plot (mt/train/plot.h) with other fields.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mt {

std::string dual_training_svg(const std::vector<nlohmann::ordered_json>& log, const std::string& title);

}  // namespace mt
