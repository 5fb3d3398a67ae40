// Weights packed for a decoding call (mt/tensor/packed_weights.h): only
// matrices inside the parameter buffer are packed, each once, and a linear
// layer run with the store gives the bits of the packed product
// (gemm_avx512_nt) for every row count, bias or not.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "libcorpus/linalg/gemm_avx512.h"
#include "mt/decode/beam.h"
#include "mt/decode/greedy.h"
#include "mt/decode/parallel.h"
#include "mt/model/model_file.h"
#include "mt/model/transformer.h"
#include "mt/tensor/packed_weights.h"
#include "mt/tensor/tensor.h"
#include "support/random_values.h"
#include "support/reverse_model.h"

using namespace mt;

TEST_CASE("packed weights: only matrices inside the parameter buffer are packed, each once") {
  std::vector<float> params = random_floats(1000, 3), other = random_floats(1000, 4);
  PackedWeights store(params.data(), static_cast<int64_t>(params.size()));
  CHECK(store.get(other.data(), 10, 10) == nullptr);              // an activation buffer
  CHECK(store.get(params.data() + 950, 10, 10) == nullptr);       // runs past the end
  CHECK(store.get(params.data(), 0, 10) == nullptr);
  const float* first = store.get(params.data() + 100, 20, 30);
  REQUIRE(first != nullptr);
  CHECK(store.get(params.data() + 100, 20, 30) == first);
  CHECK(store.get(params.data() + 100, 30, 20) != first);  // same address, other shape: its own copy
  CHECK(store.floats() == corpus::linalg::prepacked_nt_size(20, 30) + corpus::linalg::prepacked_nt_size(30, 20));
  CHECK(packed_weights_in_use() == nullptr);
  {
    const UsePackedWeights use(&store);
    CHECK(packed_weights_in_use() == &store);
    {
      const UsePackedWeights none(nullptr);
      CHECK(packed_weights_in_use() == nullptr);
    }
    CHECK(packed_weights_in_use() == &store);
  }
  CHECK(packed_weights_in_use() == nullptr);
}

TEST_CASE("packed weights: copies start at 64-byte boundaries and keep their contents, one larger than a chunk too") {
  // The copies share chunks of 2 MiB pages (packed_weights.cpp); a matrix
  // larger than a chunk gets a chunk of its own, and later ones a new chunk.
  const int big_n = 2100, big_k = 2048;  // 17.2 MB packed: more than the 16 MiB chunk
  std::vector<float> params = random_floats(static_cast<size_t>(big_n) * big_k + 5000, 8);
  PackedWeights store(params.data(), static_cast<int64_t>(params.size()));
  std::vector<std::pair<const float*, std::vector<float>>> copies;
  for (const auto& nk : std::initializer_list<std::pair<int, int>>{{3, 7}, {33, 17}, {big_n, big_k}, {40, 100}}) {
    const int n = nk.first, k = nk.second;
    const float* w = nk.first == big_n ? params.data() : params.data() + static_cast<int64_t>(big_n) * big_k;
    const float* got = store.get(w, n, k);
    REQUIRE(got != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(got) % 64 == 0);
    std::vector<float> want(static_cast<size_t>(corpus::linalg::prepacked_nt_size(n, k)));
    corpus::linalg::prepack_nt(w, n, k, want.data());
    copies.emplace_back(got, std::move(want));
  }
  for (const auto& c : copies)  // later copies wrote nothing over earlier ones
    CHECK(std::memcmp(c.first, c.second.data(), c.second.size() * sizeof(float)) == 0);
}

TEST_CASE("packed weights: a linear layer gives the packed product's bits for 1 to 40 rows") {
  if (gemm_backend() != GemmBackend::kAvx512) {
    MESSAGE("the products do not run on AVX-512 here: the store is not used, nothing to check");
    return;
  }
  const int n = 70, k = 300;
  std::vector<float> params = random_floats(static_cast<size_t>(n) * k + n, 5);
  const float* w = params.data();
  const float* bias = params.data() + static_cast<int64_t>(n) * k;
  PackedWeights store(params.data(), static_cast<int64_t>(params.size()));
  for (int m : {1, 2, 3, 5, 8, 9, 16, 17, 40})
    for (bool with_bias : {false, true}) {
      CAPTURE(m);
      CAPTURE(with_bias);
      const std::vector<float> x = random_floats(static_cast<size_t>(m) * k, 6 + m);
      std::vector<float> want(static_cast<size_t>(m) * n), got(want.size(), -7.0f);
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) want[static_cast<size_t>(i) * n + j] = with_bias ? bias[j] : 0.0f;
      corpus::linalg::gemm_avx512_nt(x.data(), w, want.data(), m, n, k, with_bias);
      const UsePackedWeights use(&store);
      linear_forward<float>(x.data(), w, with_bias ? bias : nullptr, got.data(), m, n, k);
      CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("packed weights: a store kept by the caller across calls gives each call's own results") {
  // translate_stream keeps one store for a whole stream; greedy, beam and
  // the parallel modes must give what they give with a store of their own.
  const ModelFile& m = mt_test::reverse_model();
  const auto src = mt_test::reverse_task(40, 12).src;
  const Config& cfg = m.config();
  ModelOffsets off;
  PackedWeights kept(m.params(), make_layout(cfg, off).total());
  DecodeOptions own, shared;
  own.batch_size = shared.batch_size = 8;
  shared.packed = &kept;
  const auto greedy = greedy_translate(cfg, m.params(), src, own);
  for (int call = 0; call < 2; ++call) {
    CAPTURE(call);
    CHECK(greedy_translate(cfg, m.params(), src, shared) == greedy);
    CHECK(parallel_translate(cfg, m.params(), src, shared, ParallelOptions{DecodeMode::kHybrid, 4, DraftSource::kPad}) ==
          greedy);
    const auto a = beam_translate(cfg, m.params(), src, own, BeamOptions{});
    const auto b = beam_translate(cfg, m.params(), src, shared, BeamOptions{});
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) CHECK(a[i][0].tokens == b[i][0].tokens);
  }
  if (gemm_backend() == GemmBackend::kAvx512) CHECK(kept.floats() > 0);
}
