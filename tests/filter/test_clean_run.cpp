// The streaming run: order, dedup, limits, annotate, rejected file, bad rows,
// and byte-identical output for any thread count.
#include <doctest/doctest.h>

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <string>

#include "align/encoder.h"
#include "align/translation_scorer.h"
#include "filter/clean_run.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"
#include "support/memory_source.h"
#include "support/tmpdir.h"

namespace {

struct Run {
  std::string out, rejected;
  filter::CleanCounts n;
};

// An encoder whose cosine falls with the '!' in the target: every source is
// (1, 0), a target with k '!' is (cos 0.3k, sin 0.3k), so near-duplicate
// variants that differ only in '!' get different scores.
class BangEncoder : public align::SentenceEncoder {
 public:
  std::size_t dim() const override { return 2; }
  void encode(std::span<const std::string_view> sentences, Side side, std::span<float> out) const override {
    for (size_t i = 0; i < sentences.size(); ++i) {
      const double a = side == Side::kSource ? 0 : 0.3 * static_cast<double>(std::count(sentences[i].begin(), sentences[i].end(), '!'));
      out[2 * i] = static_cast<float>(std::cos(a));
      out[2 * i + 1] = static_cast<float>(std::sin(a));
    }
  }
  std::string describe() const override { return "bang"; }
};

// A stand-in translation model: each target token (a byte, and the end of
// sentence) has probability 1 / (1 + |source bytes - target bytes|).
class LengthJudge : public align::TranslationScorer {
 public:
  Score score(std::string_view s, std::string_view t) const override {
    if (s.empty() || t.empty()) return {};
    const double d = std::abs(static_cast<double>(s.size()) - static_cast<double>(t.size()));
    const int tokens = static_cast<int>(t.size()) + 1;
    return {-std::log(1 + d) * tokens, tokens};
  }
  std::string describe() const override { return "length"; }
};

Run run(const std::string& input, const std::string& chain, bool annotate = false, bool skip_bad = false,
        size_t threads = 1, size_t batch = 1 << 20, const filter::MultiwayIndex* multiway = nullptr,
        const align::SentenceEncoder* encoder = nullptr, const align::TranslationScorer* nmt = nullptr) {
  oneapi::tbb::global_control gc(oneapi::tbb::global_control::max_allowed_parallelism, threads);
  TmpDir d;
  filter::CleanOptions o;
  o.chain = filter::Chain::parse(chain);
  o.annotate = annotate;
  o.skip_bad = skip_bad;
  o.batch_bytes = batch;
  o.multiway = multiway;
  filter::PairScorer none(nullptr, encoder);
  none.set_nmt(nmt);
  auto lines = corpus::open_tsv_lines(std::make_unique<corpus::test::MemorySource>(input));
  Run r;
  {
    corpus::Output out(d.path("out.tsv")), rej(d.path("rej.tsv"));
    r.n = filter::clean_rows(*lines, o, none, out, &rej);
    out.commit();
    rej.commit();
  }
  r.out = raw_bytes(d.path("out.tsv"));
  r.rejected = raw_bytes(d.path("rej.tsv"));
  return r;
}

}  // namespace

TEST_CASE("clean run: kept rows keep input order, rejected rows go to the rejected file with their reason") {
  const std::string in = "src_text\ttrg_text\nOne\tUn\nSame\tSame\nTwo\tDeux\nOne\tUn\n";
  Run r = run(in, "same,dedup=exact");
  CHECK(r.out == "src_text\ttrg_text\nOne\tUn\nTwo\tDeux\n");
  CHECK(r.rejected == "src_text\ttrg_text\tclean_reason\nSame\tSame\tsame\nOne\tUn\tdedup\n");
  CHECK(r.n.kept == 2);
  CHECK(r.n.rejected == std::vector<uint64_t>{1, 1});
}

TEST_CASE("clean run: --annotate keeps every row and adds clean_reason, and a headerless input gains a header") {
  Run r = run("One\tUn\nSame\tSame\n", "same", true);
  CHECK(r.out == "src_text\ttrg_text\tclean_reason\nOne\tUn\tkeep\nSame\tSame\tsame\n");
  Run plain = run("One\tUn\nSame\tSame\n", "same");
  CHECK(plain.out == "One\tUn\n");  // nothing added: stays headerless
}

TEST_CASE("clean run: an input clean_reason column is overwritten in place, other columns pass through") {
  Run r = run("src_url\tsrc_text\tclean_reason\ttrg_text\nu1\tOne\told\tUn\nu2\tX\told\tX\n", "same", true);
  CHECK(r.out == "src_url\tsrc_text\tclean_reason\ttrg_text\nu1\tOne\tkeep\tUn\nu2\tX\tsame\tX\n");
}

TEST_CASE("clean run: near dedup ignores case and punctuation, exact does not") {
  const std::string in = "src_text\ttrg_text\nOpen file\tOuvrir fichier\nopen file!\tOuvrir  fichier.\n";
  CHECK(run(in, "dedup=exact").n.kept == 2);
  CHECK(run(in, "dedup=near").n.kept == 1);
}

TEST_CASE("clean run: with a score, near dedup keeps the best-scored variant, kept rows in input order") {
  const BangEncoder enc;
  const std::string in =
      "src_text\ttrg_text\nOpen file\tOuvrir fichier!!\nClose\tFermer!\nopen file\tOuvrir fichier\n"
      "Open file.\tOuvrir fichier!\nclose!\tFermer!\nSave\tEnregistrer\n";
  Run r = run(in, "dedup=near", false, false, 1, 1 << 20, nullptr, &enc);
  // The third row (cosine 1) beats the first (0.83) and the fourth (0.96);
  // the two Close rows score the same, so the first is kept.
  CHECK(r.out ==
        "src_text\ttrg_text\tcos_score\tclean_score\nClose\tFermer!\t0.9553\t0.9553\n"
        "open file\tOuvrir fichier\t1.0000\t1.0000\nSave\tEnregistrer\t1.0000\t1.0000\n");
  CHECK(r.rejected ==
        "src_text\ttrg_text\tcos_score\tclean_score\tclean_reason\nOpen file\tOuvrir fichier!!\t0.8253\t0.8253\tdedup\n"
        "Open file.\tOuvrir fichier!\t0.9553\t0.9553\tdedup\nclose!\tFermer!\t0.9553\t0.9553\tdedup\n");
  CHECK(r.n.kept == 3);
  CHECK(r.n.rejected == std::vector<uint64_t>{3});
  // Annotated: every row in input order, each with its own reason.
  Run a = run(in, "dedup=near", true, false, 1, 1 << 20, nullptr, &enc);
  CHECK(a.out.find("Ouvrir fichier!!\t0.8253\t0.8253\tdedup\nClose\tFermer!\t0.9553\t0.9553\tkeep\n"
                   "open file\tOuvrir fichier\t1.0000\t1.0000\tkeep\n") != std::string::npos);
  // Without a score the first variant stays.
  CHECK(run(in, "dedup=near").out == "src_text\ttrg_text\nOpen file\tOuvrir fichier!!\nClose\tFermer!\nSave\tEnregistrer\n");
}

TEST_CASE("clean run: best-variant near dedup with limits is byte-identical for 1 and 4 threads") {
  const BangEncoder enc;
  std::string in = "src_text\ttrg_text\n";
  for (int i = 0; i < 2000; ++i)
    in += "Item " + std::to_string(i % 300) + "\tArticle " + std::to_string(i % 300) +
          std::string(static_cast<size_t>(4 - i / 300 % 5), '!') + "\n";
  const std::string chain = "same,dedup=near,maxsrc=2";
  Run a = run(in, chain, true, false, 1, 256, nullptr, &enc), b = run(in, chain, true, false, 4, 256, nullptr, &enc);
  CHECK(a.out == b.out);
  CHECK(a.rejected == b.rejected);
  CHECK(a.n.kept == 300);
  // Each item's kept variant is its fifth, the one with no '!' (cosine 1).
  CHECK(a.out.find("Item 7\tArticle 7\t1.0000\t1.0000\tkeep\n") != std::string::npos);
  CHECK(a.out.find("Item 7\tArticle 7!!!!\t0.3624\t0.3624\tdedup\n") != std::string::npos);
}

TEST_CASE("clean run: one source to many targets and many sources to one target are limited") {
  const std::string in = "src_text\ttrg_text\nA\tx1\nA\tx2\nA\tx3\nb1\tY\nb2\tY\n";
  Run r = run(in, "maxtrg=2,maxsrc=1");
  CHECK(r.out == "src_text\ttrg_text\nA\tx1\nA\tx2\nb1\tY\n");
  CHECK(r.n.rejected == std::vector<uint64_t>{1, 1});
}

TEST_CASE("clean run: fixers change the output text and are counted") {
  Run r = run("src_text\ttrg_text\nfish &amp; chips\tpoisson  frites \n", "fix=all");
  CHECK(r.out == "src_text\ttrg_text\nfish & chips\tpoisson frites\n");
  CHECK(r.n.fixed == 1);
}

TEST_CASE("clean run: a row with the wrong column count stops the run at its line, or is counted with skip_bad") {
  const std::string in = "src_text\ttrg_text\nOne\tUn\nbroken row\nTwo\tDeux\n";
  try {
    run(in, "same");
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(std::string(e.what()).find("column") != std::string::npos);
    CHECK(e.format("pc-clean").find(":3:") != std::string::npos);
  }
  Run r = run(in, "same", false, true);
  CHECK(r.out == "src_text\ttrg_text\nOne\tUn\nTwo\tDeux\n");
  CHECK(r.n.skipped_bad == 1);
}

TEST_CASE("clean run: empty input gives empty output and zero counts") {
  Run r = run("", "same,dedup=exact", true);
  CHECK(r.out.empty());
  CHECK(r.rejected.empty());
  CHECK(r.n.rows == 0);
  CHECK(r.n.rejected == std::vector<uint64_t>{0, 0});
}

TEST_CASE("clean run: output is byte-identical for 1 and 4 threads with small batches") {
  std::string in = "src_text\ttrg_text\n";
  for (int i = 0; i < 3000; ++i)
    in += "Message number " + std::to_string(i % 700) + "\tMessage num\xc3\xa9ro " + std::to_string(i % 700) +
          (i % 13 == 0 ? "!!" : "") + "\n";
  const std::string chain = "fix=all,same,numbers,dedup=near,maxsrc=2";
  Run a = run(in, chain, true, false, 1, 256), b = run(in, chain, true, false, 4, 256);
  CHECK(a.out == b.out);
  CHECK(a.n.kept == b.n.kept);
  CHECK(a.n.kept == 700);
}

TEST_CASE("clean run: the multi-way signal counts the languages a source is aligned to") {
  TmpDir d;
  write_file(d.path("de.tsv"), "src_text\ttrg_text\nOpen file\tDatei \xc3\xb6" "ffnen\nClose\tSchlie\xc3\x9f" "en\n");
  write_file(d.path("es.tsv"), "src_text\ttrg_text\nopen file!\tAbrir archivo\n");
  const filter::MultiwayIndex m = filter::MultiwayIndex::build({d.path("de.tsv"), d.path("es.tsv")});
  CHECK(m.languages("Open file") == 3);
  CHECK(m.languages("Close") == 2);
  CHECK(m.languages("Save") == 1);
  Run r = run("src_text\ttrg_text\nOpen file\tOuvrir\nClose\tFermer\n", "multiway=3", true, false, 1, 1 << 20, &m);
  CHECK(r.out == "src_text\ttrg_text\tmultiway_score\tclean_reason\nOpen file\tOuvrir\t3\tmultiway\nClose\tFermer\t2\tkeep\n");
  CHECK_THROWS_AS(run("a\tb\n", "multiway=2"), corpus::ConfigError);
}

TEST_CASE("clean run: nmt_score is the translation model's per-token probability, and nmt>=T rejects below it") {
  const LengthJudge judge;
  const std::string in = "src_text\ttrg_text\nabcd\tabcd\nabcd\tab\n";
  Run r = run(in, "nmt>=0.5", true, false, 1, 1 << 20, nullptr, nullptr, &judge);
  CHECK(r.out == "src_text\ttrg_text\tnmt_score\tclean_reason\nabcd\tabcd\t1.0000\tkeep\nabcd\tab\t0.3333\tnmt\n");
  CHECK(r.n.kept == 1);
  // The score alone (no rule) annotates and rejects nothing; clean_score needs IBM1 or an encoder.
  r = run(in, "len=1:100", false, false, 1, 1 << 20, nullptr, nullptr, &judge);
  CHECK(r.out == "src_text\ttrg_text\tnmt_score\nabcd\tabcd\t1.0000\nabcd\tab\t0.3333\n");
  CHECK_THROWS_AS(run("a\tb\n", "nmt>=0.1"), corpus::ConfigError);
  const filter::Chain c = filter::Chain::parse("len=1:200,nmt>=0.05");
  CHECK(c.spec() == "len=1:200,nmt>=0.05");
  CHECK(c.rules.back().name() == "nmt");
  CHECK_THROWS_AS(filter::Chain::parse("nmt>=x"), corpus::ConfigError);
}
