// Document alignment (align/docalign/): reading the two sides, URL pairs,
// greedy 1-to-1 content pairs with a threshold, the doc-pair format, and
// output that does not depend on the thread count.
#include <doctest/doctest.h>

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <string>
#include <vector>

#include "align/docalign/doc_pair.h"
#include "align/docalign/doc_sides.h"
#include "align/docalign/docalign_run.h"
#include "libcorpus/core/error.h"
#include "support/memory_source.h"

using namespace align;

namespace {

std::unique_ptr<corpus::ByteSource> mem(std::string s) {
  return std::make_unique<corpus::test::MemorySource>(std::move(s), 5, "docs.jsonl");
}

DocRecord doc(std::string url, std::vector<std::string> sents) { return {std::move(url), std::move(sents)}; }

std::vector<DocPair> run(const DocSide& s, const DocSide& t, const DocAlignOptions& o, DocAlignCounts* n = nullptr) {
  std::vector<DocPair> out;
  DocAlignCounts c = align_documents(s, t, o, [&](std::string_view line) {
    REQUIRE(line.back() == '\n');
    DocPair p;
    REQUIRE(parse_doc_pair(line.substr(0, line.size() - 1), p) == "");
    out.push_back(p);
  });
  if (n) *n = c;
  return out;
}

// A deterministic stand-in encoder: each word adds a hashed +-1 to 16
// dimensions, so sentences that share words get similar vectors.
class HashEncoder : public SentenceEncoder {
 public:
  size_t dim() const override { return 16; }
  void encode(std::span<const std::string_view> sents, Side, std::span<float> out) const override {
    for (size_t i = 0; i < sents.size(); ++i) {
      float* v = out.data() + i * 16;
      std::fill(v, v + 16, 0.f);
      size_t p = 0;
      const std::string_view s = sents[i];
      while (p < s.size()) {
        size_t e = s.find(' ', p);
        if (e == std::string_view::npos) e = s.size();
        const size_t h = std::hash<std::string_view>()(s.substr(p, e - p));
        v[h % 16] += (h >> 8) % 2 ? 1.f : -1.f;
        p = e + 1;
      }
      float n = 0;
      for (size_t x = 0; x < 16; ++x) n += v[x] * v[x];
      if (n > 0)
        for (size_t x = 0; x < 16; ++x) v[x] /= std::sqrt(n);
    }
  }
  std::string describe() const override { return "hash d=16"; }
};

}  // namespace

TEST_CASE("docalign: documents are read with their sentences, or split here") {
  DocSide s{"en", {}};
  DocReader r(false, 0);
  r.read_side(mem("{\"url\":\"a\",\"lang\":\"en\",\"text\":\"x\",\"sentences\":[\"One.\",\"\",\"Two.\"]}\n"
                  "{\"url\":\"b\",\"lang\":\"en\",\"text\":\"Dr. Smith came. He left.\\nNew paragraph.\"}\n"
                  "{\"url\":\"c\",\"lang\":\"en\",\"text\":\"\"}\n"
                  "{\"url\":\"d\",\"lang\":\"en\",\"text\":\"t\",\"sentences\":[]}\n"),
              s);
  REQUIRE(s.docs.size() == 2);
  CHECK(s.docs[0].sentences == std::vector<std::string>{"One.", "Two."});  // empty strings left out
  CHECK(s.docs[1].sentences == std::vector<std::string>{"Dr. Smith came.", "He left.", "New paragraph."});
  CHECK(r.counts().read == 4);
  CHECK(r.counts().split_here == 2);
  CHECK(r.counts().no_sentences == 2);
}

TEST_CASE("docalign: a mixed stream is divided by language, others counted") {
  DocSide s{"en", {}}, t{"pt", {}};
  DocReader r(false, 0);
  r.read_mixed(mem("{\"url\":\"a\",\"lang\":\"EN\",\"text\":\"A.\"}\n{\"url\":\"b\",\"lang\":\"pt-BR\",\"text\":\"B.\"}\n"
                   "{\"url\":\"c\",\"lang\":\"de\",\"text\":\"C.\"}\n{\"url\":\"d\",\"lang\":\"und\",\"text\":\"D.\"}\n"),
               s, t);
  CHECK(s.docs.size() == 1);
  CHECK(t.docs.size() == 1);
  CHECK(t.docs[0].url == "b");
  CHECK(r.counts().other_lang == 2);
  CHECK(same_language("pt_br", "pt-BR"));
  CHECK_FALSE(same_language("pt", "pt-BR"));
}

TEST_CASE("docalign: bad document lines stop with their line number, or are counted") {
  const char* bad[] = {
      "{\"url\":\"a\",\"lang\":\"en\",\"text\":\"x\",\"sentences\":\"One.\"}",     // not an array
      "{\"url\":\"a\",\"lang\":\"en\",\"text\":\"x\",\"sentences\":[\"a\",3]}",     // not strings
      "{\"url\":\"a\",\"lang\":\"en\",\"text\":\"x\",\"sentences\":[\"a\\u0000\"]}",  // NUL
      "{\"url\":\"a\\u0000\",\"lang\":\"en\",\"text\":\"x\"}",                    // NUL in the URL
      "{\"url\":\"a\",\"lang\":\"en\"}",                                          // no text
      "{\"url\":\"a\",\"lang\":\"en\",\"text\":\"\xff\"}",                        // invalid UTF-8
      "{\"url\":\"a\",\"lang\":\"en\",\"text\":",                                 // truncated
  };
  for (const char* b : bad) {
    CAPTURE(std::string(b));
    const std::string in = std::string("{\"url\":\"ok\",\"lang\":\"en\",\"text\":\"Fine.\"}\n") + b + "\n";
    DocSide s{"en", {}};
    try {
      DocReader(false, 0).read_side(mem(in), s);
      FAIL("no error");
    } catch (const corpus::Error& e) {
      CHECK(e.line() == 2);
      CHECK(e.exit_code() == corpus::kExitData);
    }
    DocSide s2{"en", {}};
    DocReader r(true, 0);
    r.read_side(mem(in), s2);
    CHECK(s2.docs.size() == 1);
    CHECK(r.counts().skipped_bad == 1);
  }
}

TEST_CASE("docalign: URL keys pair documents, ambiguous keys are left to content") {
  DocSide s{"en", {doc("http://x/en/a.html", {"alpha beta"}), doc("http://x/en/b.html", {"gamma delta"}),
                   doc("http://x/c.html", {"one two"}), doc("http://x/en/c.html", {"one two three"})}};
  DocSide t{"fr", {doc("http://x/fr/b.html", {"gamma delta"}), doc("http://x/fr/a.html", {"alpha beta"}),
                   doc("http://x/fr/c.html", {"one two three"})}};
  DocAlignOptions o;
  o.match = DocMatch::kUrl;
  DocAlignCounts n;
  std::vector<DocPair> p = run(s, t, o, &n);
  REQUIRE(p.size() == 2);
  CHECK(p[0].src_url == "http://x/en/a.html");
  CHECK(p[0].trg_url == "http://x/fr/a.html");
  CHECK(p[0].method == "url");
  CHECK(p[0].score == 1);
  CHECK(p[1].trg_url == "http://x/fr/b.html");
  CHECK(n.ambiguous_keys == 1);
  CHECK(n.src_unpaired == 2);
  CHECK(n.trg_unpaired == 1);

  o.match = DocMatch::kBoth;  // the ambiguous c.html goes to its best content match
  p = run(s, t, o, &n);
  REQUIRE(p.size() == 3);
  CHECK(p[2].src_url == "http://x/en/c.html");
  CHECK(p[2].trg_url == "http://x/fr/c.html");
  CHECK(p[2].method == "content");
  CHECK(p[2].score == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(n.url_pairs == 2);
  CHECK(n.content_pairs == 1);
}

TEST_CASE("docalign: greedy 1-to-1 takes the best pair first and stops at the threshold") {
  // s0 is closest to t0, but t0 is s1's identical twin: greedy pairs s1-t0
  // first, then s0 takes its second best t1; s2 shares nothing with t2.
  DocSide s{"en", {doc("s0", {"apple banana cherry date"}), doc("s1", {"apple banana cherry"}),
                   doc("s2", {"zebra"})}};
  DocSide t{"de", {doc("t0", {"apple banana cherry"}), doc("t1", {"apple banana date"}), doc("t2", {"yak"})}};
  DocAlignOptions o;
  o.match = DocMatch::kContent;
  DocAlignCounts n;
  std::vector<DocPair> p = run(s, t, o, &n);
  REQUIRE(p.size() == 2);
  CHECK(p[0].src_url == "s0");
  CHECK(p[0].trg_url == "t1");
  CHECK(p[1].src_url == "s1");
  CHECK(p[1].trg_url == "t0");
  CHECK(n.src_unpaired == 1);
  CHECK(n.trg_unpaired == 1);
  for (const DocPair& d : p) CHECK(d.method == "content");

  o.threshold = 0.99;  // only the identical pair is left
  p = run(s, t, o, &n);
  REQUIRE(p.size() == 1);
  CHECK(p[0].src_url == "s1");
  CHECK(n.below_threshold >= 1);
}

TEST_CASE("docalign: doc-pair lines round-trip, and a reader refuses lines without sentences") {
  DocPair p{"http://a/en/x", "http://a/fr/x", "en", "fr", {"Hello \"world\".", "Tab\there"}, {"Bonjour."}, 0.93127,
            "content"};
  std::string line;
  append_doc_pair(line, p);
  CHECK(line ==
        "{\"src_url\": \"http://a/en/x\", \"trg_url\": \"http://a/fr/x\", \"src_lang\": \"en\", \"trg_lang\": \"fr\", "
        "\"src_sentences\": [\"Hello \\\"world\\\".\", \"Tab\\there\"], \"trg_sentences\": [\"Bonjour.\"], "
        "\"docalign_score\": 0.9313, \"docalign_method\": \"content\"}");
  DocPair q;
  REQUIRE(parse_doc_pair(line, q) == "");
  CHECK(q.src_sentences == p.src_sentences);
  CHECK(q.trg_sentences == p.trg_sentences);
  CHECK(q.score == doctest::Approx(0.9313));
  CHECK(q.method == "content");
  CHECK(parse_doc_pair("{\"src_sentences\": [], \"trg_sentences\": [], \"extra\": {\"k\": 1}}", q) == "");
  CHECK(parse_doc_pair("{\"src_sentences\": [\"a\"]}", q) == "missing key \"trg_sentences\"");
  CHECK(parse_doc_pair("{\"src_sentences\": \"a\", \"trg_sentences\": []}", q) ==
        "key \"src_sentences\" must be an array of strings");
  CHECK(parse_doc_pair("[1]", q) == "a doc-pair line must be a JSON object");
  CHECK(parse_doc_pair("{\"src_sentences\": [", q).rfind("not valid JSON", 0) == 0);
  CHECK(parse_doc_pair("{\"src_sentences\": [], \"trg_sentences\": [], \"docalign_score\": -1e400}", q) ==
        "not valid JSON (number overflow parsing '-1e400')");
  CHECK(parse_doc_pair(std::string(5000, '['), q).find("nested") != std::string::npos);
}

TEST_CASE("docalign: content pairs are the same for any thread count") {
  // 60 documents a side with overlapping vocabularies: enough rows for the
  // parallel loops to split, and near-ties for the greedy order to matter.
  DocSide s{"en", {}}, t{"fr", {}};
  for (int i = 0; i < 60; ++i) {
    std::string a, b;
    for (int w = 0; w < 12; ++w) {
      a += "w" + std::to_string((i * 7 + w * 3) % 41) + " ";
      b += "w" + std::to_string((i * 7 + w * 3 + (w % 4 == 0)) % 41) + " ";
    }
    s.docs.push_back(doc("s" + std::to_string(i), {a}));
    t.docs.push_back(doc("t" + std::to_string((i * 13) % 60), {b}));
  }
  DocAlignOptions o;
  o.match = DocMatch::kContent;
  o.threshold = 0;
  auto text = [&](int threads) {
    oneapi::tbb::global_control g(oneapi::tbb::global_control::max_allowed_parallelism, threads);
    std::string out;
    align_documents(s, t, o, [&](std::string_view l) { out += l; });
    return out;
  };
  const std::string one = text(1);
  CHECK(!one.empty());
  CHECK(text(2) == one);
  CHECK(text(4) == one);

  // The same for document vectors (encode calls from several threads at once).
  const HashEncoder enc;
  o.content = ContentScore::kEmbed;
  o.encoder = &enc;
  const std::string e1 = text(1);
  CHECK(!e1.empty());
  CHECK(e1 != one);
  CHECK(text(2) == e1);
  CHECK(text(4) == e1);
}

TEST_CASE("docalign: embeddings without an encoder are a configuration error") {
  DocSide s{"en", {doc("a", {"x"})}}, t{"fr", {doc("b", {"x"})}};
  DocAlignOptions o;
  o.content = ContentScore::kEmbed;
  CHECK_THROWS_AS(run(s, t, o), corpus::ConfigError);
}

TEST_CASE("docalign: a line over max_line stops with its number, or is skipped and counted") {
  const std::string ok = "{\"url\":\"ok\",\"lang\":\"en\",\"text\":\"Fine.\"}\n";
  const std::string in = ok + "{\"url\":\"a\",\"lang\":\"en\",\"text\":\"" + std::string(300, 'x') + "\"}\n" + ok;
  DocSide s{"en", {}};
  try {
    DocReader(false, 100).read_side(mem(in), s);
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(e.line() == 2);
    CHECK(std::string(e.what()).find("longer than 100 bytes") != std::string::npos);
  }
  DocSide s2{"en", {}};
  DocReader r(true, 100);
  r.read_side(mem(in), s2);
  CHECK(s2.docs.size() == 2);
  CHECK(r.counts().skipped_bad == 1);
}

TEST_CASE("docalign: the last two documents URLs left still pair by content") {
  // Every word is in both documents, so an idf that gives such words
  // nothing would score the pair 0 and leave it unpaired.
  DocSide s{"en", {doc("http://x/en/a.html", {"alpha beta"}), doc("http://x/en/old.html", {"Debian packages apt"})}};
  DocSide t{"fr", {doc("http://x/fr/a.html", {"alpha beta"}), doc("http://x/fr/ancien.html", {"Debian paquets apt"})}};
  DocAlignCounts n;
  std::vector<DocPair> p = run(s, t, DocAlignOptions{}, &n);
  REQUIRE(p.size() == 2);
  CHECK(p[1].src_url == "http://x/en/old.html");
  CHECK(p[1].trg_url == "http://x/fr/ancien.html");
  CHECK(p[1].method == "content");
  CHECK(p[1].score > 0.2);
}
