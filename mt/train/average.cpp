#include "mt/train/average.h"

#include <fmt/format.h>

#include <memory>

#include "libcorpus/core/error.h"
#include "libcorpus/core/json_write.h"
#include "mt/model/model_file.h"

namespace mt {

std::string step_model_path(const std::string& model_path, int64_t step) {
  const size_t slash = model_path.find_last_of('/');
  const size_t dot = model_path.find_last_of('.');
  const bool has_ext = dot != std::string::npos && dot > 0 && (slash == std::string::npos || dot > slash + 1);
  const std::string stem = has_ext ? model_path.substr(0, dot) : model_path;
  const std::string ext = has_ext ? model_path.substr(dot) : "";
  return fmt::format("{}.step-{}{}", stem, step, ext);
}

AverageSummary average_models(const std::vector<std::string>& inputs, const std::string& output,
                              const nlohmann::ordered_json& provenance) {
  if (inputs.empty()) throw corpus::Error("nothing to average");
  const ModelFile first(inputs[0]);
  const std::string config = first.config().to_json().dump();
  const Vocabs vocabs = first.vocabs();
  const int64_t n = first.layout().total();
  std::vector<double> sum(static_cast<size_t>(n), 0.0);
  AverageSummary out;
  nlohmann::ordered_json from = nlohmann::ordered_json::array();
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::unique_ptr<ModelFile> other;
    if (i > 0) other = std::make_unique<ModelFile>(inputs[i]);
    const ModelFile& f = i == 0 ? first : *other;
    if (f.config().to_json().dump() != config)
      throw corpus::Error(fmt::format("its model config differs from {}'s", inputs[0]),
                          "average checkpoints of one training run")
          .at(inputs[i]);
    const Vocabs v = f.vocabs();
    if (v.joint != vocabs.joint || v.src != vocabs.src || v.trg != vocabs.trg)
      throw corpus::Error(fmt::format("its SentencePiece models differ from {}'s", inputs[0]),
                          "average checkpoints of one training run")
          .at(inputs[i]);
    const float* p = f.params();
    for (int64_t k = 0; k < n; ++k) sum[static_cast<size_t>(k)] += p[k];
    out.steps.push_back(trained_steps(f));
    from.push_back({{"file", inputs[i]}, {"trained_steps", out.steps.back()}});
  }
  std::vector<float> mean(static_cast<size_t>(n));
  const double count = static_cast<double>(inputs.size());
  for (int64_t k = 0; k < n; ++k) mean[static_cast<size_t>(k)] = static_cast<float>(sum[static_cast<size_t>(k)] / count);
  ModelWrite w;
  w.config = &first.config();
  w.layout = &first.layout();
  w.params = mean.data();
  w.vocabs = &vocabs;
  w.metadata["provenance"] = corpus::json_text(provenance);
  w.metadata["averaged_from"] = corpus::json_text(from);
  save_model(output, w);
  out.models = static_cast<int>(inputs.size());
  out.params = n;
  return out;
}

}  // namespace mt
