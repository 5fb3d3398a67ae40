// Placeholder quotas (mt/decode/placeholder_quota.h): a symbol the source
// lacks or has used up is never written, EOS waits until every symbol of the
// source is out, an output the length limit cuts still holds them, and
// greedy, beam and every parallel mode keep the quota, the parallel modes
// still token for token greedy's output.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "mt/decode/beam.h"
#include "mt/decode/greedy.h"
#include "mt/decode/parallel.h"
#include "mt/decode/placeholder_quota.h"
#include "support/reverse_model.h"

using namespace mt;

namespace {

constexpr size_t kRoomy = 100;  // an output limit far from the prefixes below

int count(const std::vector<int32_t>& v, int32_t t) { return static_cast<int>(std::count(v.begin(), v.end(), t)); }

// Ten logits of 1 with token 6 the best (EOS is not).
std::vector<float> fresh() {
  std::vector<float> row(10, 1.0f);
  row[6] = 3.0f;
  return row;
}

}  // namespace

TEST_CASE("a quota masks spent and foreign symbols, and EOS while a symbol is owed") {
  // Symbols: source ids 3 and 4, target ids 7 and 8; EOS 2; V = 10.
  const PlaceholderQuota q({3, 4}, {7, 8}, 2, 10);
  const std::vector<int> d = q.demand({5, 3, 6, 3});
  CHECK(d == std::vector<int>{2, 0});
  std::vector<float> row = fresh();
  q.mask(d, nullptr, 0, kRoomy, row.data());
  CHECK(row[7] == 1.0f);       // owed twice
  CHECK(std::isinf(row[8]));   // not in the source
  CHECK(std::isinf(row[2]));   // EOS waits
  CHECK(row[5] == 1.0f);       // other tokens are free
  const std::vector<int32_t> once = {7};
  row = fresh();
  q.mask(d, once.data(), once.size(), kRoomy, row.data());
  CHECK(row[7] == 1.0f);
  CHECK(std::isinf(row[2]));
  const std::vector<int32_t> twice = {7, 5, 7};
  row = fresh();
  q.mask(d, twice.data(), twice.size(), kRoomy, row.data());
  CHECK(std::isinf(row[7]));   // spent
  CHECK(row[2] == 1.0f);       // nothing owed: EOS is free
  // Where EOS is the row's best and a symbol is owed, only owed symbols stay.
  row = fresh();
  row[2] = 5.0f;
  q.mask(d, once.data(), once.size(), kRoomy, row.data());
  for (int v = 0; v < 10; ++v) CHECK(std::isinf(row[v]) == (v != 7));
  // A source with no symbol: every symbol masked, EOS free.
  const std::vector<int> none = q.demand({5, 6});
  row = fresh();
  q.mask(none, nullptr, 0, kRoomy, row.data());
  CHECK(std::isinf(row[7]));
  CHECK(std::isinf(row[8]));
  CHECK(row[2] == 1.0f);
}

TEST_CASE("a quota writes the owed symbols when the output limit leaves room for them only") {
  const PlaceholderQuota q({3, 4}, {7, 8}, 2, 10);
  const std::vector<int> d = q.demand({3, 4, 3});  // 7 twice, 8 once
  const std::vector<int32_t> prefix = {5, 7, 5};   // 7 once and 8 once owed
  // Limit 6: tokens 3, 4 and 5 are left, more than the 2 owed: free choice.
  std::vector<float> row = fresh();
  q.mask(d, prefix.data(), prefix.size(), 6, row.data());
  CHECK(row[6] == 3.0f);
  CHECK(row[7] == 1.0f);
  CHECK(row[8] == 1.0f);
  // Limit 5: tokens 3 and 4 left, 2 owed: only the owed symbols.
  for (size_t limit : {size_t{5}, size_t{4}}) {  // and past the room: still the owed ones
    CAPTURE(limit);
    row = fresh();
    q.mask(d, prefix.data(), prefix.size(), limit, row.data());
    for (int v = 0; v < 10; ++v) CHECK(std::isinf(row[v]) == (v != 7 && v != 8));
  }
  // Nothing owed: the limit changes nothing.
  const std::vector<int32_t> done = {7, 8, 7};
  row = fresh();
  q.mask(d, done.data(), done.size(), 4, row.data());
  CHECK(row[6] == 3.0f);
  CHECK(row[2] == 1.0f);
}

TEST_CASE("greedy, beam and the parallel modes keep the quota, and the parallel modes still give greedy's output") {
  const ModelFile& m = mt_test::reverse_model();
  const Config& cfg = m.config();
  const auto src = mt_test::reverse_task(60, 11).src;
  // Source token 5 asks for target token 9 once; token 9 of the source asks
  // for nothing, so the reverse model's copy of it is refused: the quota
  // changes what the model would write.
  const PlaceholderQuota quota({5}, {9}, cfg.eos_id, cfg.trg_vocab);
  DecodeOptions free_opt, opt;
  free_opt.batch_size = opt.batch_size = 1;
  opt.quota = &quota;
  const auto plain = greedy_translate(cfg, m.params(), src, free_opt);
  const auto greedy = greedy_translate(cfg, m.params(), src, opt);
  size_t changed = 0, cut = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    changed += plain[i] != greedy[i];
    // Sentences cut by the length limit keep the quota too.
    const int limit = output_limit(cfg, opt, static_cast<int>(src[i].size()) + 1);
    cut += static_cast<int>(greedy[i].size()) >= limit;
    CHECK(count(greedy[i], 9) == count(src[i], 5));
  }
  CHECK(changed > 0);
  MESSAGE(cut << " of " << src.size() << " outputs were cut by the length limit");
  for (DecodeMode mode : {DecodeMode::kJacobi, DecodeMode::kGsJacobi, DecodeMode::kHybrid})
    for (int b : {2, 4}) {
      CAPTURE(static_cast<int>(mode));
      CAPTURE(b);
      const auto out = parallel_translate(cfg, m.params(), src, opt, ParallelOptions{mode, b, DraftSource::kCopy});
      CHECK(out == greedy);
    }
  DecodeOptions batched = opt;
  batched.batch_size = 8;
  CHECK(greedy_translate(cfg, m.params(), src, batched) == greedy);
  const auto beams = beam_translate(cfg, m.params(), src, batched, BeamOptions{4, 1, LengthPenalty::kGnmt, 0.6});
  for (size_t i = 0; i < src.size(); ++i) {
    const Hypothesis& h = beams[i].front();
    CHECK(count(h.tokens, 9) == count(src[i], 5));
  }
}
