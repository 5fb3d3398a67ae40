// pc-embed's encode and score loops (align/encode_run.h) with a lexical encoder.
#include <doctest/doctest.h>

#include <oneapi/tbb/global_control.h>

#include <fstream>
#include <string>
#include <vector>

#include "align/encode_run.h"
#include "align/lexical_encoder.h"
#include "libcorpus/core/error.h"
#include "support/memory_source.h"
#include "support/tmpdir.h"

using namespace align;

namespace {

const std::unique_ptr<LexicalEncoder>& encoder() {
  static const auto e = [] {
    std::ifstream f(std::string(PARACORP_SAMPLES) + "/bitext/en-fr.tsv");
    std::string line;
    std::getline(f, line);
    std::vector<TextPair> v;
    while (v.size() < 500 && std::getline(f, line)) {
      const size_t tab = line.find('\t');
      v.emplace_back(line.substr(0, tab), line.substr(tab + 1));
    }
    LexicalOptions o;
    o.buckets = 64;
    o.char_buckets = 32;
    return LexicalEncoder::train(v, o);
  }();
  return e;
}

std::string encode_bytes(const TmpDir& d, const std::string& text, int threads, EncodeRunOptions opt,
                         EncodeCounts* n = nullptr) {
  oneapi::tbb::global_control gc(oneapi::tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads));
  corpus::test::MemorySource src(text, 7);
  corpus::npy::Writer out(d.path("v.npy"), encoder()->dim(), corpus::npy::Dtype::kF32);
  const EncodeCounts c = encode_text(src, *encoder(), opt, out);
  out.commit();
  if (n) *n = c;
  return raw_bytes(d.path("v.npy"));
}

}  // namespace

TEST_CASE("encode run: row i is line i for any thread count and batch size") {
  TmpDir d;
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "Fichier " + std::to_string(i) + (i % 11 ? " ouvert\n" : "\n");
  EncodeRunOptions opt;
  opt.batch_bytes = 512;  // many batches in flight
  const std::string one = encode_bytes(d, text, 1, opt), two = encode_bytes(d, text, 2, opt);
  CHECK(one == two);
  opt.batch_bytes = 1 << 20;
  CHECK(encode_bytes(d, text, 2, opt) == one);
  const corpus::npy::Matrix m = corpus::npy::read(d.path("v.npy"));
  CHECK(m.rows == 3000);
  std::vector<float> row(encoder()->dim());
  const std::string s = "Fichier 1234 ouvert";
  const std::string_view v[] = {s};
  encoder()->encode(v, SentenceEncoder::Side::kSource, row);
  CHECK(std::equal(row.begin(), row.end(), m.row(1234).begin()));
}

TEST_CASE("encode run: a bad line stops the run at its line, or with skip_bad becomes a zero row") {
  TmpDir d;
  const std::string text = "Fichier\n\nmauvais \xff octet\nFin\n";
  EncodeRunOptions opt;
  try {
    encode_bytes(d, text, 2, opt);
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(e.format("t").find("mem:3: invalid UTF-8 at byte 9") != std::string::npos);
  }
  CHECK(d.count() == 0);  // no .npy, no temporary
  opt.skip_bad = true;
  EncodeCounts n;
  encode_bytes(d, text, 2, opt, &n);
  CHECK(n.rows == 4);
  CHECK(n.skipped_bad == 1);
  CHECK(n.empty == 1);
  const corpus::npy::Matrix m = corpus::npy::read(d.path("v.npy"));
  for (uint64_t r : {1, 2})
    for (float x : m.row(r)) REQUIRE(x == 0.0f);
  double norm = 0;
  for (float x : m.row(3)) norm += static_cast<double>(x) * x;
  CHECK(norm == doctest::Approx(1.0));
}

TEST_CASE("score run: the cosine of each pair appended, 0 for an empty side") {
  auto in = corpus::open_tsv_lines(std::make_unique<corpus::test::MemorySource>("Fichier\tFichier\nFichier\t\n"));
  std::string out;
  const EncodeCounts n = score_pairs(*in, *encoder(), {}, [&](std::string_view s) { out += s; });
  CHECK(n.rows == 2);
  CHECK(n.empty == 1);
  CHECK(out.substr(0, out.find('\n')) == "src_text\ttrg_text\tembed_score");
  CHECK(out.find("\nFichier\t\t0.000000\n") != std::string::npos);
}
