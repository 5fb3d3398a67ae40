// Bad inputs to pc-embed import and to the bert encoder loader: each is a
// corpus::Error naming the file at fault (a ConfigError for a bad setting).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "align/encoder.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"
#include "mt/encoder/bert_encoder.h"
#include "mt/encoder/bert_import.h"
#include "support/tmpdir.h"
#include "support/test_data.h"

namespace fs = std::filesystem;

namespace {

void edit_config(const std::string& folder, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = nlohmann::json::parse(raw_bytes(folder + "/config.json"));
  edit(j);
  std::ofstream(folder + "/config.json") << j.dump();
}

// The error import_bert throws, with the file it names.
corpus::Error import_error(const std::string& folder, const std::string& out, const char* pooling = "cls") {
  try {
    mt::import_bert(folder, pooling, out);
  } catch (const corpus::Error& e) {
    return e;
  }
  FAIL("import_bert did not throw");
  return corpus::Error("");
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

TEST_CASE("bert import: a folder without config.json is an error naming config.json") {
  TmpDir d;
  const std::string m = copy_embed_model(d, "wordpiece");
  fs::remove(m + "/config.json");
  const corpus::Error e = import_error(m, d.path("out.safetensors"));
  CHECK(ends_with(e.file(), "/config.json"));
  CHECK(std::string(e.what()).find("no config.json") != std::string::npos);
  CHECK_FALSE(fs::exists(d.path("out.safetensors")));
}

TEST_CASE("bert import: a hidden size that contradicts the tensors names model.safetensors and the shapes") {
  TmpDir d;
  const std::string m = copy_embed_model(d, "wordpiece");
  edit_config(m, [](nlohmann::json& j) { j["hidden_size"] = 16; });
  const corpus::Error e = import_error(m, d.path("out.safetensors"));
  CHECK(ends_with(e.file(), "/model.safetensors"));
  const std::string what = e.what();
  CHECK(what.find("bert.embeddings.word_embeddings.weight has shape [100, 32], config.json says [100, 16]") !=
        std::string::npos);
}

TEST_CASE("bert import: a truncated model.safetensors is an error naming it") {
  TmpDir d;
  const std::string m = copy_embed_model(d, "spm");
  fs::resize_file(m + "/model.safetensors", fs::file_size(m + "/model.safetensors") / 2);
  const corpus::Error e = import_error(m, d.path("out.safetensors"));
  CHECK(ends_with(e.file(), "/model.safetensors"));
}

TEST_CASE("bert import: an unknown model_type is an error naming config.json") {
  TmpDir d;
  const std::string m = copy_embed_model(d, "wordpiece");
  edit_config(m, [](nlohmann::json& j) { j["model_type"] = "gpt2"; });
  const corpus::Error e = import_error(m, d.path("out.safetensors"));
  CHECK(ends_with(e.file(), "/config.json"));
  CHECK(std::string(e.what()).find("'gpt2' is not a BERT-family encoder") != std::string::npos);
}

TEST_CASE("bert import: an activation the mt layers lack, and a missing field, name config.json") {
  TmpDir d;
  const std::string m = copy_embed_model(d, "wordpiece");
  edit_config(m, [](nlohmann::json& j) { j["hidden_act"] = "gelu_new"; });
  CHECK(ends_with(import_error(m, d.path("o")).file(), "/config.json"));
  edit_config(m, [](nlohmann::json& j) {
    j["hidden_act"] = "gelu";
    j.erase("num_attention_heads");
  });
  CHECK(ends_with(import_error(m, d.path("o")).file(), "/config.json"));
}

TEST_CASE("bert import: no tokenizer, and a tokenizer with more ids than the embedding table") {
  TmpDir d;
  const std::string m = copy_embed_model(d, "wordpiece");
  {
    std::ofstream(m + "/vocab.txt", std::ios::app) << "extra1\nextra2\n";
    const corpus::Error e = import_error(m, d.path("o"));
    CHECK(ends_with(e.file(), "/vocab.txt"));
  }
  fs::remove(m + "/vocab.txt");
  CHECK(import_error(m, d.path("o")).file() == m);
}

TEST_CASE("bert import: an unknown pooling is a ConfigError, cls pooling needs the pooler") {
  TmpDir d;
  CHECK_THROWS_AS(mt::import_bert(embed_data("wordpiece"), "max", d.path("o")), corpus::ConfigError);
  // A model without the pooler: mean pooling imports, cls refuses.
  const std::string m = copy_embed_model(d, "wordpiece");
  {
    const corpus::safetensors::File f(embed_data("wordpiece/model.safetensors"));
    corpus::safetensors::Writer w;
    std::vector<std::vector<float>> keep;
    for (const auto& [name, info] : f.tensors()) {
      if (name.find("pooler") != std::string::npos) continue;
      auto v = f.get<float>(name);
      keep.emplace_back(v.begin(), v.end());
    }
    size_t i = 0;
    for (const auto& [name, info] : f.tensors())
      if (name.find("pooler") == std::string::npos) w.add<float>(name, std::span<const float>(keep[i++]), info.shape);
    w.write(m + "/model.safetensors");
  }
  const corpus::Error e = import_error(m, d.path("o"), "cls");
  CHECK(ends_with(e.file(), "/model.safetensors"));
  CHECK(std::string(e.what()).find("no pooler") != std::string::npos);
  mt::import_bert(m, "mean", d.path("mean.safetensors"));
  CHECK(mt::load_bert_encoder(d.path("mean.safetensors"))->dim() == 32);
}

TEST_CASE("bert encoder: a model of another kind, or not an encoder, is an error naming the file") {
  TmpDir d;
  const std::string lexical = d.path("lexical.safetensors");
  {
    corpus::safetensors::Writer w;
    w.metadata("format", align::kEncoderFormat);
    w.metadata("version", "1");
    w.metadata("config", R"({"kind":"lexical"})");
    const std::vector<float> x = {1, 2};
    w.add<float>("x", std::span<const float>(x));
    w.write(lexical);
  }
  try {
    mt::load_bert_encoder(lexical);
    FAIL("loaded a lexical encoder as bert");
  } catch (const corpus::Error& e) {
    CHECK(e.file() == lexical);
    CHECK(std::string(e.what()).find("not \"bert\"") != std::string::npos);
  }
  // The Hugging Face file itself is not a paracorp encoder.
  try {
    mt::load_bert_encoder(embed_data("wordpiece/model.safetensors"));
    FAIL("loaded a foreign safetensors file");
  } catch (const corpus::Error& e) {
    CHECK(ends_with(e.file(), "wordpiece/model.safetensors"));
  }
}

TEST_CASE("bert encoder: invalid UTF-8 is an error, the wrong output size too") {
  TmpDir d;
  mt::import_bert(embed_data("spm"), "mean", d.path("e.safetensors"));
  const auto enc = mt::load_bert_encoder(d.path("e.safetensors"));
  std::vector<float> out(2 * enc->dim());
  const std::vector<std::string_view> bad = {"fine", "caf\xe9"};
  CHECK_THROWS_AS(enc->encode(bad, align::SentenceEncoder::Side::kSource, out), corpus::Error);
  const std::vector<std::string_view> one = {"fine"};
  CHECK_THROWS_AS(enc->encode(one, align::SentenceEncoder::Side::kSource, out), corpus::Error);
}
