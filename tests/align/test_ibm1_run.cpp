// The pc-ibm1 commands as library calls (align/ibm1_run.h), the model config
// check (align/ibm1_config.h) and the line cap (libcorpus/core/line_cap.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <string>

#include "support/tmpdir.h"
#include "align/ibm1_config.h"
#include "align/ibm1_run.h"
#include "libcorpus/core/line_cap.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "support/memory_source.h"

using namespace align;

namespace {

const std::string kToy = std::string(PARACORP_TEST_DATA) + "/ibm1/toy.tsv";

std::unique_ptr<corpus::BitextLines> tsv(const std::string& path, size_t max_line = 0) {
  return corpus::open_tsv_lines(corpus::cap_lines(corpus::open_input(path), max_line));
}

Trained train_toy() {
  TrainRunOptions o;
  o.train.prune = 0;
  o.train.iterations = 10;
  return train_model(*tsv(kToy), o);
}

std::string file_with(const TmpDir& d, const std::string& name, const std::string& text) {
  std::ofstream(d.path(name), std::ios::binary) << text;
  return d.path(name);
}

// A source that hands out its bytes a few at a time, so that lines cross reads.
struct Trickle : corpus::test::MemorySource {
  Trickle(std::string data, size_t step) : MemorySource(std::move(data), step, "trickle") {}
};

std::string read_all(corpus::ByteSource& s) {
  std::string out(1 << 16, '\0');
  size_t n = 0;
  while (size_t k = s.read(out.data() + n, out.size() - n)) {
    n += k;
    if (n == out.size()) out.resize(out.size() * 2);
  }
  out.resize(n);
  return out;
}

std::string described_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const corpus::ConfigError& e) {
    return std::string("ConfigError: ") + e.what();
  } catch (const corpus::Error& e) {
    return e.file() + ": " + e.what() + (e.line() ? " at line " + std::to_string(e.line()) : "");
  } catch (const std::exception& e) {
    return std::string("other: ") + e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("ibm1 run: aligning rows with a model equals aligning the corpus it was trained on") {
  Trained t = train_toy();
  std::string in_run, with_model;
  align_corpus(t, {}, [&](std::string_view b) { in_run.append(b); });
  RunCounts n = align_rows(*tsv(kToy), t.model, {}, {}, [&](std::string_view b) { with_model.append(b); });
  CHECK(in_run == with_model);
  CHECK(n.rows == t.corpus.rows_in);
  CHECK(std::count(in_run.begin(), in_run.end(), '\n') == static_cast<long>(n.rows));
  CHECK(t.model.config["tokenize"] == "icu");
  CHECK(t.model.config["pairs"] == t.corpus.pairs());
}

TEST_CASE("ibm1 run: pairs with an empty side are counted where their tokens are empty") {
  Trained t = train_toy();
  TmpDir d;
  // The third row's target is only spaces: no tokens, though the field is not empty.
  const std::string f = file_with(d, "x.tsv", "src_text\ttrg_text\nthe house\tdas Haus\nthe book\t\nbook\t  \nnan\tnan\n");
  std::string out;
  RunCounts n = score_rows(*tsv(f), t.model, {}, 1e-7, [&](std::string_view b) { out.append(b); });
  CHECK(n.rows == 4);
  CHECK(n.empty_side == 2);
  CHECK(out.substr(0, out.find('\n')) ==
        "src_text\ttrg_text\tibm1_fwd_score\tibm1_rev_score\tibm1_qmax_fwd_score\tibm1_qmax_rev_score");
  CHECK(out.find("the book\t\tnan\tnan\tnan\tnan\n") != std::string::npos);
  CHECK(out.find("book\t  \tnan\tnan\tnan\tnan\n") != std::string::npos);
  std::string aligned;
  RunCounts a = align_rows(*tsv(f), t.model, {}, {}, [&](std::string_view b) { aligned.append(b); });
  CHECK(a.empty_side == 2);
  CHECK(std::count(aligned.begin(), aligned.end(), '\n') == 4);
}

TEST_CASE("ibm1 run: score refuses an input that already has a score column") {
  Trained t = train_toy();
  TmpDir d;
  const std::string f = file_with(d, "s.tsv", "src_text\ttrg_text\tibm1_rev_score\na\tb\t1\n");
  CHECK(described_error([&] { score_rows(*tsv(f), t.model, {}, 1e-7, [](std::string_view) {}); }) ==
        "ConfigError: the input already has a ibm1_rev_score column");
}

TEST_CASE("ibm1 run: translate copies unknown words, and a bad line stops it or is skipped") {
  Trained t = train_toy();
  Trickle ok("the house zebra\n", 3);
  std::string out;
  RunCounts n = translate_lines(ok, t.model, false, false, 0, [&](std::string_view b) { out.append(b); });
  CHECK(out == "das Haus zebra\n");
  CHECK(n.rows == 1);
  Trickle bad("the house\nbad \xff byte\nthe book\n", 64);
  CHECK(described_error([&] { translate_lines(bad, t.model, false, false, 0, [](std::string_view) {}); }).find("at line 2") !=
        std::string::npos);
  Trickle skip("the house\nbad \xff byte\nthe book\n", 64);
  out.clear();
  n = translate_lines(skip, t.model, false, true, 0, [&](std::string_view b) { out.append(b); });
  CHECK(out == "das Haus\n\ndas Buch\n");
  CHECK(n.skipped_bad == 1);
}

TEST_CASE("ibm1 config: a wrong key is a data error that names the file and the key") {
  Trained t = train_toy();
  TmpDir d;
  auto with = [&](const char* key, nlohmann::ordered_json v) {
    Ibm1Model m = t.model;
    m.config[key] = std::move(v);
    m.save(d.path("m.st"));
    return described_error([&] { (void)Ibm1Model::load(d.path("m.st")).tokenizer(); });
  };
  const std::string where = d.path("m.st") + ": model config key ";
  CHECK(with("tokenize", "bogus") == where + "'tokenize' must be \"icu\" or \"whitespace\", not '\"bogus\"'");
  CHECK(with("lowercase", "x") == where + "'lowercase' must be true or false, not '\"x\"'");
  CHECK(with("tokenize", 3) == where + "'tokenize' must be a string, not '3'");
  CHECK(with("pairs", -1) == where + "'pairs' must be an integer >= 0, not '-1'");
  CHECK(with("alpha", "0.1") == where + "'alpha' must be a number, not '\"0.1\"'");
  CHECK(with("src_lang", nullptr) == where + "'src_lang' must be a string, not 'null'");
  CHECK(with("perplexity_fwd", nullptr) == "no error");  // JSON writes NaN as null
  CHECK(with("x_note", "anything") == "no error");        // keys this version does not know
}

TEST_CASE("ibm1 config: missing keys take the defaults, present ones are read") {
  CHECK(check_ibm1_config(nlohmann::ordered_json::object(), "m").mode == TokenMode::kIcu);
  TokenizerOptions o = check_ibm1_config({{"tokenize", "whitespace"}, {"lowercase", true}}, "m");
  CHECK(o.mode == TokenMode::kWhitespace);
  CHECK(o.lowercase);
  CHECK(described_error([] { check_ibm1_config(nlohmann::ordered_json::array(), "m"); }).find("not a JSON object") !=
        std::string::npos);
}

TEST_CASE("line cap: a line past the cap is cut to cap + 1 bytes, newlines and short lines kept") {
  const std::string longline(1000, 'x');
  for (size_t step : {1, 3, 7, 64, 4096}) {
    corpus::LineCapSource s(std::make_unique<Trickle>("ab\n" + longline + "\n\ncd\n" + longline, step), 10);
    CHECK(read_all(s) == "ab\n" + std::string(11, 'x') + "\n\ncd\n" + std::string(11, 'x'));
  }
  corpus::LineCapSource exact(std::make_unique<Trickle>(std::string(10, 'y') + "\n" + std::string(11, 'z') + "\n", 4), 10);
  CHECK(read_all(exact) == std::string(10, 'y') + "\n" + std::string(11, 'z') + "\n");
}

TEST_CASE("ibm1 rows: a line over max_line is a bad row at its line, or skipped and counted") {
  TmpDir d;
  const std::string f =
      file_with(d, "big.tsv", "src_text\ttrg_text\na\tb\n" + std::string(5000, 'w') + " x\ty\nc\td\n");
  RowOptions o;
  o.max_line = 100;
  const Trained toy = train_toy();
  const std::string e = described_error([&] { align_rows(*tsv(f, 100), toy.model, o, {}, [](std::string_view) {}); });
  CHECK(e == f + ": line longer than 100 bytes at line 3");
  o.skip_bad = true;
  TrainRunOptions t;
  t.load.rows = o;
  Trained tr = train_model(*tsv(f, 100), t);
  CHECK(tr.corpus.bad_skipped == 1);
  CHECK(tr.corpus.pairs() == 2);
  std::string out;
  RunCounts n = align_rows(*tsv(f, 100), tr.model, o, {}, [&](std::string_view b) { out.append(b); });
  CHECK(n.skipped_bad == 1);
  CHECK(std::count(out.begin(), out.end(), '\n') == 3);
}
