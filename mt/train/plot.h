// An SVG plot of a training log (the JSONL records of Trainer): loss
// (training and validation) against steps on the left, validation chrF and
// BLEU on the right. Plain SVG 1.1, no scripts, viewable in any browser.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace mt {

std::string training_svg(const std::vector<nlohmann::ordered_json>& log, const std::string& title);

// The plot behind training_svg, for any JSONL training log: two panels, loss
// on the left (the "loss" of the "train" and the "valid" records), and on the
// right two fields of the "valid" records against steps.
struct ValidPanel {
  std::string title;
  std::string valid_loss_label;  // the left panel's second line
  std::pair<std::string, std::string> first, second;  // label, field of a "valid" record
};
std::string log_svg(const std::vector<nlohmann::ordered_json>& log, const std::string& title,
                    const std::string& loss_title, const ValidPanel& right);

}  // namespace mt
