// pc-nmt import-marian against an independent NumPy forward of Marian's
// transformer (tests/data/marian/make-marian-fixture.py): the imported model's
// logits match it to 1e-4 and its greedy output equals Marian's token for
// token.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mt/decode/greedy.h"
#include "mt/decode/translate_stream.h"
#include "mt/model/marian_import.h"
#include "mt/model/transformer.h"
#include "mt/spm/spm.h"
#include "support/tmpdir.h"
#include "support/test_data.h"

namespace {

// "": OPUS-MT's usual form (tied-embeddings-all, swish); "untied/": separate
// embeddings, an output matrix and ReLU.
mt::MarianSources fixture(const std::string &variant = "") {
  return {marian_data(variant + "model.npz"), marian_data("source.spm"), marian_data("target.spm"),
          marian_data("vocab.yml")};
}

nlohmann::json marian_expected(const std::string &variant = "") {
  return nlohmann::json::parse(raw_bytes(marian_data(variant + "expected.json")));
}

std::vector<int32_t> ids(const nlohmann::json &j) { return j.get<std::vector<int32_t>>(); }

}  // namespace

TEST_CASE("marian import: the config says what Marian's YAML says") {
  const mt::MarianModel m = mt::convert_marian(fixture());
  const mt::Config &c = m.config;
  CHECK(c.dim == 16);
  CHECK(c.heads == 2);
  CHECK(c.ffn_dim == 32);
  CHECK(c.enc_layers == 1);
  CHECK(c.dec_layers == 1);
  CHECK(c.activation == mt::Activation::kSwish);
  CHECK(!c.pre_norm);
  CHECK(c.tied_output);
  CHECK(c.positions == mt::Positions::kMarian);
  CHECK(c.src_vocab == marian_expected()["vocab_size"].get<int>());
  CHECK(m.report.trg_unmapped == 3);  // the pieces the fixture's vocab.yml leaves out
  CHECK(m.report.marian_only == 0);
}

TEST_CASE("marian import: the untied fixture has its own output matrix and ReLU") {
  const mt::MarianModel m = mt::convert_marian(fixture("untied/"));
  CHECK(!m.config.tied_output);
  CHECK(m.config.activation == mt::Activation::kRelu);
}

TEST_CASE(
    "marian import: logits equal the NumPy forward of Marian's "
    "transformer to 1e-4") {
  for (const std::string variant : {"", "untied/"}) {
    CAPTURE(variant);
    const mt::MarianModel m = mt::convert_marian(fixture(variant));
    const mt::Tokenizer src_tok(m.vocabs.src);
    mt::Transformer<float> model(m.config);
    int compared = 0;
    const nlohmann::json j = marian_expected(variant);
    for (const auto &s : j["sentences"]) {
      const std::vector<int32_t> src = ids(s["src"]), trg = ids(s["greedy"]);
      REQUIRE(src_tok.encode(s["text"].get<std::string>()) == src);
      const mt::Batch b = mt::make_batch(m.config, {&src}, {&trg});
      mt::PassOptions opt;
      opt.keep_logits = true;
      model.pass(m.params.data(), nullptr, b, opt);
      const std::vector<float> &got = model.logits();
      const int V = m.config.trg_vocab;
      for (size_t r = 0; r < s["logits"].size(); ++r) {
        const auto &row = s["logits"][r];
        for (int v = 0; v < V; ++v) {
          const float g = got[r * V + static_cast<size_t>(v)];
          if (row[static_cast<size_t>(v)].is_null()) {
            CHECK_MESSAGE(g < mt::kSuppressed / 2, s["text"], " row ", r, " id ", v);
          } else {
            CHECK_MESSAGE(std::fabs(g - row[static_cast<size_t>(v)].get<double>()) < 1e-4, s["text"], " row ", r,
                          " id ", v);
            ++compared;
          }
        }
      }
    }
    CHECK(compared > 1000);
  }
}

TEST_CASE("marian import: greedy output equals Marian's greedy output exactly") {
  for (const std::string variant : {"", "untied/"}) {
    CAPTURE(variant);
    const mt::MarianModel m = mt::convert_marian(fixture(variant));
    std::vector<std::vector<int32_t>> src, want;
    int ended = 0;
    const nlohmann::json j = marian_expected(variant);
    for (const auto &s : j["sentences"]) {
      src.push_back(ids(s["src"]));
      want.push_back(ids(s["greedy"]));
      ended += s["ends"].get<bool>();
    }
    CHECK(ended > 0);                             // some stop at </s>,
    CHECK(ended < static_cast<int>(src.size()));  // some at the length limit
    const auto got = mt::greedy_translate(m.config, m.params.data(), src, mt::DecodeOptions{});
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) CHECK_MESSAGE(got[i] == want[i], "sentence ", i);
  }
}

TEST_CASE("marian import: the written model file translates with pc-nmt's loader") {
  TmpDir d;
  const std::string out = d.path("opus.safetensors");
  mt::import_marian(fixture(), out, {{"tool", "test"}});
  const mt::TranslationModel tm(out);
  CHECK(tm.file.config().positions == mt::Positions::kMarian);
  CHECK(tm.file.file().metadata().at("imported_from") == "marian");
  const auto j = marian_expected();
  const auto &s = j["sentences"][1];
  const std::vector<int32_t> src = tm.src.encode(s["text"].get<std::string>());
  const auto got = mt::greedy_translate(tm.file.config(), tm.file.params(), {src}, mt::DecodeOptions{});
  CHECK(got[0] == ids(s["greedy"]));
}
