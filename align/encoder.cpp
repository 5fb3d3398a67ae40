#include "align/encoder.h"

#include <nlohmann/json.hpp>

#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"

namespace align {

std::string encoder_kind(const std::string& path) {
  const corpus::safetensors::File f(path);
  const std::string format = f.meta("format");
  if (format != kEncoderFormat)
    throw corpus::Error(format.empty() ? std::string("a safetensors file without a paracorp format, not a ") +
                                             kEncoderFormat + " model"
                                       : "a \"" + format + "\" model, not a " + kEncoderFormat + " model",
                        "give a sentence encoder made by pc-embed train or pc-embed import")
        .at(path);
  const auto config = nlohmann::json::parse(f.meta("config"), nullptr, false);
  if (!config.is_object() || !config.contains("kind") || !config["kind"].is_string())
    throw corpus::Error("the encoder config has no \"kind\"", "write the model again with pc-embed").at(path);
  return config["kind"].get<std::string>();
}

}  // namespace align
