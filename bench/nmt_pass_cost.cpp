// A whole cached decoder pass with 1, 2, 4, 8 and 16 rows (one sentence, B
// guessed positions) and the few-row products alone: what a parallel
// decoding pass costs against greedy's one-row pass.
//   nmt_pass_cost MODEL|PRESET:VOCAB [ROUNDS]
// PRESET:VOCAB ("base:8000", "small:4000") takes a preset's shape with
// random weights (the cost does not depend on their values), so a d=512
// pass can be timed without training one. Two ways to feed the weights:
//   hot       pass after pass on the same weights (in decoding a sentence,
//             whatever of them fits in the caches stays there);
//   streamed  a 64 MB buffer is written between passes (not timed), so
//             the weights come from memory, as in a model bigger than L3.
// With PASS_COST_PACKED in the environment the weights are packed once (what
// every decoding mode runs), else streamed as stored (the few-row kernel).
// Each round times every (mode, rows) once, interleaved, so a load that
// comes and goes on a shared machine falls on all of them; medians of the
// thread's CPU time (time the machine gives to other processes is not
// counted; what they do to the caches is).
// Built and run by bench/nmt-pass-cost.sh.
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "mt/model/model_file.h"
#include "mt/model/params.h"
#include "mt/model/transformer.h"
#include "mt/tensor/packed_weights.h"
#include "mt/tensor/tensor.h"
using namespace mt;

namespace {
double cpu_us() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: nmt_pass_cost MODEL|PRESET:VOCAB [ROUNDS]\n");
    return 2;
  }
  use_single_threaded_blas();
  const std::string what = argv[1];
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 21;
  Config cfg;
  std::unique_ptr<ModelFile> mf;
  // the preset's random weights at 0 mod 64 bytes, as a model file's are
  // (a std::vector's were at 16 mod 64, so every 16-float load of them
  // spanned two cache lines)
  std::unique_ptr<float, decltype(&std::free)> own(nullptr, &std::free);
  const float* params = nullptr;
  if (const size_t colon = what.find(':'); colon != std::string::npos) {
    cfg = Config::from_preset(what.substr(0, colon));
    cfg.src_vocab = cfg.trg_vocab = std::atoi(what.c_str() + colon + 1);
    ModelOffsets off;
    ParamLayout layout = make_layout(cfg, off);
    const size_t bytes = (static_cast<size_t>(layout.total()) * sizeof(float) + 63) / 64 * 64;
    own.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
    if (!own) {
      std::fprintf(stderr, "nmt_pass_cost: out of memory\n");
      return 1;
    }
    init_params(layout, own.get(), 1);
    params = own.get();
  } else {
    mf = std::make_unique<ModelFile>(what);
    cfg = mf->config();
    params = mf->params();
  }
  std::printf("model %s: d=%d ffn=%d %d+%d layers, target vocabulary %d; 1 thread, thread CPU time, median of %d rounds; products: %s\n",
              what.c_str(), cfg.dim, cfg.ffn_dim, cfg.enc_layers, cfg.dec_layers, cfg.trg_vocab, rounds, gemm_backend_name());
  // With PASS_COST_PACKED set: the weights packed once, as every decoding
  // mode runs them (mt/tensor/packed_weights.h); else streamed as they lie
  // through the few-row kernel (a lone Transformer::decode).
  ModelOffsets offsets;
  PackedWeights store(params, make_layout(cfg, offsets).total());
  const UsePackedWeights use(std::getenv("PASS_COST_PACKED") ? &store : nullptr);
  std::printf("weights: %s\n", std::getenv("PASS_COST_PACKED") ? "packed once (as decoding runs them)" : "as stored, few-row kernel");
  Transformer<float> m(cfg);
  std::vector<int32_t> src(20, 10);
  Batch b = make_batch(cfg, {&src}, {});
  DecoderCache<float> cache;
  m.start_decoding(params, b, 64, cache);
  const int rows[] = {1, 2, 4, 8, 16};
  const char* modes[] = {"hot", "streamed"};
  std::vector<int32_t> tok(16, 12);
  std::vector<float> logits, flush(size_t{16} << 20);
  std::vector<std::vector<double>> t(std::size(modes) * std::size(rows));
  for (int r = 0; r < rounds; ++r)
    for (size_t mode = 0; mode < std::size(modes); ++mode)
      for (size_t ri = 0; ri < std::size(rows); ++ri) {
        // hot: one untimed pass first, so the timed one finds what fits in cache
        if (mode == 1)
          for (size_t i = 0; i < flush.size(); i += 16) flush[i] += 1.0f;
        else
          m.decode(params, cache, tok.data(), rows[ri], 20, logits);
        const double t0 = cpu_us();
        m.decode(params, cache, tok.data(), rows[ri], 20, logits);
        t[mode * std::size(rows) + ri].push_back(cpu_us() - t0);
      }
  for (size_t mode = 0; mode < std::size(modes); ++mode)
    for (size_t ri = 0; ri < std::size(rows); ++ri) {
      const double us = median(t[mode * std::size(rows) + ri]), base = median(t[mode * std::size(rows)]);
      std::printf("decoder pass %-8s %2d rows: %9.1f us (%.2fx)\n", modes[mode], rows[ri], us, us / base);
    }
}
