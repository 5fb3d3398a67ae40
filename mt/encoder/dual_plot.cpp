#include "mt/encoder/dual_plot.h"

#include "mt/train/plot.h"

namespace mt {

std::string dual_training_svg(const std::vector<nlohmann::ordered_json>& log, const std::string& title) {
  return log_svg(log, title, "contrastive loss",
                 {"held-out P@1", "held out", {"src -> trg", "p_at_1_fwd"}, {"trg -> src", "p_at_1_bwd"}});
}

}  // namespace mt
