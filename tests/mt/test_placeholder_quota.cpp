// Placeholder quotas (mt/decode/placeholder_quota.h): a symbol the source
// lacks or has used up is never written, EOS waits until every symbol of the
// source is out, and greedy, beam and every parallel mode keep the quota,
// the parallel modes still token for token greedy's output.
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
  q.mask(d, nullptr, 0, row.data());
  CHECK(row[7] == 1.0f);       // owed twice
  CHECK(std::isinf(row[8]));   // not in the source
  CHECK(std::isinf(row[2]));   // EOS waits
  CHECK(row[5] == 1.0f);       // other tokens are free
  const std::vector<int32_t> once = {7};
  row = fresh();
  q.mask(d, once.data(), once.size(), row.data());
  CHECK(row[7] == 1.0f);
  CHECK(std::isinf(row[2]));
  const std::vector<int32_t> twice = {7, 5, 7};
  row = fresh();
  q.mask(d, twice.data(), twice.size(), row.data());
  CHECK(std::isinf(row[7]));   // spent
  CHECK(row[2] == 1.0f);       // nothing owed: EOS is free
  // Where EOS is the row's best and a symbol is owed, only owed symbols stay.
  row = fresh();
  row[2] = 5.0f;
  q.mask(d, once.data(), once.size(), row.data());
  for (int v = 0; v < 10; ++v) CHECK(std::isinf(row[v]) == (v != 7));
  // A source with no symbol: every symbol masked, EOS free.
  const std::vector<int> none = q.demand({5, 6});
  row = fresh();
  q.mask(none, nullptr, 0, row.data());
  CHECK(std::isinf(row[7]));
  CHECK(std::isinf(row[8]));
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
  size_t changed = 0, checked = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    changed += plain[i] != greedy[i];
    const int limit = output_limit(cfg, opt, static_cast<int>(src[i].size()) + 1);
    if (static_cast<int>(greedy[i].size()) + 1 >= limit) continue;  // stopped by the length limit
    ++checked;
    CHECK(count(greedy[i], 9) == count(src[i], 5));
  }
  CHECK(changed > 0);
  CHECK(checked > src.size() / 2);
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
    if (h.eos) CHECK(count(h.tokens, 9) == count(src[i], 5));
  }
}
