// TMX writer and reader, and the TSV <-> TMX conversion.
#include <doctest/doctest.h>

#include <fstream>
#include <optional>
#include <random>
#include <regex>
#include <string>

#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/threads.h"
#include "libcorpus/core/tmx.h"
#include "libcorpus/core/tmx_convert.h"
#include "support/tmpdir.h"

using namespace corpus;

namespace {

std::string slurp(const std::string& path) {
  auto in = open_input(path);
  std::string s, buf(1 << 16, '\0');
  while (size_t n = in->read(buf.data(), buf.size())) s.append(buf, 0, n);
  return s;
}


std::string to_tmx(const std::string& tsv_path, const std::string& out_path, size_t batch = 1 << 20) {
  auto lines = open_tsv_lines(open_input(tsv_path));
  Output out(out_path);
  const TsvToTmxOptions o{.src_lang = "en", .trg_lang = "fr", .skip_bad = false, .tool_version = {}, .header_props = {}, .batch_bytes = batch};
  tsv_to_tmx(*lines, out, o, nullptr);
  out.commit();
  return slurp(out_path);
}

}  // namespace

TEST_CASE("a <tu> carries the text columns as <seg>, URLs and other columns as <prop>") {
  TmxLayout l = TmxLayout::from_columns({"src_url", "trg_url", "src_text", "trg_text", "score"}, "en", "fr");
  std::string out;
  CHECK(append_tmx_unit(out, l, {"http://a?x=1&y=2", "http://b", "A & B", "<C>", "0.5"}, 7).empty());
  CHECK(out ==
        "<tu tuid=\"7\">\n  <prop type=\"score\">0.5</prop>\n"
        "  <tuv xml:lang=\"en\">\n    <prop type=\"source-document\">http://a?x=1&amp;y=2</prop>\n"
        "    <seg>A &amp; B</seg>\n  </tuv>\n"
        "  <tuv xml:lang=\"fr\">\n    <prop type=\"source-document\">http://b</prop>\n"
        "    <seg>&lt;C&gt;</seg>\n  </tuv>\n</tu>\n");
  std::string bad = "x";
  CHECK(append_tmx_unit(bad, l, {"", "", "a\x01", "b", ""}, 1).find("src_text") != std::string::npos);
  CHECK(bad == "x");  // nothing half-written
}

TEST_CASE("TSV -> TMX -> TSV restores the file byte for byte") {
  TmpDir dir;
  const std::string tsv =
      "src_url\ttrg_url\tsrc_text\ttrg_text\tscore\n"
      "u1\tv1\tTom & Jerry <b>\"hi\"</b> 'x'\t\xd8\xa3\xd8\xad\xd8\xa8 \xf0\x9f\x98\x80\t0.9\n"
      "\t\t  spaces  \t\xe0\xa4\x95\xe0\xa5\x80\xe0\xa4\xae\xe0\xa4\xa4 \xe4\xb8\xad\xe6\x96\x87\t\n"
      "u3\tv3\tcarriage\rreturn\t]]> end\t1\n";
  write_file(dir.path("in.tsv"), tsv);
  to_tmx(dir.path("in.tsv"), dir.path("out.tmx.gz"));
  auto in = open_input(dir.path("out.tmx.gz"));
  Output back(dir.path("back.tsv"));
  ConvertStats st = tmx_to_tsv(*in, back, {}, nullptr);
  back.commit();
  CHECK(st.rows_out == 3);
  CHECK(slurp(dir.path("back.tsv")) == tsv);
}

TEST_CASE("TMX output does not depend on the thread count or the batch size") {
  TmpDir dir;
  std::string tsv = "src_text\ttrg_text\n";
  for (int i = 0; i < 5000; ++i) tsv += "sentence " + std::to_string(i) + " & more\tphrase " + std::to_string(i) + "\n";
  write_file(dir.path("in.tsv"), tsv);
  std::string one, two;
  {
    threads::Scope s(1);
    one = to_tmx(dir.path("in.tsv"), dir.path("a.tmx"), 4096);
  }
  {
    threads::Scope s(2);
    two = to_tmx(dir.path("in.tsv"), dir.path("b.tmx"), 1000);
  }
  CHECK(one == two);
  CHECK(one == to_tmx(dir.path("in.tsv"), dir.path("c.tmx")));
}

TEST_CASE("a bad row stops the conversion with its line, in any batch") {
  TmpDir dir;
  std::string tsv = "src_text\ttrg_text\n";
  for (int i = 0; i < 3000; ++i) tsv += i == 2500 ? "only one column\n" : "a\tb\n";
  write_file(dir.path("in.tsv"), tsv);
  try {
    to_tmx(dir.path("in.tsv"), dir.path("x.tmx"), 2000);
    FAIL("bad row accepted");
  } catch (const Error& e) {
    CHECK(e.line() == 2502);
  }
  CHECK_FALSE(std::ifstream(dir.path("x.tmx")).good());
}

TEST_CASE("TmxReader: foreign TMX with inline codes, TMX 1.1 lang, header props") {
  TmpDir dir;
  write_file(dir.path("f.tmx"),
      "<?xml version=\"1.0\"?>\n<tmx version=\"1.1\"><header srclang=\"EN\" creationtool=\"t\">"
      "<prop type=\"x-note\">n</prop></header><body>\n"
      "<tu tuid=\"9\"><prop type=\"score\">0.3</prop>"
      "<tuv lang=\"EN\"><seg>a <ph>&lt;br/&gt;</ph>b <hi>c</hi></seg></tuv>"
      "<tuv xml:lang=\"de\"><prop type=\"source-document\">http://d</prop><seg>x</seg></tuv></tu>\n"
      "</body></tmx>\n");
  auto in = open_input(dir.path("f.tmx"));
  TmxReader r(*in);
  CHECK(r.header().srclang == "EN");
  REQUIRE(r.header().props.size() == 1);
  CHECK(r.header().props[0].second == "n");
  TmxUnit u;
  REQUIRE(r.next(u));
  CHECK(u.tuid == "9");
  CHECK(u.line == 3);
  REQUIRE(u.variants.size() == 2);
  CHECK(u.variants[0].lang == "EN");
  CHECK(u.variants[0].seg == "a b c");
  CHECK(u.variants[1].props[0].second == "http://d");
  CHECK(u.props[0].first == "score");
  CHECK_FALSE(r.next(u));
}

TEST_CASE("TmxReader: malformed, truncated, empty and non-TMX input are Errors with a line") {
  TmpDir dir;
  write_file(dir.path("t.tmx"), "<tmx version=\"1.4\"><header srclang=\"en\"/><body>\n<tu><tuv xml:lang=\"en\"><seg>a</seg>");
  write_file(dir.path("e.tmx"), "");
  write_file(dir.path("h.xml"), "<html><body/></html>");
  for (const char* name : {"t.tmx", "e.tmx", "h.xml"}) {
    CAPTURE(name);
    auto in = open_input(dir.path(name));
    TmxReader r(*in);
    TmxUnit u;
    CHECK_THROWS_AS(r.next(u), Error);
  }
}

TEST_CASE("languages from file names and tags") {
  CHECK(langs_from_filename("en-fr.tsv") == std::make_pair(std::string("en"), std::string("fr")));
  CHECK(langs_from_filename("/x/corpus.de-en.tsv.gz") == std::make_pair(std::string("de"), std::string("en")));
  CHECK(langs_from_filename("para_crawl-v9.en-ga.tmx") == std::make_pair(std::string("en"), std::string("ga")));
  CHECK_FALSE(langs_from_filename("unicode.tsv").has_value());
  CHECK(lang_from_suffix("train.en") == "en");
  CHECK(lang_from_suffix("dir/train.fr.gz") == "fr");
  CHECK(lang_from_suffix("train.txt") == "");
  CHECK(same_language("en", "EN-gb"));
  CHECK(same_language("pt_BR", "pt-br"));
  CHECK_FALSE(same_language("pt-PT", "pt-BR"));
  CHECK_FALSE(same_language("en", "fr"));
}

TEST_CASE("TmxReader: a misplaced element makes its unit bad, with the line, and reading goes on") {
  TmpDir dir;
  // A <tu> inside a <tuv> (with a <prop>: both once read through an empty
  // variant list), a <seg> outside a <tuv>, a <tuv> outside a <tu>.
  write_file(dir.path("m.tmx"),
      "<tmx version=\"1.4\"><header/><body>\n"
      "<tu><tuv xml:lang=\"en\"><seg>a</seg></tuv><tuv xml:lang=\"fr\">\n<tu><prop type=\"p\">v</prop>"
      "<seg>in</seg></tu><seg>b</seg></tuv></tu>\n"
      "<tu><seg>s</seg><tuv xml:lang=\"en\"><seg>c</seg></tuv></tu>\n"
      "<tuv xml:lang=\"en\"><seg>x</seg></tuv>\n"
      "<tu><tuv xml:lang=\"en\"><seg>d<hi>e</hi></seg></tuv></tu>\n"
      "</body></tmx>\n");
  auto in = open_input(dir.path("m.tmx"));
  TmxReader r(*in);
  TmxUnit u;
  REQUIRE(r.next(u));
  CHECK(u.error == "misplaced <tu> inside <tuv>");
  CHECK(u.line == 2);
  CHECK(u.error_line == 3);
  REQUIRE(u.variants.size() == 2);
  CHECK(u.variants[1].seg == "b");  // the misplaced subtree is left out
  REQUIRE(r.next(u));
  CHECK(u.error == "misplaced <seg> inside <tu>");
  CHECK(u.error_line == 4);
  REQUIRE(r.next(u));
  CHECK(u.error == "misplaced <tuv> inside <body>");
  CHECK(u.error_line == 5);
  REQUIRE(r.next(u));
  CHECK(u.error.empty());
  CHECK(u.variants.at(0).seg == "de");
  CHECK_FALSE(r.next(u));
}

TEST_CASE("tmx_to_tsv: a misplaced element stops the run, or --skip-bad skips its unit") {
  TmpDir dir;
  const std::string doc =
      "<tmx version=\"1.4\"><header/><body><tu><tuv xml:lang=\"en\"><seg>a</seg></tuv><tuv xml:lang=\"fr\"><tu/>"
      "<seg>b</seg></tuv></tu>\n<tu><tuv xml:lang=\"en\"><seg>c</seg></tuv><tuv xml:lang=\"fr\"><seg>d</seg></tuv>"
      "</tu></body></tmx>";
  write_file(dir.path("m.tmx"), doc);
  for (bool skip : {false, true}) {
    CAPTURE(skip);
    auto in = open_input(dir.path("m.tmx"));
    Output out(dir.path("o.tsv"));
    TmxToTsvOptions o;
    o.skip_bad = skip;
    if (!skip) {
      try {
        tmx_to_tsv(*in, out, o, nullptr);
        FAIL("no error");
      } catch (const Error& e) {
        CHECK(std::string(e.what()) == "misplaced <tu> inside <tuv>");
        CHECK(e.line() == 1);
      }
      continue;
    }
    ConvertStats st = tmx_to_tsv(*in, out, o, nullptr);
    out.commit();
    CHECK(st.rows_in == 2);
    CHECK(st.skipped == 1);
    CHECK(slurp(dir.path("o.tsv")) == "src_text\ttrg_text\nc\td\n");
  }
}

TEST_CASE("TmxReader: nesting deeper than the limit is an Error, at the limit it reads") {
  TmpDir dir;
  auto doc = [](size_t levels) {  // tmx, body, tu, tuv, seg, then <hi>s: `levels` elements open
    std::string s = "<tmx version=\"1.4\"><header/><body><tu><tuv xml:lang=\"en\"><seg>";
    for (size_t i = 5; i < levels; ++i) s += "<hi>";
    s += "t";
    for (size_t i = 5; i < levels; ++i) s += "</hi>";
    return s + "</seg></tuv></tu></body></tmx>";
  };
  write_file(dir.path("ok.tmx"), doc(kMaxTmxDepth));
  write_file(dir.path("deep.tmx"), doc(kMaxTmxDepth + 1));
  {
    auto in = open_input(dir.path("ok.tmx"));
    TmxReader r(*in);
    TmxUnit u;
    REQUIRE(r.next(u));
    CHECK(u.variants.at(0).seg == "t");
  }
  auto in = open_input(dir.path("deep.tmx"));
  TmxReader r(*in);
  TmxUnit u;
  CHECK_THROWS_WITH_AS(r.next(u), "elements nested more than 1000 levels deep", Error);
}

TEST_CASE("language codes from file names agree with the regular expressions they replace") {
  // The names were read with std::regex before; the hand-written scan must
  // give the same answer on random names made of the characters that matter.
  const std::regex pair_re(R"((?:^|[._-])([a-z]{2,3}(?:_[A-Za-z]{2,4})?)-([a-z]{2,3}(?:_[A-Za-z]{2,4})?)\.(?:tsv|tmx|txt))");
  const std::regex suffix_re(R"(\.([a-z]{2,3})$)");
  const std::string alphabet = "abenfrBRx_-.9";
  const std::vector<std::string> pieces{"en", "fr", "pt_BR", "zh_Hant", "tsv", "tmx", "txt", "gz", "eng", "abcd"};
  std::mt19937 rng(7);
  for (int n = 0; n < 4000; ++n) {
    std::string name;
    int parts = 1 + static_cast<int>(rng() % 6);
    for (int p = 0; p < parts; ++p) {
      if (rng() % 2) name += pieces[rng() % pieces.size()];
      else name += alphabet[rng() % alphabet.size()];
    }
    std::smatch m;
    std::optional<std::pair<std::string, std::string>> want;
    if (std::regex_search(name, m, pair_re)) want = std::make_pair(m[1].str(), m[2].str());
    CAPTURE(name);
    CHECK(langs_from_filename(name) == want);
    std::string want_suffix;
    if (std::regex_search(name, m, suffix_re)) {
      want_suffix = m[1].str();
      for (const char* ext : {"txt", "tsv", "tmx", "xml", "csv", "out", "raw", "tok", "bpe", "spm", "log", "dat", "doc"})
        if (want_suffix == ext) want_suffix.clear();
    }
    if (name.find(".gz") == std::string::npos) CHECK(lang_from_suffix(name) == want_suffix);
  }
}
