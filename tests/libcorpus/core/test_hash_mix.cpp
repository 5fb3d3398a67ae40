// The one mixing hash (libcorpus/core/hash_mix.h). Dropout masks, weight
// initialisation, shuffles and bootstrap resamples all derive from it, so
// its numbers are pinned: a change would break resuming old checkpoints and
// repeating old bootstrap p-values.
#include <doctest/doctest.h>

#include <initializer_list>

#include "libcorpus/core/hash_mix.h"

TEST_CASE("hash_mix: splitmix64 gives the published stream for seed 0") {
  uint64_t state = 0;
  CHECK(corpus::splitmix64(state) == 0xe220a8397b1dcdafULL);
  CHECK(corpus::splitmix64(state) == 0x6e789e6aa1b965f4ULL);
  CHECK(corpus::splitmix64(state) == 0x06c45d188009454fULL);
  CHECK(state == 3 * corpus::kGoldenGamma);
}

TEST_CASE("hash_mix: mix64(x) is splitmix64's next output from state x") {
  CHECK(corpus::mix64(0) == 0xe220a8397b1dcdafULL);
  CHECK(corpus::mix64(1) == 0x910a2dec89025cc1ULL);
  CHECK(corpus::mix64(12345) == 0x22118258a9d111a0ULL);
  for (uint64_t x : {0ULL, 7ULL, 0xffffffffffffffffULL}) {
    uint64_t state = x;
    CHECK(corpus::splitmix64(state) == corpus::mix64(x));
  }
}
