// What pc-embed import reads besides the fixtures' plain layout: BF16
// weights, and sentence-transformers' Dense module (LaBSE's pooler).
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"
#include "mt/encoder/bert_encoder.h"
#include "mt/encoder/bert_import.h"
#include "support/tmpdir.h"
#include "support/test_data.h"

namespace fs = std::filesystem;
namespace st = corpus::safetensors;

namespace {

std::vector<float> encode_all(const std::string& path) {
  const auto enc = mt::load_bert_encoder(path);
  const nlohmann::json j = nlohmann::json::parse(raw_bytes(embed_data("expected.json")));
  std::vector<std::string> text;
  for (const auto& s : j["sentences"]) text.push_back(s.get<std::string>());
  const std::vector<std::string_view> views(text.begin(), text.end());
  std::vector<float> out(views.size() * enc->dim());
  enc->encode(views, align::SentenceEncoder::Side::kSource, out);
  return out;
}

// The F32 tensors of `src` rewritten: renamed by `rename` ("" drops one),
// zeroed where `zero` says.
void rewrite(const std::string& src, const std::string& dst, const std::function<std::string(std::string)>& rename,
             const std::function<bool(const std::string&)>& zero = {}) {
  const st::File f(src);
  std::vector<std::pair<std::string, std::vector<float>>> keep;
  std::vector<std::vector<uint64_t>> shapes;
  for (const auto& [name, info] : f.tensors()) {
    const std::string to = rename(name);
    if (to.empty()) continue;
    auto v = f.get<float>(name);
    keep.emplace_back(to, std::vector<float>(v.begin(), v.end()));
    if (zero && zero(name)) std::fill(keep.back().second.begin(), keep.back().second.end(), 0.0f);
    shapes.push_back(info.shape);
  }
  st::Writer w;
  for (size_t i = 0; i < keep.size(); ++i)
    w.add<float>(keep[i].first, std::span<const float>(keep[i].second), shapes[i]);
  w.write(dst);
}

}  // namespace

TEST_CASE("bert import: BF16 weights are widened exactly") {
  TmpDir d;
  const std::string m = copy_embed_model(d, "wordpiece");
  const st::File f32(embed_data("wordpiece/model.safetensors"));
  std::vector<std::vector<uint16_t>> bf;
  st::Writer w;
  for (const auto& [name, info] : f32.tensors()) {
    auto v = f32.get<float>(name);
    bf.emplace_back(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      uint32_t bits;
      std::memcpy(&bits, &v[i], 4);
      bf.back()[i] = static_cast<uint16_t>(bits >> 16);
    }
  }
  size_t i = 0;
  for (const auto& [name, info] : f32.tensors()) {
    w.add(name, st::Dtype::kBF16, info.shape, bf[i].data(), bf[i].size() * 2);
    ++i;
  }
  w.write(m + "/model.safetensors");
  mt::import_bert(m, "mean", d.path("enc.safetensors"));
  const st::File out(d.path("enc.safetensors"));
  const auto word = out.get<float>("embeddings.word_embeddings.weight");
  const auto src = f32.get<float>("bert.embeddings.word_embeddings.weight");
  REQUIRE(word.size() == src.size());
  size_t differ = 0;
  for (size_t k = 0; k < word.size(); ++k) {
    uint32_t bits;
    std::memcpy(&bits, &src[k], 4);
    bits &= 0xFFFF0000u;
    float want;
    std::memcpy(&want, &bits, 4);
    differ += word[k] != want;
  }
  CHECK(differ == 0);
}

TEST_CASE("bert import: sentence-transformers' 2_Dense tanh layer is the cls pooler, another Dense is refused") {
  TmpDir d;
  const std::string m = copy_embed_model(d, "wordpiece");
  // The pooler moved to 2_Dense and zeroed in the model: the vectors stay the
  // fixture's only if 2_Dense's weights are the ones used.
  const std::string orig = embed_data("wordpiece/model.safetensors");
  fs::create_directory(m + "/2_Dense");
  rewrite(orig, m + "/2_Dense/model.safetensors", [](std::string n) {
    return n == "bert.pooler.dense.weight" ? "linear.weight" : n == "bert.pooler.dense.bias" ? "linear.bias" : "";
  });
  rewrite(
      orig, m + "/model.safetensors", [](std::string n) { return n; },
      [](const std::string& n) { return n.find("pooler") != std::string::npos; });
  nlohmann::json dense = {{"in_features", 32},
                          {"out_features", 32},
                          {"bias", true},
                          {"activation_function", "torch.nn.modules.activation.Tanh"}};
  std::ofstream(m + "/2_Dense/config.json") << dense.dump();

  mt::import_bert(embed_data("wordpiece"), "cls", d.path("want.safetensors"));
  mt::import_bert(m, "cls", d.path("dense.safetensors"));
  CHECK(encode_all(d.path("dense.safetensors")) == encode_all(d.path("want.safetensors")));

  // Mean pooling followed by a Dense layer is not what the encoder runs.
  try {
    mt::import_bert(m, "mean", d.path("o"));
    FAIL("imported a mean-pooled model with a Dense layer");
  } catch (const corpus::Error& e) {
    CHECK(e.file() == m + "/2_Dense/config.json");
  }
  dense["out_features"] = 16;
  std::ofstream(m + "/2_Dense/config.json") << dense.dump();
  CHECK_THROWS_AS(mt::import_bert(m, "cls", d.path("o")), corpus::Error);
}
