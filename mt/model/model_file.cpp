#include "mt/model/model_file.h"

#include <cstring>
#include <nlohmann/json.hpp>

#include "libcorpus/core/error.h"

namespace mt {

namespace {

std::vector<uint64_t> dims(const std::vector<int64_t>& shape) { return {shape.begin(), shape.end()}; }

}  // namespace

void save_model(const std::string& path, const ModelWrite& w) {
  corpus::safetensors::Writer f;
  f.metadata("format", kNmtFormat);
  f.metadata("version", kNmtVersion);
  f.metadata("config", w.config->to_json().dump());
  for (const auto& [k, v] : w.metadata) f.metadata(k, v);
  // The writer keeps tensors of one element size in the order added: the
  // weights stay one block in layout order, which ModelFile maps in place.
  for (const auto& t : w.layout->tensors())
    f.add<float>(t.name, {w.params + t.offset, static_cast<size_t>(t.size)}, dims(t.shape));
  for (const auto& [name, v] : w.extra) f.add<float>(name, *v);
  if (w.vocabs) {
    auto u8 = [&](const char* name, const std::string& s) {
      if (!s.empty()) f.add_bytes(name, s);
    };
    u8("spm.joint", w.vocabs->joint);
    u8("spm.src", w.vocabs->src);
    u8("spm.trg", w.vocabs->trg);
  }
  f.write(path);
}

ModelFile::ModelFile(const std::string& path) : file_(std::make_unique<corpus::safetensors::File>(path)) {
  file_->expect(kNmtFormat, kNmtVersion, "pc-nmt train");
  try {
    cfg_ = Config::from_json(nlohmann::json::parse(file_->meta("config")));
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
    const float* p = file_->get_shaped<float>(t.name, dims(t.shape)).data();
    if (!first) first = p;
    if (p != first + t.offset) contiguous = false;
  }
  if (contiguous) {
    params_ = first;
    return;
  }
  copy_.resize(layout_.total());
  for (const auto& t : layout_.tensors())
    std::memcpy(copy_.data() + t.offset, file_->get_shaped<float>(t.name, dims(t.shape)).data(), t.size * sizeof(float));
  params_ = copy_.data();
}

Vocabs ModelFile::vocabs() const {
  auto get = [&](const char* n) { return file_->has(n) ? std::string(file_->bytes(n)) : std::string(); };
  return {get("spm.joint"), get("spm.src"), get("spm.trg")};
}

const float* ModelFile::extra(const std::string& name, int64_t n) const {
  return file_->get_shaped<float>(name, {static_cast<uint64_t>(n)}).data();
}

}  // namespace mt
