#include "mt/model/model_file.h"

#include <fmt/format.h>

#include <cstring>
#include <string>
#include <nlohmann/json.hpp>

#include "libcorpus/core/error.h"

namespace mt {

namespace {

std::vector<uint64_t> dims(const std::vector<int64_t>& shape) { return {shape.begin(), shape.end()}; }

// The config against the file's tensors, before the layout (one entry per
// tensor) or a copy of the weights is sized by it: the embeddings' shape
// bounds the vocabularies and dim, the last layer of each stack must be there,
// and the file must hold at least as many F32 tensors as the layout names, so
// nothing below allocates more than the file's own header and bytes describe.
void check_config_fits(const Config& c, const corpus::safetensors::File& f) {
  const uint64_t C = static_cast<uint64_t>(c.dim);
  if (c.shared_embeddings) {
    f.info_shaped("emb.shared", corpus::safetensors::Dtype::kF32, {static_cast<uint64_t>(c.src_vocab), C});
  } else {
    f.info_shaped("emb.src", corpus::safetensors::Dtype::kF32, {static_cast<uint64_t>(c.src_vocab), C});
    f.info_shaped("emb.trg", corpus::safetensors::Dtype::kF32, {static_cast<uint64_t>(c.trg_vocab), C});
  }
  auto last_layer = [&](const char* stack, const char* key, int layers) {
    const std::string name = fmt::format("{}.{}.self.wq", stack, layers - 1);
    if (!f.has(name))
      throw corpus::Error(fmt::format("the config says {} {}, but tensor '{}' is missing", key, layers, name),
                          "the model file is damaged: copy it again or retrain");
  };
  last_layer("enc", "enc_layers", c.enc_layers);
  last_layer("dec", "dec_layers", c.dec_layers);
  // Tensors per layer in make_layout: attention 8, norm 2, feed-forward 4.
  const uint64_t want = (c.shared_embeddings ? 1 : 2) + 16 * static_cast<uint64_t>(c.enc_layers) +
                        26 * static_cast<uint64_t>(c.dec_layers) + (c.pre_norm ? 4 : 0) + (c.tied_output ? 1 : 2);
  uint64_t have = 0;
  for (const auto& [name, t] : f.tensors()) have += t.dtype == corpus::safetensors::Dtype::kF32;
  if (have < want)
    throw corpus::Error(fmt::format("the config describes {} weight tensors, the file has {}", want, have),
                        "the model file is damaged: copy it again or retrain");
}

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
  try {
    check_config_fits(cfg_, *file_);
  } catch (corpus::Error& e) {
    if (e.file().empty()) e.at(path);
    throw;
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

int64_t trained_steps(const ModelFile& f) {
  const std::string v = f.file().meta("trained_steps");
  if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoll(v);
}

}  // namespace mt
