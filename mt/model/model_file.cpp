#include "mt/model/model_file.h"

#include <fmt/format.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "libcorpus/error.h"

namespace mt {

void save_model(const std::string& path, const ModelWrite& w) {
  TensorFileWriter f;
  f.metadata("format", kNmtFormat);
  f.metadata("version", kNmtVersion);
  f.metadata("config", w.config->to_json().dump());
  for (const auto& [k, v] : w.metadata) f.metadata(k, v);
  for (const auto& t : w.layout->tensors())
    f.add(t.name, "F32", t.shape, w.params + t.offset, static_cast<uint64_t>(t.size) * sizeof(float));
  for (const auto& [name, v] : w.extra)
    f.add(name, "F32", {static_cast<int64_t>(v->size())}, v->data(), v->size() * sizeof(float));
  if (w.vocabs) {
    auto u8 = [&](const char* name, const std::string& s) {
      if (!s.empty()) f.add(name, "U8", {static_cast<int64_t>(s.size())}, s.data(), s.size());
    };
    u8("spm.joint", w.vocabs->joint);
    u8("spm.src", w.vocabs->src);
    u8("spm.trg", w.vocabs->trg);
  }
  f.write(path);
}

ModelFile::ModelFile(const std::string& path) : file_(std::make_unique<TensorFile>(path)) {
  const auto& meta = file_->metadata();
  auto get = [&](const char* k) -> std::string {
    auto it = meta.find(k);
    return it == meta.end() ? std::string() : it->second;
  };
  const std::string format = get("format"), version = get("version");
  if (format != kNmtFormat)
    throw corpus::Error(format.empty() ? std::string("a safetensors file without a paracorp format")
                                       : "a " + format + " model, not a " + kNmtFormat + " model",
                        "give a model made by pc-nmt train")
        .at(path);
  if (version != kNmtVersion)
    throw corpus::Error(fmt::format("{} version {}, this pc-nmt reads version {}", kNmtFormat, corpus::quote(version),
                                    kNmtVersion),
                        "use the pc-nmt that wrote it, or retrain")
        .at(path);
  try {
    cfg_ = Config::from_json(nlohmann::json::parse(get("config")));
  } catch (const nlohmann::json::exception& e) {
    throw corpus::Error(std::string("bad config JSON: ") + e.what()).at(path);
  } catch (corpus::Error& e) {
    throw e.at(path);
  }
  layout_ = make_layout(cfg_, off_);
  // The weights are used in place when they lie back to back in layout order.
  const float* first = nullptr;
  bool contiguous = true;
  for (const auto& t : layout_.tensors()) {
    const float* p = file_->f32(t.name, t.shape);
    if (!first) first = p;
    if (p != first + t.offset) contiguous = false;
  }
  if (contiguous) {
    params_ = first;
    return;
  }
  copy_.resize(layout_.total());
  for (const auto& t : layout_.tensors())
    std::memcpy(copy_.data() + t.offset, file_->f32(t.name, t.shape), t.size * sizeof(float));
  params_ = copy_.data();
}

std::string_view ModelFile::spm_src() const {
  if (file_->find("spm.joint")) return file_->bytes("spm.joint");
  if (file_->find("spm.src")) return file_->bytes("spm.src");
  return {};
}

std::string_view ModelFile::spm_trg() const {
  if (file_->find("spm.joint")) return file_->bytes("spm.joint");
  if (file_->find("spm.trg")) return file_->bytes("spm.trg");
  return {};
}

const float* ModelFile::extra(const std::string& name, int64_t n) const { return file_->f32(name, {n}); }

}  // namespace mt
