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
  // Metadata is the writer's word, not checked on load: what does not parse
  // is shown as the string it is rather than stopping the report.
  if (meta.count("trained_steps")) {
    const int64_t n = trained_steps(mf);
    j["trained_steps"] = n >= 0 ? nlohmann::ordered_json(n) : nlohmann::ordered_json(meta.at("trained_steps"));
  }
  for (const char* key : {"train_state", "provenance", "averaged_from"}) {  // JSON texts
    if (!meta.count(key)) continue;
    auto v = nlohmann::ordered_json::parse(meta.at(key), nullptr, false);
    j[key] = v.is_discarded() ? nlohmann::ordered_json(meta.at(key)) : v;
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
    out.write(j.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
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
