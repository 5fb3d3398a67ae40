// A model file's config is data: a bad value is a corpus::Error (exit 1)
// naming the file, the key and the value, never a ConfigError (exit 2); each
// integer is range-checked (not taken modulo 2^32); and the config is checked
// against the file's tensors before anything is sized by it.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <typeinfo>
#include <vector>

#include "support/tmpdir.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"
#include "mt/model/model_file.h"
#include "support/small_config.h"

using namespace mt;

namespace {

// Writes the weights of small_config() under the config JSON `cfg`.
void write_model(const std::string& path, const nlohmann::json& cfg) {
  const Config base = small_config();
  ModelOffsets off;
  const ParamLayout layout = make_layout(base, off);
  static std::vector<float> p;
  p.assign(static_cast<size_t>(layout.total()), 0.5f);
  corpus::safetensors::Writer w;
  w.metadata("format", kNmtFormat);
  w.metadata("version", kNmtVersion);
  w.metadata("config", cfg.dump());
  for (const auto& t : layout.tensors())
    w.add<float>(t.name, {p.data() + t.offset, static_cast<size_t>(t.size)},
                 std::vector<uint64_t>(t.shape.begin(), t.shape.end()));
  w.write(path);
}

nlohmann::json with(const char* key, const nlohmann::json& value) {
  nlohmann::json j = nlohmann::json::parse(small_config().to_json().dump());
  j[key] = value;
  return j;
}

// The error ModelFile throws on `cfg`; fails the test when it throws nothing
// or a ConfigError (a usage error).
corpus::Error load_error(const TmpDir& d, const nlohmann::json& cfg) {
  const std::string path = d.path("m.safetensors");
  write_model(path, cfg);
  try {
    ModelFile mf(path);
  } catch (const corpus::ConfigError& e) {
    FAIL("a ConfigError (exit 2) for a model file: " << e.what());
  } catch (const corpus::Error& e) {
    return e;
  }
  FAIL("the model loaded");
  return corpus::Error("");
}

}  // namespace

TEST_CASE("model config: the unchanged config loads") {
  TmpDir d;
  write_model(d.path("m.safetensors"), small_config().to_json());
  CHECK(ModelFile(d.path("m.safetensors")).config().dim == 8);
}

TEST_CASE("model config: an unknown activation or norm is a data error naming the file and the key") {
  TmpDir d;
  corpus::Error e = load_error(d, with("activation", "tanh"));
  CHECK(e.exit_code() == corpus::kExitData);
  CHECK(e.file() == d.path("m.safetensors"));
  CHECK(std::string(e.what()) == "bad model config: 'activation' is \"tanh\", expected relu, swish or gelu");
  e = load_error(d, with("norm", "middle"));
  CHECK(std::string(e.what()) == "bad model config: 'norm' is \"middle\", expected pre or post");
  CHECK(e.exit_code() == corpus::kExitData);
}

TEST_CASE("model config: integers are range-checked, never taken modulo 2^32") {
  TmpDir d;
  // 2^32 + 16 was read as 16, and the model translated.
  corpus::Error e = load_error(d, with("dim", 4294967312ULL));
  CHECK(std::string(e.what()) == "bad model config: 'dim' is 4294967312, expected an integer from 2 to 65536");
  CHECK(e.file() == d.path("m.safetensors"));
  e = load_error(d, with("enc_layers", -1));
  CHECK(std::string(e.what()) == "bad model config: 'enc_layers' is -1, expected an integer from 1 to 1024");
  e = load_error(d, with("heads", 2.5));
  CHECK(std::string(e.what()) == "bad model config: 'heads' is 2.5, expected an integer from 1 to 65536");
  e = load_error(d, with("src_vocab", "20"));
  CHECK(std::string(e.what()) == "bad model config: 'src_vocab' is \"20\", expected an integer from 5 to 16777216");
  e = load_error(d, with("max_len", 18446744073709551615ULL));
  CHECK(std::string(e.what()).find("'max_len' is 18446744073709551615") != std::string::npos);
  e = load_error(d, with("tied_output", 1));
  CHECK(std::string(e.what()) == "bad model config: 'tied_output' is 1, expected true or false");
  nlohmann::json missing = with("dim", 8);
  missing.erase("ffn_dim");
  e = load_error(d, missing);
  CHECK(std::string(e.what()) == "bad model config: 'ffn_dim' is missing");
}

TEST_CASE("model config: layers the file does not hold are refused before the layout is made") {
  TmpDir d;
  // The message names the last layer's tensor: the check ran before the
  // per-tensor reads, which would name the first missing one (enc.1.*).
  corpus::Error e = load_error(d, with("enc_layers", 1000));
  CHECK(std::string(e.what()) == "the config says enc_layers 1000, but tensor 'enc.999.self.wq' is missing");
  CHECK(e.file() == d.path("m.safetensors"));
  e = load_error(d, with("dec_layers", 7));
  CHECK(std::string(e.what()) == "the config says dec_layers 7, but tensor 'dec.6.self.wq' is missing");
  // Vocabulary and dim are bounded by the embeddings' shape.
  e = load_error(d, with("src_vocab", 100000));
  CHECK(std::string(e.what()).find("shared embeddings need one vocabulary size") != std::string::npos);
  nlohmann::json big = with("src_vocab", 100000);
  big["trg_vocab"] = 100000;
  e = load_error(d, big);
  CHECK(std::string(e.what()) == "tensor 'emb.shared' has shape [20, 8], expected [100000, 8]");
  // Pre-norm needs four tensors the file lacks: counted before the layout.
  e = load_error(d, with("norm", "pre"));
  CHECK(std::string(e.what()) == "the config describes 48 weight tensors, the file has 44");
}
