// The sentence aligner (align/sentalign/) on synthetic documents whose
// alignment is known: every source sentence is a random "meaning" vector, its
// translation the same vector plus noise, a deleted sentence has a meaning of
// its own, and a merged sentence is the sum of its parts' meanings (as the
// embedding of a concatenation is, roughly). The overlap vectors are built
// the same way, so the aligner must recover the edits exactly.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "align/sentalign/beads.h"
#include "align/sentalign/gale_church.h"
#include "align/sentalign/vecalign.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/hash_mix.h"

using namespace align::sentalign;

namespace {

constexpr uint32_t kDim = 128;  // random meanings nearly orthogonal, as real sentences are

struct Gen {
  uint64_t state;
  double uniform() { return (static_cast<double>(corpus::splitmix64(state) >> 11) + 0.5) / 9007199254740992.0; }
  double normal() { return std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform()); }
  std::vector<float> vec(uint32_t d = kDim) {
    std::vector<float> v(d);
    for (float& x : v) x = static_cast<float>(normal());
    return v;
  }
};

// A side: each sentence is a list of meaning ids.
using Side = std::vector<std::vector<int>>;

OverlapVectors from_sentences(const std::vector<std::vector<float>>& sent, int layers);

OverlapVectors overlaps(const Side& side, const std::vector<std::vector<float>>& meaning, double noise, Gen& g,
                        int layers = 3) {
  std::vector<std::vector<float>> sent;
  for (const auto& ids : side) {
    std::vector<float> v(kDim, 0);
    for (int id : ids)
      for (uint32_t d = 0; d < kDim; ++d) v[d] += meaning[id][d];
    const auto e = g.vec();
    for (uint32_t d = 0; d < kDim; ++d) v[d] += static_cast<float>(noise * e[d]);
    sent.push_back(v);
  }
  return from_sentences(sent, layers);
}

// The overlap vectors of sentences with the given vectors (runs summed).
OverlapVectors from_sentences(const std::vector<std::vector<float>>& sent, int layers) {
  const auto n = static_cast<uint32_t>(sent.size());
  std::vector<float> data(uint64_t{n} * layers * kDim, 0.0f);
  for (int k = 0; k < layers; ++k)
    for (uint32_t i = 0; i < n; ++i) {
      float* o = data.data() + (uint64_t{static_cast<uint32_t>(k)} * n + i) * kDim;
      for (uint32_t j = (i >= static_cast<uint32_t>(k) ? i - k : 0); j <= i; ++j)
        for (uint32_t d = 0; d < kDim; ++d) o[d] += sent[j][d];
      double s = 0;
      for (uint32_t d = 0; d < kDim; ++d) s += double{o[d]} * o[d];
      for (uint32_t d = 0; d < kDim; ++d) o[d] = static_cast<float>(o[d] / std::sqrt(s));
    }
  return OverlapVectors::from_rows(n, kDim, layers, std::move(data));
}

// A document pair of `n` meanings with edits every few sentences: a source
// deletion, a target deletion, a 2-1 and a 1-2 merge, cycling.
struct Doc {
  Side src, trg;
  std::vector<Bead> gold;
};

Doc make_doc(int n, int edit_every, Gen& g, std::vector<std::vector<float>>& meaning) {
  Doc d;
  int next = 0;
  const auto fresh = [&] {
    meaning.push_back(g.vec());
    return next++;
  };
  for (int i = 0, e = 0; i < n; ++i) {
    const auto sb = static_cast<uint32_t>(d.src.size()), tb = static_cast<uint32_t>(d.trg.size());
    const int kind = edit_every && i % edit_every == edit_every - 1 ? e++ % 4 : -1;
    if (kind == 0) {  // source sentence without translation
      d.src.push_back({fresh()});
      d.gold.push_back({sb, 1, tb, 0, 0});
    } else if (kind == 1) {  // target sentence without source
      d.trg.push_back({fresh()});
      d.gold.push_back({sb, 0, tb, 1, 0});
    } else if (kind == 2) {  // two source sentences, one target
      const int a = fresh(), b = fresh();
      d.src.push_back({a});
      d.src.push_back({b});
      d.trg.push_back({a, b});
      d.gold.push_back({sb, 2, tb, 1, 0});
    } else if (kind == 3) {  // one source sentence, two target
      const int a = fresh(), b = fresh();
      d.src.push_back({a, b});
      d.trg.push_back({a});
      d.trg.push_back({b});
      d.gold.push_back({sb, 1, tb, 2, 0});
    } else {
      const int a = fresh();
      d.src.push_back({a});
      d.trg.push_back({a});
      d.gold.push_back({sb, 1, tb, 1, 0});
    }
  }
  return d;
}

// How many beads of `got` are not in `want` (0: the same alignment).
size_t wrong(const std::vector<Bead>& got, const std::vector<Bead>& want) {
  size_t w = 0;
  for (const Bead& b : got) w += std::find(want.begin(), want.end(), b) == want.end();
  return w + (got.size() != want.size());
}

std::string show(const std::vector<Bead>& beads) {
  std::string s;
  for (const Bead& b : beads) s += std::to_string(b.sb) + "+" + std::to_string(b.sl) + ":" + std::to_string(b.tb) +
                                   "+" + std::to_string(b.tl) + " ";
  return s;
}

std::vector<Bead> align_doc(const Doc& d, Gen& g, const std::vector<std::vector<float>>& meaning,
                            VecalignOptions opt = {}, double noise = 0.3) {
  const OverlapVectors s = overlaps(d.src, meaning, noise, g), t = overlaps(d.trg, meaning, noise, g);
  return align_vectors(s, t, opt).beads;
}

}  // namespace

TEST_CASE("sentalign: bead types are Vecalign's for a maximum bead size") {
  const std::vector<BeadType> want{{1, 1}, {1, 2}, {1, 3}, {2, 1}, {2, 2}, {3, 1}, {1, 0}, {0, 1}};
  CHECK(bead_types(4) == want);
  CHECK(bead_types(2) == std::vector<BeadType>{{1, 1}, {1, 0}, {0, 1}});
}

TEST_CASE("sentalign: the band DP finds the cheapest path on hand-set costs") {
  // 3 × 2: matching (0,0) and (2,1) is cheap, everything else dear; source 1
  // must be deleted.
  const auto cost = [](int dx, int dy, uint32_t x, uint32_t y) {
    if (dx == 0 || dy == 0) return 1.0;
    if (dx == 1 && dy == 1 && ((x == 1 && y == 1) || (x == 3 && y == 2))) return 0.1;
    return 5.0;
  };
  const auto beads = band_dp(3, 2, Band::full(3, 2), bead_types(4), cost);
  CHECK(show(beads) == "0+1:0+1 1+1:1+0 2+1:1+1 ");
  CHECK(beads[1].cost == doctest::Approx(1.0));
}

TEST_CASE("sentalign: a band around a path holds the path and reaches the corner") {
  const std::vector<Bead> beads{{0, 1, 0, 1, 0}, {1, 1, 1, 0, 0}, {2, 2, 1, 1, 0}};
  const Band b = Band::around(beads, 6, 4, 1);
  REQUIRE(b.lo.size() == 7);
  CHECK(b.lo[0] == 0);
  CHECK(b.hi[6] == 5);  // (6, 4) is in the band
  for (uint32_t x = 0; x <= 6; ++x) CHECK(b.lo[x] < b.hi[x]);
  CHECK(b.cells() < 7 * 5);
  // Doubling keeps matches whole and splits deletions into single sentences.
  const auto up = upsample(beads);
  CHECK(show(up) == "0+2:0+2 2+1:2+0 3+1:2+0 4+4:2+2 ");
}

TEST_CASE("sentalign: one-to-one documents align one to one") {
  Gen g{11};
  std::vector<std::vector<float>> meaning;
  const Doc d = make_doc(30, 0, g, meaning);
  CHECK(wrong(align_doc(d, g, meaning), d.gold) == 0);
}

TEST_CASE("sentalign: deletions, 2-1 and 1-2 merges are recovered") {
  Gen g{12};
  std::vector<std::vector<float>> meaning;
  const Doc d = make_doc(60, 5, g, meaning);  // 12 edits: 3 of each kind
  const OverlapVectors s = overlaps(d.src, meaning, 0.3, g), t = overlaps(d.trg, meaning, 0.3, g);
  const auto a = align_vectors(s, t, {});
  CHECK(wrong(a.beads, d.gold) == 0);
}

TEST_CASE("sentalign: the recursion finds the same alignment in a band as the full DP") {
  Gen g{13};
  std::vector<std::vector<float>> meaning;
  const Doc d = make_doc(500, 7, g, meaning);
  const OverlapVectors s = overlaps(d.src, meaning, 0.3, g), t = overlaps(d.trg, meaning, 0.3, g);
  VecalignOptions full, banded;
  // A fixed penalty: this case is about the search, not the calibration.
  full.deletion = banded.deletion = DeletionPenalty::parse("fixed:0.35");
  full.recursion.max_full_dp = 1000;  // about 500 × 500: one full DP
  banded.recursion.max_full_dp = 40;  // four halvings, then bands
  const auto a = align_vectors(s, t, full).beads, b = align_vectors(s, t, banded).beads;
  CHECK(wrong(a, d.gold) == 0);
  CHECK(wrong(b, d.gold) == 0);
}

// Twelve translated sentences; with `faint`, an untranslated source sentence
// before the fourth whose vector barely registers in a concatenation (a
// sentence of unknown words, say), as long as its neighbours.
struct FaintDoc {
  OverlapVectors s, t;
  std::vector<uint32_t> ls, lt;
};

FaintDoc faint_doc() {
  Gen g{18};
  std::vector<std::vector<float>> src, trg;
  FaintDoc d;
  for (int i = 0; i < 12; ++i) {
    const auto m = g.vec();
    if (i == 3) {
      auto faint = g.vec();
      for (float& x : faint) x *= 0.15f;
      src.push_back(faint);
      d.ls.push_back(60);
    }
    src.push_back(m);
    d.ls.push_back(60);
    auto t = m;
    const auto e = g.vec();
    for (uint32_t k = 0; k < kDim; ++k) t[k] += 0.3f * e[k];
    trg.push_back(t);
    d.lt.push_back(66);
  }
  d.s = from_sentences(src, 3);
  d.t = from_sentences(trg, 3);
  return d;
}

TEST_CASE("sentalign: a merge must match better than its parts, so a faint untranslated sentence is deleted") {
  // Merging source 3 into source 2's bead costs about twice the 1-1 bead
  // (Vecalign's dx·dy factor), less than the 1-1 bead plus a deletion: the
  // search without the merge check absorbs it. The merged bead matches no
  // better per sentence pair than 2-2 alone, so the check refuses it.
  const FaintDoc d = faint_doc();
  VecalignOptions vecalign, checked;
  vecalign.merge_ratio = 0;
  CHECK(show(align_vectors(d.s, d.t, vecalign).beads).find("2+2:2+1") != std::string::npos);  // merged: wrong
  CHECK(show(align_vectors(d.s, d.t, checked).beads).find("3+1:3+0") != std::string::npos);   // deleted: right
}

TEST_CASE("sentalign: the length term keeps a faint untranslated sentence out of a merge") {
  // The same document, without the merge check: the sentence is as long as
  // its neighbours, which the merged bead's length ratio shows.
  FaintDoc d = faint_doc();
  OverlapVectors& s = d.s;
  OverlapVectors& t = d.t;
  const std::vector<uint32_t>& ls = d.ls;
  const std::vector<uint32_t>& lt = d.lt;
  VecalignOptions without, with;
  without.merge_ratio = with.merge_ratio = 0;
  without.length_weight = 0;
  const auto a = align_vectors(s, t, without).beads;
  CHECK(show(a).find("2+2:2+1") != std::string::npos);  // merged: wrong
  s.lengths = ls;
  t.lengths = lt;
  const auto b = align_vectors(s, t, with).beads;
  CHECK(show(b).find("3+1:3+0") != std::string::npos);  // deleted: right
}

TEST_CASE("sentalign: the calibrated penalty follows the encoder's quality, a fixed one does not") {
  // The same 200-bead document with 40 edits seen through a good encoder
  // (translations close to their source) and a poor one (noisy). fixed:0.2
  // is right for the good one and turns most true pairs of the poor one into
  // deletions; in Vecalign's search (no merge check) Vecalign's
  // percentile:0.2 merges untranslated sentences into neighbours with both,
  // which the merge check prevents; the calibrated penalty gets both
  // (nearly) right either way.
  std::vector<std::vector<float>> meaning;
  Gen g{19};
  const Doc d = make_doc(200, 5, g, meaning);
  const auto errors = [&](const char* spec, double noise, double merge_ratio = 1.0) {
    VecalignOptions o;
    o.deletion = DeletionPenalty::parse(spec);
    o.merge_ratio = merge_ratio;
    Gen h{20};
    return wrong(align_doc(d, h, meaning, o, noise), d.gold);
  };
  for (const double noise : {0.3, 0.8}) {
    CAPTURE(noise);
    CHECK(errors("auto", noise) <= 3);
    CHECK(errors("auto", noise, 0) <= 3);
    CHECK(errors("percentile:0.2", noise, 0) >= errors("auto", noise, 0) + 10);
    CHECK(errors("percentile:0.2", noise) <= 3);
  }
  CHECK(errors("fixed:0.2", 0.3) == 0);
  CHECK(errors("fixed:0.2", 0.8) > 50);
}

TEST_CASE("sentalign: the deletion penalty modes") {
  CHECK(DeletionPenalty::parse("auto").mode == DeletionMode::kAuto);
  const auto p = DeletionPenalty::parse("percentile:0.2");
  CHECK(p.mode == DeletionMode::kPercentile);
  CHECK(p.value == 0.2);
  CHECK(DeletionPenalty::parse("fixed:0.7").value == 0.7);
  for (const char* bad : {"percentile:2", "fixed:-1", "fixed:", "fixed:x", "often", "percentile:nan"})
    CHECK_THROWS_AS(DeletionPenalty::parse(bad), corpus::ConfigError);

  // A penalty of 0 makes every sentence a deletion; a huge one makes none.
  Gen g{14};
  std::vector<std::vector<float>> meaning;
  const Doc d = make_doc(20, 5, g, meaning);
  VecalignOptions zero, huge;
  zero.deletion = DeletionPenalty::parse("fixed:0");
  huge.deletion = DeletionPenalty::parse("fixed:100");
  for (const Bead& b : align_doc(d, g, meaning, zero)) CHECK((b.sl == 0 || b.tl == 0));
  for (const Bead& b : align_doc(d, g, meaning, huge)) CHECK((b.sl > 0 && b.tl > 0));
}

TEST_CASE("sentalign: an empty side gives deletions only, an empty pair nothing") {
  Gen g{15};
  std::vector<std::vector<float>> meaning;
  const Doc d = make_doc(5, 0, g, meaning);
  const OverlapVectors s = overlaps(d.src, meaning, 0.3, g);
  const OverlapVectors none = OverlapVectors::from_rows(0, kDim, 3, {});
  const auto a = align_vectors(s, none, {}).beads;
  CHECK(show(a) == "0+1:0+0 1+1:0+0 2+1:0+0 3+1:0+0 4+1:0+0 ");
  CHECK(align_vectors(none, none, {}).beads.empty());
}

TEST_CASE("sentalign: embedding counts that do not match the sentences are refused") {
  CHECK_THROWS_WITH_AS(OverlapVectors::from_rows(3, 4, 2, std::vector<float>(4 * 5)),
                       doctest::Contains("5 embeddings (of dimension 4) for 3 sentences"), corpus::Error);
  CHECK_THROWS_AS(OverlapVectors::from_rows(3, 4, 1, std::vector<float>(13)), corpus::Error);
  // Too few overlap layers for the bead size, and dimensions that differ.
  Gen g{16};
  std::vector<std::vector<float>> meaning;
  const Doc d = make_doc(6, 0, g, meaning);
  const OverlapVectors one = overlaps(d.src, meaning, 0.3, g, 1);
  CHECK_THROWS_AS(align_vectors(one, one, {}), corpus::ConfigError);
  const OverlapVectors other = OverlapVectors::from_rows(6, 8, 3, std::vector<float>(6 * 3 * 8, 0.1f));
  CHECK_THROWS_AS(align_vectors(overlaps(d.src, meaning, 0.3, g), other, {}), corpus::ConfigError);
}

TEST_CASE("sentalign: Gale-Church aligns by length, with merges") {
  // 2-1 (40+60 against 100), 1-2 (80 against 38+41), 1-1 otherwise.
  const std::vector<uint32_t> s{50, 40, 60, 120, 80, 70, 20}, t{52, 100, 118, 38, 41, 72, 21};
  const auto beads = align_lengths(s, t, {});
  CHECK(show(beads) == "0+1:0+1 1+2:1+1 3+1:2+1 4+1:3+2 5+1:5+1 6+1:6+1 ");
  const auto sc = length_scores(s, t, beads);
  CHECK(sc[0] > 0.5);

}

TEST_CASE("sentalign: Gale-Church over the recursion matches the full DP") {
  Gen g{17};
  std::vector<uint32_t> s, t;
  for (int i = 0; i < 800; ++i) {
    const auto l = static_cast<uint32_t>(20 + 100 * g.uniform());
    s.push_back(l);
    t.push_back(static_cast<uint32_t>(l * 1.1 + 5 * g.normal() + 3));
    if (i % 50 == 25) s.push_back(static_cast<uint32_t>(30 + 50 * g.uniform()));  // source-only sentence
  }
  LengthOptions full, banded;
  full.recursion.max_full_dp = 1000;
  banded.recursion.max_full_dp = 60;
  CHECK(show(align_lengths(s, t, banded)) == show(align_lengths(s, t, full)));
}
