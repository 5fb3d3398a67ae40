// pc-mine's library against the LASER-style NumPy + FAISS reference
// (tests/data/mine/make-fixtures.py wrote the fixtures), and its parts.
#include <doctest/doctest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "align/mine/faiss_index.h"
#include "align/mine/flat_both.h"
#include "align/mine/judge.h"
#include "align/mine/knn.h"
#include "align/mine/margin.h"
#include "align/mine/mine_run.h"
#include "align/mine/side.h"
#include "libcorpus/core/digit_runs.h"
#include "libcorpus/core/error.h"
#include "align/translation_scorer.h"

// Inside align::mine, so that its Side and mine() win over align::Side when
// CI compiles this file in one unity batch with files that use namespace align.
namespace align::mine {
namespace {

const std::string kDir = std::string(PARACORP_TEST_DATA) + "/mine/";

struct Row {
  std::string src, trg, src_id, trg_id;
  double score = 0;
};

std::vector<Row> parse(const std::string& tsv) {
  std::vector<Row> rows;
  std::istringstream in(tsv);
  std::string line;
  std::getline(in, line);
  REQUIRE(line == "src_text\ttrg_text\tmine_score\tsrc_id\ttrg_id");
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::istringstream ls(line);
    for (std::string x; std::getline(ls, x, '\t');) f.push_back(x);
    REQUIRE(f.size() == 5);
    rows.push_back({f[0], f[1], f[3], f[4], std::stod(f[2])});
  }
  return rows;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f.good());
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string run_mine(const Side& src, const Side& trg, const MineOptions& opt) {
  std::string out;
  mine(src, trg, opt, [&out](std::string_view s) { out.append(s); });
  return out;
}

void same_as_reference(const std::string& got, const std::string& expected_file) {
  const auto g = parse(got), e = parse(slurp(kDir + expected_file));
  REQUIRE(g.size() == e.size());
  for (size_t i = 0; i < g.size(); ++i) {
    CAPTURE(i);
    CHECK(g[i].src == e[i].src);
    CHECK(g[i].trg == e[i].trg);
    CHECK(g[i].src_id == e[i].src_id);
    CHECK(g[i].trg_id == e[i].trg_id);
    CHECK(std::abs(g[i].score - e[i].score) <= 1e-5);
  }
}

}  // namespace

TEST_CASE("mine: Flat equals the LASER-style reference for every margin and retrieval") {
  const Side src = read_side(kDir + "src.txt", kDir + "src.npy", {});
  const Side trg = read_side(kDir + "trg.txt", kDir + "trg.npy", {});
  for (const char* m : {"ratio", "distance", "absolute"})
    for (const char* r : {"max", "intersect", "fwd", "bwd"}) {
      CAPTURE(m);
      CAPTURE(r);
      MineOptions opt;
      opt.select = {parse_margin(m), parse_retrieval(r), std::nullopt};
      opt.index.factory = "Flat";
      opt.length_weight = 0;  // LASER has no length or number prior
      opt.number_weight = 0;
      same_as_reference(run_mine(src, trg, opt), std::string("expected-") + m + "-" + r + ".tsv");
    }
  MineOptions opt;
  opt.select.threshold = 1.1;
  opt.length_weight = 0;
  opt.number_weight = 0;
  same_as_reference(run_mine(src, trg, opt), "expected-ratio-max-1.1.tsv");
}

TEST_CASE("mine: blank lines take no part, repeated sentences are searched once under their first line") {
  const Side s = read_side(kDir + "src.txt", kDir + "src.npy", {});
  CHECK(s.lines_read == 61);
  CHECK(s.empty == 1);
  CHECK(s.duplicates == 1);
  CHECK(s.rows() == 59);
  CHECK(s.lines[0] == 1);
  for (uint64_t i = 0; i < s.rows(); ++i) {
    double n = 0;
    for (float x : s.row(i)) n += double{x} * x;
    CHECK(std::abs(n - 1) < 1e-6);
  }
}

TEST_CASE("mine: a pair of identical sentences is dropped and does not take its sentences") {
  const Side src = read_side(kDir + "src.txt", kDir + "src.npy", {});
  const Side trg = read_side(kDir + "trg.txt", kDir + "trg.npy", {});
  const auto rows = parse(run_mine(src, trg, {}));
  for (const auto& r : rows) CHECK(r.src != r.trg);
}

TEST_CASE("mine: shards' merged lists equal one index's") {
  const Side src = read_side(kDir + "src.txt", kDir + "src.npy", {});
  const Side trg = read_side(kDir + "trg.txt", kDir + "trg.npy", {});
  IndexOptions io;
  io.factory = "Flat";
  const KnnLists one = search_single(src, trg, 4, io, nullptr);
  char dir[] = "/tmp/test_mine.XXXXXX";
  REQUIRE(mkdtemp(dir));
  const std::string prefix = std::string(dir) + "/trg";
  const IndexCounts n = build_shards(trg, 3, std::nullopt, io, prefix);
  REQUIRE(n.files.size() == 3);
  std::vector<KnnLists> parts;
  for (const auto& f : n.files) {
    write_knn(f + ".knn", search_shard(src, f, 4, io));
    parts.push_back(read_knn(f + ".knn"));
  }
  const KnnLists merged = rerank(concat(parts, n.files), src.vectors, trg.vectors, trg.dim, 4);
  CHECK(merged.ids == one.ids);
  CHECK(merged.sims == one.sims);
  for (const auto& f : n.files) {
    unlink(f.c_str());
    unlink((f + ".knn").c_str());
  }
  unlink((prefix + ".trained.idx").c_str());
  rmdir(dir);
}

TEST_CASE("mine: rerank recomputes cosines, drops repeated ids and orders by cosine then id") {
  const std::vector<float> q = {1, 0};
  const std::vector<float> b = {0, 1, 0.6f, 0.8f, 0.6f, 0.8f, 1, 0};
  KnnLists l;
  l.queries = 1;
  l.k = 5;
  l.indexed = 4;
  l.ids = {0, 2, 1, 3, 2};
  l.sims = {9, 9, 9, 9, 9};
  const KnnLists r = rerank(l, q, b, 2, 3);
  CHECK(r.ids == std::vector<int64_t>{3, 1, 2});
  CHECK(r.sims[0] == doctest::Approx(1.0));
  CHECK(r.sims[1] == doctest::Approx(0.6));
}

TEST_CASE("mine: the default index grows with the collection") {
  CHECK(default_factory(5000, 256) == "Flat");
  CHECK(default_factory(100000, 256) == "IVF1024,Flat");
  CHECK(default_factory(10000000, 256) == "OPQ64,IVF65536,PQ64");
  CHECK(default_factory(10000000, 24) == "OPQ24,IVF65536,PQ24");
}

TEST_CASE("mine: the training sample is seeded, sorted and of the asked size") {
  const auto a = training_rows(1000, 100, 7), b = training_rows(1000, 100, 7), c = training_rows(1000, 100, 8);
  CHECK(a.size() == 100);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(std::is_sorted(a.begin(), a.end()));
  CHECK(training_rows(50, 100, 7).size() == 50);
}

TEST_CASE("mine: a factory string FAISS refuses is a ConfigError") {
  IndexOptions io;
  CHECK_THROWS_AS(VectorIndex(16, "NoSuchIndex42", io), corpus::ConfigError);
}

TEST_CASE("mine: a truncated top-k list is an Error naming the file") {
  KnnLists l;
  l.queries = 2;
  l.k = 2;
  l.indexed = 3;
  l.ids = {0, 1, 2, -1};
  l.sims = {1, 0.5f, 0.2f, 0};
  char dir[] = "/tmp/test_mine.XXXXXX";
  REQUIRE(mkdtemp(dir));
  const std::string p = std::string(dir) + "/l.knn";
  write_knn(p, l);
  const KnnLists back = read_knn(p);
  CHECK(back.ids == l.ids);
  CHECK(back.sims == l.sims);
  REQUIRE(truncate(p.c_str(), 40) == 0);
  CHECK_THROWS_WITH_AS(read_knn(p), doctest::Contains("truncated"), corpus::Error);
  unlink(p.c_str());
  rmdir(dir);
}

TEST_CASE("mine: one product for both directions gives FAISS Flat's lists") {
  const Side src = read_side(kDir + "src.txt", kDir + "src.npy", {});
  const Side trg = read_side(kDir + "trg.txt", kDir + "trg.npy", {});
  IndexOptions io;
  io.factory = "Flat";
  for (uint32_t k : {1u, 4u, 16u}) {
    CAPTURE(k);
    const auto both = flat_knn_both(src, trg, k, k);
    CHECK(rerank(both.first, src.vectors, trg.vectors, trg.dim, k).ids == search_single(src, trg, k, io, nullptr).ids);
    CHECK(rerank(both.second, trg.vectors, src.vectors, src.dim, k).ids == search_single(trg, src, k, io, nullptr).ids);
  }
}


TEST_CASE("mine: the length prior takes the candidate of the typical length ratio and lowers every score") {
  // Source 0 has two candidates of equal cosine: target 0 of its length, and
  // target 1, three times as long. Without the prior the first listed wins.
  KnnLists fwd{1, 2, 2, {1, 0}, {0.8f, 0.8f}}, bwd{2, 1, 1, {0, 0}, {0.8f, 0.8f}};
  SelectOptions opt;
  opt.retrieval = Retrieval::kFwd;
  const auto none = select_pairs(fwd, bwd, opt, {}, nullptr);
  REQUIRE(none.size() == 1);
  CHECK(none[0].trg == 1);
  const std::vector<uint32_t> sl{10}, tl{10, 30};
  const PairPrior prior{0.5, 0.0, &sl, &tl};
  CHECK(prior.factor(0, 0) == doctest::Approx(1.0));
  CHECK(prior.factor(0, 1) == doctest::Approx(std::exp(-0.5 * std::log(35.0 / 15.0))));
  const auto with = select_pairs(fwd, bwd, opt, {}, nullptr, prior);
  REQUIRE(with.size() == 1);
  CHECK(with[0].trg == 0);
  CHECK(with[0].score == doctest::Approx(none[0].score));  // factor 1 for the typical ratio
  // mu moves the typical ratio: with mu = log(35/15) target 1 is the typical one.
  const PairPrior longer{0.5, std::log(35.0 / 15.0), &sl, &tl};
  CHECK(select_pairs(fwd, bwd, opt, {}, nullptr, longer)[0].trg == 1);
  // A negative score goes down too.
  CHECK(scaled(-1.0, 0.5) == -2.0);
  CHECK(scaled(1.0, 0.5) == 0.5);
}

TEST_CASE("mine: the number prior lowers candidates whose digit runs differ, and only those") {
  // Source 0 ("IPv4 multicast") has two candidates of equal cosine: target 0
  // ("IPv6 Multicast") first, target 1 ("IPv4 Multicast") second.
  KnnLists fwd{1, 2, 2, {0, 1}, {0.8f, 0.8f}}, bwd{2, 1, 1, {0, 0}, {0.8f, 0.8f}};
  SelectOptions opt;
  opt.retrieval = Retrieval::kFwd;
  const auto none = select_pairs(fwd, bwd, opt, {}, nullptr);
  REQUIRE(none.size() == 1);
  CHECK(none[0].trg == 0);
  const std::vector<uint64_t> sn{corpus::digit_runs_key("IPv4 multicast")},
      tn{corpus::digit_runs_key("IPv6 Multicast"), corpus::digit_runs_key("IPv4 Multicast")};
  PairPrior prior;
  prior.number_weight = 0.3;
  prior.src_numbers = &sn;
  prior.trg_numbers = &tn;
  CHECK(prior.active());
  CHECK(prior.factor(0, 0) == doctest::Approx(std::exp(-0.3)));
  CHECK(prior.factor(0, 1) == 1.0);
  const auto with = select_pairs(fwd, bwd, opt, {}, nullptr, prior);
  REQUIRE(with.size() == 1);
  CHECK(with[0].trg == 1);
  CHECK(with[0].score == doctest::Approx(none[0].score));
  // With both parts the factors multiply.
  const std::vector<uint32_t> sl{10}, tl{10, 30};
  prior.length_weight = 0.5;
  prior.src_len = &sl;
  prior.trg_len = &tl;
  CHECK(prior.factor(0, 0) == doctest::Approx(std::exp(-0.3)));
  CHECK(prior.factor(0, 1) == doctest::Approx(std::exp(-0.5 * std::log(35.0 / 15.0))));
}

namespace {
// A stand-in translation model: "ouvrir fichier" is a likely translation
// (log p -0.5 a token), an empty target has no tokens, anything else -3.
struct StubJudge : TranslationScorer {
  mutable std::atomic<int> calls{0};
  Score score(std::string_view, std::string_view t) const override {
    ++calls;
    if (t.empty()) return {};
    return t == "ouvrir fichier" ? Score{-1.5, 3} : Score{-9.0, 3};
  }
  std::string describe() const override { return "stub"; }
};
}  // namespace

TEST_CASE("mine: the translation judge scores each listed pair once and takes the candidate it prefers") {
  // Source 0 has two candidates of equal cosine, target 0 listed first.
  Side src, trg;
  src.texts = {"open file"};
  trg.texts = {"fichier ferme", "ouvrir fichier", ""};
  KnnLists fwd{1, 3, 3, {0, 1, 2}, {0.8f, 0.8f, 0.7f}}, bwd{3, 1, 1, {0, 0, 0}, {0.8f, 0.8f, 0.7f}};
  const StubJudge j;
  const JudgeTable t = judge_candidates(j, src, trg, fwd, bwd);
  CHECK(j.calls == 3);  // (0,0), (0,1), (0,2): the backward lists hold the same pairs
  CHECK(t.log_p_of(0, 0) == doctest::Approx(-3.0));
  CHECK(t.log_p_of(0, 1) == doctest::Approx(-0.5));
  CHECK(t.log_p_of(0, 2) == JudgeTable::kFloor);  // no tokens: the floor
  CHECK(t.log_p_of(7, 7) == 0.0);                  // not listed: no judgement
  CHECK(judge_scale(-0.5) == doctest::Approx(0.95));
  CHECK(judge_scale(-3.0) == doctest::Approx(0.7));
  CHECK(judge_scale(JudgeTable::kFloor) == 0.0);
  SelectOptions opt;
  opt.retrieval = Retrieval::kFwd;
  REQUIRE(select_pairs(fwd, bwd, opt, {}, nullptr).at(0).trg == 0);
  fwd = apply_judge(fwd, t, 0.5, true);
  bwd = apply_judge(bwd, t, 0.5, false);
  // The list is sorted again: target 1 (0.5 * 0.8 + 0.5 * 0.95) first.
  CHECK(fwd.id(0, 0) == 1);
  CHECK(fwd.sim(0, 0) == doctest::Approx(0.875));
  CHECK(fwd.id(0, 1) == 0);
  CHECK(fwd.sim(0, 1) == doctest::Approx(0.75));
  CHECK(fwd.id(0, 2) == 2);
  CHECK(fwd.sim(0, 2) == doctest::Approx(0.35));
  CHECK(bwd.sim(1, 0) == doctest::Approx(0.875));  // target 1's list: source 0
  const auto with = select_pairs(fwd, bwd, opt, {}, nullptr);
  REQUIRE(with.size() == 1);
  CHECK(with[0].trg == 1);
}

TEST_CASE("digit runs: sorted runs of ASCII digits, and a key that is 0 only without digits") {
  std::vector<std::string_view> runs;
  corpus::digit_runs("v1.2, 30% of 007", runs);
  CHECK(runs == std::vector<std::string_view>{"007", "1", "2", "30"});
  CHECK(corpus::digit_runs_key("no digits here") == 0);
  CHECK(corpus::digit_runs_key("") == 0);
  CHECK(corpus::digit_runs_key("١٢٣ Arabic-Indic digits are not ASCII") == 0);
  CHECK(corpus::digit_runs_key("page 2 of 10") == corpus::digit_runs_key("10 Seiten, Seite 2"));
  CHECK(corpus::digit_runs_key("page 2 of 10") != corpus::digit_runs_key("page 2 of 1"));
  CHECK(corpus::digit_runs_key("12") != corpus::digit_runs_key("1 2"));
  CHECK(corpus::digit_runs_key("1") != 0);
}

}  // namespace align::mine
