#include "mt/encoder/combined_encoder.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "align/lexical_encoder.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/json_write.h"
#include "libcorpus/core/safetensors.h"
#include "mt/encoder/neural_file.h"

namespace mt {

namespace st = corpus::safetensors;

namespace {

constexpr const char* kLexicalPart = "lexical.";
constexpr const char* kNeuralPart = "neural.";

class CombinedEncoder final : public align::SentenceEncoder {
 public:
  CombinedEncoder(std::unique_ptr<align::LexicalEncoder> lex, std::unique_ptr<NeuralEncoder> neural, double weight)
      : lex_(std::move(lex)), neural_(std::move(neural)), weight_(weight) {}

  std::size_t dim() const override { return lex_->dim() + neural_->dim(); }

  void encode(std::span<const std::string_view> sentences, Side side, std::span<float> out) const override {
    const size_t dl = lex_->dim(), dn = neural_->dim(), d = dl + dn, n = sentences.size();
    if (out.size() != n * d) throw corpus::Error("encode: the output does not hold one row per sentence");
    std::vector<float> lv(n * dl), nv(n * dn);
    lex_->encode(sentences, side, lv);
    neural_->encode(sentences, side, nv);
    for (size_t r = 0; r < n; ++r) {
      const float* a = lv.data() + r * dl;
      const float* b = nv.data() + r * dn;
      double na = 0, nb = 0;
      for (size_t k = 0; k < dl; ++k) na += double(a[k]) * a[k];
      for (size_t k = 0; k < dn; ++k) nb += double(b[k]) * b[k];
      // Each part at unit length (a zero part stays zero), the neural one
      // times W, then the whole at unit length.
      const double sa = na > 0 ? 1 / std::sqrt(na) : 0, sb = nb > 0 ? weight_ / std::sqrt(nb) : 0;
      const double whole = std::sqrt((na > 0 ? 1 : 0) + (nb > 0 ? weight_ * weight_ : 0));
      float* o = out.data() + r * d;
      for (size_t k = 0; k < dl; ++k) o[k] = whole > 0 ? static_cast<float>(a[k] * sa / whole) : 0.0f;
      for (size_t k = 0; k < dn; ++k) o[dl + k] = whole > 0 ? static_cast<float>(b[k] * sb / whole) : 0.0f;
    }
  }

  std::string describe() const override {
    return fmt::format("combined d={}: {} + {} x {}", dim(), lex_->describe(), weight_, neural_->describe());
  }

 private:
  std::unique_ptr<align::LexicalEncoder> lex_;
  std::unique_ptr<NeuralEncoder> neural_;
  double weight_;
};

// Adds the tensor `name` of `f` to `w` as prefix + name (the bytes stay in
// f's mapping until w.write()).
void copy_tensor(const st::File& f, const std::string& name, const std::string& prefix, st::Writer& w) {
  const st::TensorInfo& t = f.tensors().at(name);
  const void* data = nullptr;
  switch (t.dtype) {
    case st::Dtype::kU8: data = f.get<uint8_t>(name).data(); break;
    case st::Dtype::kU32: data = f.get<uint32_t>(name).data(); break;
    case st::Dtype::kU64: data = f.get<uint64_t>(name).data(); break;
    case st::Dtype::kF32: data = f.get<float>(name).data(); break;
    default:
      throw corpus::Error(fmt::format("tensor {} has dtype {}, which no encoder part holds", corpus::quote(name),
                                      st::dtype_name(t.dtype)))
          .at(f.path());
  }
  w.add(prefix + name, t.dtype, t.shape, data, t.elements() * st::dtype_size(t.dtype));
}

std::string kind_of(const std::string& path, const char* want, const char* maker) {
  const std::string kind = align::encoder_kind(path);
  if (kind != want)
    throw corpus::Error(fmt::format("a \"{}\" sentence encoder where the {} part goes", kind, want),
                        fmt::format("give a model made by {}", maker))
        .at(path);
  return kind;
}

bool good_weight(double w) { return w > 0 && w <= kMaxCombinedWeight; }

std::string weight_problem(double w) {
  return fmt::format("the neural part's weight is {}, not a number in (0, {}]", w, kMaxCombinedWeight);
}

}  // namespace

std::string combine_encoders(const std::string& lexical, const std::string& neural, double weight,
                             const std::string& output, const std::string& command) {
  if (!good_weight(weight))
    throw corpus::ConfigError(weight_problem(weight), "give --weight W with 0 < W <= 100 (0.7-1 measured best)");
  kind_of(lexical, align::LexicalEncoder::kKind, "pc-embed train --kind lexical");
  kind_of(neural, kNeuralKind, "pc-embed train --kind neural");
  // Loading checks every tensor the encoders read.
  auto lex = align::LexicalEncoder::load(lexical);
  NeuralFile nf(neural);
  const st::File lf(lexical);
  st::Writer w;
  w.metadata("format", align::kEncoderFormat);
  w.metadata("version", "1");
  nlohmann::ordered_json cfg;
  cfg["kind"] = kCombinedKind;
  cfg["weight"] = weight;
  cfg["dim"] = lex->dim() + static_cast<size_t>(nf.config().dim);
  cfg["parts"] = {"lexical", "neural"};
  w.metadata("config", cfg.dump());
  w.metadata("lexical.config", lf.meta("config"));
  w.metadata("neural.config", nf.file().meta("config"));
  w.metadata("provenance", corpus::json_text({{"tool", "pc-embed"}, {"command", command}}));
  for (const auto& [name, t] : lf.tensors()) copy_tensor(lf, name, kLexicalPart, w);
  for (const auto& t : nf.layout().tensors()) copy_tensor(nf.file(), t.name, kNeuralPart, w);
  copy_tensor(nf.file(), "tokenizer", kNeuralPart, w);
  w.write(output);
  return load_combined_encoder(output)->describe();
}

std::unique_ptr<align::SentenceEncoder> load_combined_encoder(const std::string& path) {
  auto f = std::make_shared<const st::File>(path);
  f->expect(align::kEncoderFormat, "1", "pc-embed combine");
  const auto cfg = nlohmann::json::parse(f->meta("config"), nullptr, false);
  if (!cfg.is_object() || !cfg.contains("kind") || cfg["kind"] != kCombinedKind)
    throw corpus::Error("not a combined sentence encoder", "give a model made by pc-embed combine").at(path);
  if (!cfg.contains("weight") || !cfg["weight"].is_number())
    throw corpus::Error("the combined encoder's config has no number \"weight\"", "write it again with pc-embed combine")
        .at(path);
  const double weight = cfg["weight"].get<double>();
  if (!good_weight(weight)) throw corpus::Error(weight_problem(weight), "write it again with pc-embed combine").at(path);
  for (const char* part : {"lexical.config", "neural.config"})
    if (f->meta(part).empty())
      throw corpus::Error(fmt::format("the combined encoder has no \"{}\" metadata", part),
                          "write it again with pc-embed combine")
          .at(path);
  auto lex = align::LexicalEncoder::load_part(*f, kLexicalPart, f->meta("lexical.config"));
  auto neural = std::make_unique<NeuralEncoder>(NeuralFile(f, kNeuralPart, f->meta("neural.config")));
  auto e = std::make_unique<CombinedEncoder>(std::move(lex), std::move(neural), weight);
  if (cfg.contains("dim") && (!cfg["dim"].is_number_unsigned() || cfg["dim"].get<uint64_t>() != e->dim()))
    throw corpus::Error(fmt::format("the config says dim {}, the parts make {}", cfg["dim"].dump(), e->dim()),
                        "write it again with pc-embed combine")
        .at(path);
  return e;
}

}  // namespace mt
