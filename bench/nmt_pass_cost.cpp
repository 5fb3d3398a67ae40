// A whole cached decoder pass of a model file with 1, 2, 4 and 8 rows (one
// sentence, B guessed positions), and the few-row products alone, best of
// many calls (weights hot in cache, as in decoding a sentence): what a
// parallel decoding pass costs against greedy's one-row pass.
// Built and run by bench/nmt-pass-cost.sh.
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
#include "mt/model/model_file.h"
#include "mt/model/transformer.h"
#include "mt/tensor/tensor.h"
using namespace mt;
using clk = std::chrono::steady_clock;
int main(int, char** argv) {
  use_single_threaded_blas();
  ModelFile mf(argv[1]);
  const Config& cfg = mf.config();
  Transformer<float> m(cfg);
  std::vector<int32_t> src(20, 10);
  Batch b = make_batch(cfg, {&src}, {});
  DecoderCache<float> cache;
  m.start_decoding(mf.params(), b, 64, cache);
  std::vector<int32_t> tok(8, 12);
  std::vector<float> logits;
  double base = 0;
  for (int Tq : {1, 2, 4, 8}) {
    double best = 1e9;
    for (int rep = 0; rep < 300; ++rep) {
      auto t0 = clk::now();
      m.decode(mf.params(), cache, tok.data(), Tq, 20, logits);
      best = std::min(best, std::chrono::duration<double, std::micro>(clk::now() - t0).count());
    }
    if (Tq == 1) base = best;
    printf("decoder pass %d rows: %.1f us (%.2fx)\n", Tq, best, best / base);
  }
  // The products alone: out projection [V,C], FFN up [F,C], down [C,F].
  const ModelOffsets& off = m.offsets();
  struct P { const char* name; const float* w; int n, k; };
  std::vector<P> ps = {{"out V x C", mf.params() + off.out_w, cfg.trg_vocab, cfg.dim},
                       {"ffn.w1 F x C", mf.params() + off.dec[0].ffn.w1, cfg.ffn_dim, cfg.dim},
                       {"ffn.w2 C x F", mf.params() + off.dec[0].ffn.w2, cfg.dim, cfg.ffn_dim},
                       {"self.wq C x C", mf.params() + off.dec[0].self.wq, cfg.dim, cfg.dim}};
  std::vector<float> x(8 * 4096, 0.1f), y(8 * 8192);
  for (auto& p : ps) {
    double b1 = 0;
    for (int mr : {1, 4, 8}) {
      double best = 1e9;
      for (int rep = 0; rep < 500; ++rep) {
        auto t0 = clk::now();
        linear_forward<float>(x.data(), p.w, nullptr, y.data(), mr, p.n, p.k);
        best = std::min(best, std::chrono::duration<double, std::micro>(clk::now() - t0).count());
      }
      if (mr == 1) b1 = best;
      printf("%s m=%d: %.1f us (%.2fx)\n", p.name, mr, best, best / b1);
    }
  }
}
