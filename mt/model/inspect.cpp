#include "mt/model/inspect.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "libcorpus/core/safetensors.h"
#include "mt/model/model_file.h"
#include "mt/model/tokenizers.h"

namespace mt {

namespace {

constexpr const char* kSides[] = {"spm.joint", "spm.src", "spm.trg"};

nlohmann::ordered_json report(const std::string& path, const ModelFile& mf) {
  const auto& meta = mf.file().metadata();
  nlohmann::ordered_json j;
  j["file"] = path;
  j["format"] = meta.at("format") + " version " + meta.at("version");
  j["bytes"] = mf.file().file_size();
  j["parameters"] = mf.layout().total();
  j["weights_mapped"] = mf.mapped();
  j["config"] = mf.config().to_json();
  if (meta.count("trained_steps")) j["trained_steps"] = std::stoll(meta.at("trained_steps"));
  if (meta.count("train_state")) j["train_state"] = nlohmann::ordered_json::parse(meta.at("train_state"));
  if (meta.count("provenance")) j["provenance"] = nlohmann::ordered_json::parse(meta.at("provenance"));
  if (meta.count("averaged_from")) {  // pc-nmt average
    auto from = nlohmann::ordered_json::parse(meta.at("averaged_from"), nullptr, false);
    j["averaged_from"] = from.is_discarded() ? nlohmann::ordered_json(meta.at("averaged_from")) : from;
  }
  nlohmann::ordered_json voc = nlohmann::ordered_json::object();
  for (const char* side : kSides)
    if (mf.file().has(side)) voc[side] = load_tokenizer(mf.file().bytes(side), path, side).vocab_size();
  j["vocabularies"] = voc;
  nlohmann::ordered_json tensors = nlohmann::ordered_json::array();
  for (const auto& [name, t] : mf.file().tensors())
    tensors.push_back(fmt::format("{} {} [{}]", name, corpus::safetensors::dtype_name(t.dtype), fmt::join(t.shape, ",")));
  j["tensors"] = tensors;
  return j;
}

}  // namespace

void inspect_model(const std::string& path, bool vocab, corpus::Output& out) {
  ModelFile mf(path);
  const nlohmann::ordered_json j = report(path, mf);
  if (!vocab) {
    out.write(j.dump(1) + "\n");
    return;
  }
  for (const char* side : kSides) {
    if (!mf.file().has(side)) continue;
    Tokenizer t = load_tokenizer(mf.file().bytes(side), path, side);
    for (int i = 0; i < t.vocab_size(); ++i)
      out.write(fmt::format("{}\t{}\t{}\t{}\n", side + 4, i, t.piece(i), t.score(i)));
  }
}

}  // namespace mt
