// Translating a stream (mt/decode/translate_stream.h) and the inspect report
// (mt/model/inspect.h) on a small model written here: one line out per line
// in, in input order whatever the chunking; bad lines stopped at their line;
// and the report and vocabulary listing of pc-nmt inspect.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/tiny_nmt_file.h"
#include "support/tmpdir.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/output.h"
#include "mt/decode/greedy.h"
#include "mt/decode/translate_stream.h"
#include "mt/model/inspect.h"
#include "mt/model/model_file.h"
#include "mt/spm/spm.h"

using namespace mt;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string translate_text(const TranslationModel& m, const TmpDir& d, const std::string& text,
                           const TranslateOptions& opt, uint64_t* sentences = nullptr,
                           std::vector<uint64_t>* progress = nullptr) {
  write_file(d.path("in.txt"), text);
  auto src = corpus::open_input(d.path("in.txt"));
  corpus::LineReader lines(*src);
  {
    corpus::Output out(d.path("out.txt"));
    const TranslateCounts n = translate_stream(m, lines, out, opt, [&](uint64_t k) {
      if (progress) progress->push_back(k);
    });
    if (sentences) *sentences = n.sentences;
    out.commit();
  }
  return raw_bytes(d.path("out.txt"));
}

const char* kText = "the quick fox\nlazy dog\n\nred cat jumps over the brown dog\nthe\nfox fox fox\ncat\n";

}  // namespace

TEST_CASE("translate_stream: one line per input line, in input order, whatever the chunks") {
  TmpDir d;
  const TranslationModel m(mt::test::write_tiny_model(d));
  const std::vector<std::string> in = lines_of(kText);
  // Each line alone, decoded directly.
  std::string want;
  DecodeOptions one;
  one.batch_size = 1;
  for (const auto& l : in) {
    bool cut = false;
    const auto ids = m.src.encode_prefix(l, static_cast<size_t>(m.file.config().max_len), cut);
    if (ids.empty()) {  // a line without tokens is not decoded
      want += "\n";
      continue;
    }
    const auto hyp = greedy_translate(m.file.config(), m.file.params(), {ids}, one);
    want += m.trg.decode(hyp.at(0)) + "\n";
  }
  TranslateOptions opt;
  opt.decode.batch_size = 1;
  opt.batches_per_chunk = 1;  // a chunk per line
  uint64_t n = 0;
  std::vector<uint64_t> progress;
  CHECK(translate_text(m, d, kText, opt, &n, &progress) == want);
  CHECK(n == in.size());
  CHECK(progress.size() == in.size() + 1);  // after each chunk, and once at the end
  CHECK(progress.back() == in.size());
  opt.batches_per_chunk = 64;  // one chunk for all
  progress.clear();
  CHECK(translate_text(m, d, kText, opt, &n, &progress) == want);
  CHECK(progress == std::vector<uint64_t>{in.size()});
  CHECK(translate_text(m, d, "", opt, &n) == "");
  CHECK(n == 0);
}

TEST_CASE("translate_stream: an empty line or a line of spaces gives an empty line") {
  TmpDir d;
  const TranslationModel m(mt::test::write_tiny_model(d));
  // Decoded, an empty source gives words with this model: the stream must not decode it.
  REQUIRE(!greedy_translate(m.file.config(), m.file.params(), {{}}, DecodeOptions{}).at(0).empty());
  TranslateOptions opt;
  const std::vector<std::string> out = lines_of(translate_text(m, d, "\nthe fox\n   \n\t\n", opt));
  REQUIRE(out.size() == 4);
  CHECK(out[0].empty());
  CHECK(!out[1].empty());
  CHECK(out[2].empty());
  CHECK(out[3].empty());
  opt.beam = {3, 2, LengthPenalty::kGnmt, 0.6};
  opt.n_best_rows = true;
  const std::vector<std::string> nb = lines_of(translate_text(m, d, "\nthe fox\n", opt));
  REQUIRE(nb.size() == 3);  // one row for the empty line, two for the other
  CHECK(nb[0] == "0\t\t0.000000");
  CHECK(nb[1].rfind("1\t", 0) == 0);
  CHECK(nb[2].rfind("1\t", 0) == 0);
}

TEST_CASE("translate_stream: --n-best rows are sorted, the first is the beam's output, --stats has a row a line") {
  TmpDir d;
  const TranslationModel m(mt::test::write_tiny_model(d));
  TranslateOptions opt;
  opt.beam = {4, 4, LengthPenalty::kMarian, 1.0};
  const std::string best = translate_text(m, d, kText, opt);
  opt.n_best_rows = true;
  {
    corpus::Output stats(d.path("stats.tsv"));
    opt.stats = &stats;
    const std::vector<std::string> rows = lines_of(translate_text(m, d, kText, opt));
    stats.commit();
    const std::vector<std::string> want = lines_of(best);
    const size_t nonempty = want.size() - 1;  // kText has one empty line
    CHECK(rows.size() == 4 * nonempty + 1);
    std::vector<std::string> firsts;
    double last = 0;
    std::string last_id;
    for (const std::string& r : rows) {
      const size_t a = r.find('\t'), b = r.rfind('\t');
      REQUIRE(a != b);
      const std::string id = r.substr(0, a);
      const double score = std::stod(r.substr(b + 1));
      if (id != last_id) {
        firsts.push_back(r.substr(a + 1, b - a - 1));
      } else {
        CHECK(score <= last);
      }
      last_id = id, last = score;
    }
    CHECK(firsts == want);
  }
  const std::vector<std::string> st = lines_of(raw_bytes(d.path("stats.tsv")));
  CHECK(st.size() == 1 + lines_of(kText).size());
  CHECK(st.at(0) == "sentence\tpasses\ttokens\ttokens_per_pass\tms\tplaceholders");
  CHECK(st.at(3).rfind("2\t0\t0\t", 0) == 0);  // the empty line: nothing decoded
}

TEST_CASE("translate_stream: invalid UTF-8 or a NUL byte stops at its line") {
  TmpDir d;
  const TranslationModel m(mt::test::write_tiny_model(d));
  TranslateOptions opt;
  CHECK_THROWS_WITH_AS(translate_text(m, d, "ok\n\xff\n", opt), doctest::Contains("invalid UTF-8"), corpus::Error);
  try {
    translate_text(m, d, std::string("ok\nfine\na\0b\n", 12), opt);
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(std::string(e.what()).find("NUL") != std::string::npos);
    CHECK(e.line() == 3);
  }
}

TEST_CASE("translate_stream: a model without SentencePiece is refused when loaded") {
  CHECK_THROWS_WITH_AS(TranslationModel(std::string(PARACORP_TEST_DATA) + "/nmt/parity-post-relu.safetensors"),
                       doctest::Contains("no SentencePiece model"), corpus::Error);
}

TEST_CASE("inspect: the JSON report and the vocabulary listing") {
  TmpDir d;
  const std::string path = mt::test::write_tiny_model(d);
  {
    corpus::Output out(d.path("report.json"));
    inspect_model(path, false, out);
    out.commit();
  }
  const auto j = nlohmann::json::parse(raw_bytes(d.path("report.json")));
  CHECK(j["file"] == path);
  CHECK(j["format"] == "paracorp.nmt version 1");
  CHECK(j["trained_steps"] == 3);
  CHECK(j["weights_mapped"] == true);
  CHECK(j["config"]["dim"] == 8);
  CHECK(j["vocabularies"]["spm.joint"] == Tokenizer(mt::test::tiny_spm_model()).vocab_size());
  CHECK(j["tensors"][0].get<std::string>().find(" F32 [") != std::string::npos);
  {
    corpus::Output out(d.path("vocab.tsv"));
    inspect_model(path, true, out);
    out.commit();
  }
  const auto v = lines_of(raw_bytes(d.path("vocab.tsv")));
  CHECK(static_cast<int>(v.size()) == Tokenizer(mt::test::tiny_spm_model()).vocab_size());
  CHECK(v.at(3) == "joint\t3\t</s>\t0");
}
