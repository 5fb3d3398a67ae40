// The fastText model check and the language-ID wrapper, on models written
// here byte by byte in fastText 0.9.2's layout (filter/fasttext_format.h):
// a whole one loads and predicts what fastText's softmax gives by hand;
// every prefix of it, and every inconsistent size or type, is an Error.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "filter/fasttext_format.h"
#include "filter/fasttext_lid.h"
#include "libcorpus/core/error.h"
#include "tests/support/tmpdir.h"

using filter::check_fasttext_model;
using filter::FastTextLid;

namespace {

template <typename T>
void put(std::string& b, T v) {
  b.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// A supervised softmax model: words </s>, bonjour, hallo; labels fr, de;
// dimension 2, no subwords. bonjour's row points at fr's output row and
// hallo's at de's.
struct Model {
  int32_t magic = 793712314, version = 12;
  int32_t dim = 2, word_ngrams = 1, loss = 3, model = 3, bucket = 0, minn = 0, maxn = 0;
  int32_t size = 5, nwords = 3, nlabels = 2;
  int64_t pruned = -1;
  std::vector<std::string> entries = {"</s>", "bonjour", "hallo", "__label__fr", "__label__de"};
  std::vector<int8_t> types = {0, 0, 0, 1, 1};
  std::vector<int64_t> counts = {3, 3, 3, 3, 3};
  int64_t in_rows = 3, in_cols = 2, out_rows = 2, out_cols = 2;
  std::vector<float> in = {0, 0, 2, 0, 0, 2}, out = {1, 0, 0, 1};
  uint8_t quant = 0, qout = 0;
  std::string trailer;

  std::string bytes() const {
    std::string b;
    put(b, magic);
    put(b, version);
    for (int32_t v : {dim, 5, 1, 1, 5, word_ngrams, loss, model, bucket, minn, maxn, 100}) put(b, v);
    put(b, 1e-4);
    put(b, size);
    put(b, nwords);
    put(b, nlabels);
    put(b, int64_t{10});
    put(b, pruned);
    for (size_t i = 0; i < entries.size(); ++i) {
      b += entries[i];
      b += '\0';
      put(b, counts[i]);
      put(b, types[i]);
    }
    put(b, quant);
    put(b, in_rows);
    put(b, in_cols);
    for (float f : in) put(b, f);
    put(b, qout);
    put(b, out_rows);
    put(b, out_cols);
    for (float f : out) put(b, f);
    b.append(trailer);
    return b;
  }
};

std::string error_of(const Model& m) {
  try {
    check_fasttext_model(m.bytes());
  } catch (const corpus::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("fastText model check: a whole model passes, with its shape") {
  const filter::FastTextShape s = check_fasttext_model(Model{}.bytes());
  CHECK(s.dim == 2);
  CHECK(s.words == 3);
  CHECK(s.labels == 2);
  CHECK_FALSE(s.quantised);
}

TEST_CASE("fastText model check: every truncation is an error, none hangs") {
  const std::string b = Model{}.bytes();
  for (size_t n = 0; n < b.size(); ++n) {
    CAPTURE(n);
    CHECK_THROWS_AS(check_fasttext_model(std::string_view(b).substr(0, n)), corpus::Error);
  }
}

TEST_CASE("fastText model check: inconsistent headers are named") {
  Model m;
  m.magic = 1;
  CHECK(error_of(m).find("not a fastText model") != std::string::npos);
  m = Model{};
  m.version = 13;
  CHECK(error_of(m).find("version 13") != std::string::npos);
  m = Model{};
  m.model = 2;
  CHECK(error_of(m).find("a skipgram model, not a supervised") != std::string::npos);
  m = Model{};
  m.dim = 0;
  CHECK(error_of(m).find("dim is 0") != std::string::npos);
  m = Model{};
  m.loss = 9;
  CHECK(error_of(m).find("loss is 9") != std::string::npos);
  m = Model{};
  m.maxn = 4;  // subwords with no buckets: fastText would take a hash modulo 0
  m.minn = 2;
  CHECK(error_of(m).find("no buckets") != std::string::npos);
  m = Model{};
  m.nlabels = 3;  // words + labels != size
  CHECK(error_of(m).find("3 words and 3 labels in a dictionary of 5") != std::string::npos);
  m = Model{};
  m.size = 2000000000;
  m.nwords = 1999999998;
  CHECK(error_of(m).find("the dictionary size is 2000000000, expected 1 to 30000000") != std::string::npos);
  m.size = 20000000;  // more entries than the file holds
  m.nwords = 19999998;
  CHECK(error_of(m).find("entry 3 is a label") != std::string::npos);  // the matrices read as entries
  m = Model{};
  m.types = {0, 0, 1, 0, 1};  // a label among the words
  CHECK(error_of(m).find("entry 2 is a label") != std::string::npos);
  m = Model{};
  m.types[4] = 7;
  CHECK(error_of(m).find("entry 4 is a entry of unknown type") != std::string::npos);
  m = Model{};
  m.counts[4] = 1000000000000000LL;  // fastText's mark of an unbuilt tree node: its loader would loop
  CHECK(error_of(m).find("the labels' counts reach 1000000000000000 at entry 4") != std::string::npos);
  m.counts = {3, 3, 3, 999999999999999LL, 1};  // each under the mark, their sum at it
  CHECK(error_of(m).find("at entry 4: over fastText's limit") != std::string::npos);
  m.counts = {5000000000000000LL, 3, 3, 999999999999998LL, 1};  // a word's count is not the tree's
  CHECK(error_of(m).empty());
  m = Model{};
  m.entries[1] = std::string(70000, 'a');
  CHECK(error_of(m).find("a dictionary entry of 70000 bytes") != std::string::npos);
}

TEST_CASE("fastText model check: matrices must fit the dictionary and the file") {
  Model m;
  m.in_rows = 2;  // fewer rows than words: a word's row would be read past the end
  CHECK(error_of(m).find("the input matrix has 2 rows, the dictionary needs 3") != std::string::npos);
  m = Model{};
  m.in_cols = 3;
  CHECK(error_of(m).find("3 columns, the model's dimension is 2") != std::string::npos);
  m = Model{};
  m.out_rows = 1;
  CHECK(error_of(m).find("the output matrix has 1 rows, the dictionary needs 2") != std::string::npos);
  m = Model{};
  m.in_rows = int64_t{1} << 61;  // a hostile size: not allocated, not multiplied into an overflow
  CHECK(error_of(m).find("rows, the dictionary needs 3") != std::string::npos);
  m = Model{};
  m.quant = 2;
  CHECK(error_of(m).find("is 2, not 0 or 1") != std::string::npos);
  m = Model{};
  m.pruned = 0;  // a pruned dictionary needs a quantised input matrix
  CHECK(error_of(m).find("pruned dictionary with a dense input matrix") != std::string::npos);
  m = Model{};
  m.out[3] = std::nanf("");  // fastText throws from inside predict on a NaN
  CHECK(error_of(m).find("the output matrix holds NaN") != std::string::npos);
  m = Model{};
  m.in[0] = INFINITY;
  CHECK(error_of(m).find("the input matrix holds inf, over 65536 in size") != std::string::npos);
  m = Model{};
  m.in[2] = 3e37f;  // finite, but the sums of a prediction overflow into a NaN
  CHECK(error_of(m).find("the input matrix holds 3e+37, over 65536 in size") != std::string::npos);
  m = Model{};
  m.trailer.push_back('x');
  CHECK(error_of(m).find("1 bytes after the output matrix") != std::string::npos);
}

TEST_CASE("fastText language ID: softmax probabilities as fastText computes them, best first") {
  TmpDir d;
  put_bytes(d.path("m.bin"), Model{}.bytes());
  const FastTextLid lid(d.path("m.bin"));
  CHECK(lid.labels() == 2);
  // "bonjour" and </s> average to (1, 0): logits 1 (fr) and 0 (de).
  const double p = std::exp(1.0) / (std::exp(1.0) + 1.0);
  auto g = lid.predict("bonjour");
  REQUIRE(g.size() == 2);
  CHECK(g[0].lang == "fr");
  CHECK(g[0].p == doctest::Approx(p).epsilon(1e-5));
  CHECK(g[1].lang == "de");
  CHECK(g[1].p == doctest::Approx(1 - p).epsilon(1e-5));
  g = lid.predict("hallo");
  CHECK(g[0].lang == "de");
  g = lid.predict("unknown words only");
  CHECK(g[0].p == doctest::Approx(0.5).epsilon(1e-5));
}

TEST_CASE("fastText language ID: a bad file is an Error naming it") {
  TmpDir d;
  CHECK_THROWS_WITH_AS(FastTextLid(d.path("none.bin")), doctest::Contains("No such file"), corpus::Error);
  Model m;
  m.out_rows = 1;
  put_bytes(d.path("bad.bin"), m.bytes());
  try {
    FastTextLid lid(d.path("bad.bin"));
    FAIL("a bad model loaded");
  } catch (const corpus::Error& e) {
    CHECK(e.file() == d.path("bad.bin"));
  }
}

TEST_CASE("fastText language ID: labels match language codes by their primary subtag") {
  CHECK(filter::same_language("fr", "fr"));
  CHECK(filter::same_language("fra_Latn", "fr"));
  CHECK(filter::same_language("pt", "pt_BR"));
  CHECK(filter::same_language("zh", "zh-Hant"));
  CHECK(filter::same_language("deu_Latn", "de"));
  CHECK_FALSE(filter::same_language("de", "fr"));
  CHECK_FALSE(filter::same_language("gl", "es"));
}
