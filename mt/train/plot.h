// An SVG plot of a training log (the JSONL records of Trainer): loss
// (training and validation) against steps on the left, validation chrF and
// BLEU on the right. Plain SVG 1.1, no scripts, viewable in any browser.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mt {

std::string training_svg(const std::vector<nlohmann::ordered_json>& log, const std::string& title);

}  // namespace mt
