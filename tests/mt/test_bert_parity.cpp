// An imported tiny BERT matches the plain-torch reference of
// tests/data/embed/make-bert-fixtures.py: the same token ids and vectors
// within 1e-4, for WordPiece (bert, F32 weights with the "bert." prefix)
// and SentencePiece (xlm-roberta, F16 weights), with cls and mean pooling.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "align/encoder.h"
#include "libcorpus/core/safetensors.h"
#include "mt/encoder/bert_encoder.h"
#include "mt/encoder/bert_import.h"
#include "support/tmpdir.h"
#include "support/test_data.h"

namespace {

const nlohmann::json& bert_expected() {
  static const nlohmann::json j = [] {
    std::ifstream in(embed_data("expected.json"));
    std::stringstream ss;
    ss << in.rdbuf();
    return nlohmann::json::parse(ss.str());
  }();
  return j;
}

// The largest |difference| over all sentences, for the report.
double check_model(const std::string& model, const std::string& pooling) {
  TmpDir d;
  const std::string out = d.path("enc.safetensors");
  const std::string what = mt::import_bert(embed_data(model), pooling, out);
  CHECK(what.find(pooling + " pooling") != std::string::npos);
  {  // what align::encoder_kind reads (mt_tests does not link align)
    const corpus::safetensors::File f(out);
    CHECK(f.meta("format") == align::kEncoderFormat);
    CHECK(nlohmann::json::parse(f.meta("config"))["kind"] == "bert");
  }
  const auto enc = mt::load_bert_encoder(out);
  const auto& bert = dynamic_cast<const mt::BertEncoder&>(*enc);
  REQUIRE(enc->dim() == 32);

  const auto& sentences = bert_expected()["sentences"];
  const auto& rows = bert_expected()["models"][model];
  std::vector<std::string> text;
  for (const auto& s : sentences) text.push_back(s.get<std::string>());
  std::vector<std::string_view> views(text.begin(), text.end());
  std::vector<float> vec(text.size() * enc->dim());
  enc->encode(views, align::SentenceEncoder::Side::kSource, vec);

  double worst = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    CAPTURE(model);
    CAPTURE(text[i]);
    CHECK(bert.token_ids(text[i]) == rows[i]["ids"].get<std::vector<int32_t>>());
    const auto want = rows[i][pooling].get<std::vector<double>>();
    for (size_t c = 0; c < want.size(); ++c) worst = std::max(worst, std::abs(vec[i * enc->dim() + c] - want[c]));
  }
  CHECK(worst <= 1e-4);
  MESSAGE("bert parity " << model << " " << pooling << ": max-abs-diff " << worst);
  return worst;
}

}  // namespace

TEST_CASE("bert parity: WordPiece model, cls and mean pooling match torch") {
  check_model("wordpiece", "cls");
  check_model("wordpiece", "mean");
}

TEST_CASE("bert parity: SentencePiece (XLM-R) model, cls and mean pooling match torch") {
  check_model("spm", "cls");
  check_model("spm", "mean");
}

TEST_CASE("bert encoder: a vector does not depend on the other sentences of the call") {
  TmpDir d;
  const std::string out = d.path("enc.safetensors");
  mt::import_bert(embed_data("wordpiece"), "mean", out);
  const auto enc = mt::load_bert_encoder(out);
  const std::vector<std::string_view> one = {"hello world"}, three = {"the dog", "hello world", ""};
  std::vector<float> a(enc->dim()), b(3 * enc->dim());
  enc->encode(one, align::SentenceEncoder::Side::kTarget, a);
  enc->encode(three, align::SentenceEncoder::Side::kSource, b);
  CHECK(std::equal(a.begin(), a.end(), b.begin() + static_cast<long>(enc->dim())));
  double norm = 0;
  for (size_t c = 0; c < enc->dim(); ++c) norm += double(b[2 * enc->dim() + c]) * b[2 * enc->dim() + c];
  CHECK(std::abs(norm - 1) < 1e-5);  // the empty sentence: [CLS] [SEP], normalised as any other
}

TEST_CASE("bert import: sentence_bert_config.json's max_seq_length is the cut, [SEP] kept") {
  TmpDir d;
  const std::string m = d.path("wordpiece");
  std::filesystem::copy(embed_data("wordpiece"), m, std::filesystem::copy_options::recursive);
  std::ofstream(m + "/sentence_bert_config.json") << R"({"max_seq_length": 5, "do_lower_case": false})";
  mt::import_bert(m, "cls", d.path("enc.safetensors"));
  const mt::BertEncoder enc(d.path("enc.safetensors"));
  const auto& row = bert_expected()["models"]["wordpiece"][4];  // the quick brown fox ...
  std::vector<int32_t> want = row["ids"].get<std::vector<int32_t>>();
  REQUIRE(want.size() > 5);
  const int32_t sep = want.back();
  want.resize(4);
  want.push_back(sep);
  CHECK(enc.token_ids(bert_expected()["sentences"][4].get<std::string>()) == want);
  // Without the file the cut is the position table's 64.
  mt::import_bert(embed_data("wordpiece"), "cls", d.path("full.safetensors"));
  // [CLS] [UNK] b c [SEP]: a word over 100 characters is one [UNK].
  CHECK(mt::BertEncoder(d.path("full.safetensors")).token_ids(std::string(300, 'a') + " b c").size() == 5);
  std::string many;
  for (int i = 0; i < 100; ++i) many += "a ";
  CHECK(mt::BertEncoder(d.path("full.safetensors")).token_ids(many).size() == 64);
}

TEST_CASE("bert encoder: encode from two threads at once gives the vectors of one thread") {
  TmpDir d;
  mt::import_bert(embed_data("spm"), "cls", d.path("enc.safetensors"));
  const auto enc = mt::load_bert_encoder(d.path("enc.safetensors"));
  std::vector<std::string> text;
  for (const auto& s : bert_expected()["sentences"]) text.push_back(s.get<std::string>());
  const std::vector<std::string_view> views(text.begin(), text.end());
  std::vector<float> alone(views.size() * enc->dim()), a(alone.size()), b(alone.size());
  enc->encode(views, align::SentenceEncoder::Side::kSource, alone);
  auto run = [&](std::vector<float>& out) {
    for (int rep = 0; rep < 20; ++rep) enc->encode(views, align::SentenceEncoder::Side::kSource, out);
  };
  std::thread t1(run, std::ref(a)), t2(run, std::ref(b));
  t1.join();
  t2.join();
  CHECK(a == alone);
  CHECK(b == alone);
}
