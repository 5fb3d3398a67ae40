// The paracorp.nmt model file (mt/model/model_file.h) on the shared
// safetensors reader/writer: weights mapped in place, embedded tokenizers,
// checkpoint tensors, and the refusals of foreign, cut and mismatched files.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/tmpdir.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"
#include "mt/model/model_file.h"
#include "support/test_data.h"
#include "support/small_config.h"

using namespace mt;

namespace {

}  // namespace

TEST_CASE("model file: weights, tokenizers and moments round-trip, weights mapped in place") {
  TmpDir d;
  const Config cfg = small_config();
  ModelOffsets off;
  const ParamLayout layout = make_layout(cfg, off);
  std::vector<float> p(static_cast<size_t>(layout.total()));
  for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<float>(i) * 0.5f - 3.0f;
  std::vector<float> m(p.size(), 0.25f);
  const Vocabs vocabs{std::string("joint\0model", 11), "", ""};
  ModelWrite w;
  w.config = &cfg;
  w.layout = &layout;
  w.params = p.data();
  w.vocabs = &vocabs;
  w.metadata["trained_steps"] = "7";
  w.extra = {{"adam.m", &m}};
  save_model(d.path("m.safetensors"), w);

  ModelFile mf(d.path("m.safetensors"));
  CHECK(mf.mapped());
  CHECK(mf.config().to_json() == cfg.to_json());
  CHECK(std::equal(p.begin(), p.end(), mf.params()));
  CHECK(mf.vocabs().joint == vocabs.joint);
  CHECK(mf.vocabs().src.empty());
  CHECK(mf.vocabs().trg.empty());
  CHECK(mf.extra("adam.m", layout.total())[3] == 0.25f);
  CHECK_THROWS_WITH(mf.extra("adam.m", layout.total() + 1), doctest::Contains("has shape"));
  CHECK_THROWS_WITH(mf.extra("adam.v", layout.total()), doctest::Contains("tensor 'adam.v' is missing"));
  CHECK(mf.file().meta("trained_steps") == "7");
  // F32 weights first in layout order, then the moments, then the U8 tokenizer.
  const auto& t = mf.file().tensors();
  CHECK(t.at(layout.tensors().front().name).begin == 0);
  CHECK(t.at("adam.m").begin == static_cast<uint64_t>(layout.total()) * 4);
  CHECK(t.at("spm.joint").begin == static_cast<uint64_t>(layout.total()) * 8);

  // Cut inside the tensors, cut inside the header.
  const std::string all = raw_bytes(d.path("m.safetensors"));
  std::ofstream(d.path("cut.safetensors"), std::ios::binary) << all.substr(0, all.size() - 5);
  CHECK_THROWS_WITH_AS(ModelFile(d.path("cut.safetensors")), doctest::Contains("truncated safetensors file"),
                       corpus::Error);
  std::ofstream(d.path("head.safetensors"), std::ios::binary) << all.substr(0, 100);
  CHECK_THROWS_WITH_AS(ModelFile(d.path("head.safetensors")), doctest::Contains("truncated safetensors file: header"),
                       corpus::Error);
  // A config that does not fit the tensors.
  Config other = cfg;
  other.ffn_dim = 16;
  corpus::safetensors::Writer bad;
  bad.metadata("format", kNmtFormat);
  bad.metadata("version", kNmtVersion);
  bad.metadata("config", other.to_json().dump());
  for (const auto& ti : layout.tensors())
    bad.add<float>(ti.name, {p.data() + ti.offset, static_cast<size_t>(ti.size)},
                   std::vector<uint64_t>(ti.shape.begin(), ti.shape.end()));
  bad.write(d.path("shape.safetensors"));
  CHECK_THROWS_WITH_AS(ModelFile(d.path("shape.safetensors")), doctest::Contains("has shape [12, 8], expected [16, 8]"), corpus::Error);
}

TEST_CASE("model file: another kind or version of model is refused with what it is") {
  CHECK_THROWS_WITH_AS(ModelFile(nmt_data("ibm1-kind.safetensors")),
                       doctest::Contains("a 'paracorp.ibm1' model, not a paracorp.nmt model"), corpus::Error);
  CHECK_THROWS_WITH_AS(ModelFile(nmt_data("train.tsv")), doctest::Contains("not a safetensors model file"),
                       corpus::Error);
  TmpDir d;
  std::string v = raw_bytes(nmt_data("parity-post-relu.safetensors"));
  v.replace(v.find("\"version\":\"1\""), 13, "\"version\":\"2\"");
  std::ofstream(d.path("v2.safetensors"), std::ios::binary) << v;
  CHECK_THROWS_WITH_AS(ModelFile(d.path("v2.safetensors")),
                       doctest::Contains("a paracorp.nmt model of format version '2'; this program reads version '1'"),
                       corpus::Error);
}
