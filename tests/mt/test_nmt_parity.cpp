// The engine against PyTorch: the fixtures made by
// tests/data/nmt/make-parity-fixtures.py (Debian's python3-torch) hold a tiny
// model, a batch, PyTorch's logits and loss, and the weights after one
// torch.optim.AdamW step. The engine must match all of them to 1e-4.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mt/model/model_file.h"
#include "mt/model/transformer.h"
#include "mt/train/adamw.h"
#include "support/test_data.h"

using namespace mt;

namespace {

// An F32 tensor of the fixture, checked for its exact shape.
const float* f32(const corpus::safetensors::File& f, const std::string& name, const std::vector<int64_t>& shape) {
  return f.get_shaped<float>(name, std::vector<uint64_t>(shape.begin(), shape.end())).data();
}

double max_abs_diff(const float* a, const float* b, int64_t n) {
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(static_cast<double>(a[i]) - b[i]));
  return worst;
}

void check_parity(const char* name) {
  INFO(name);
  ModelFile mf(nmt_data(name));
  const Config& cfg = mf.config();
  const corpus::safetensors::File& f = mf.file();
  REQUIRE(f.has("batch.src"));
  REQUIRE(f.has("batch.trg_in"));
  const auto& src_shape = f.tensors().at("batch.src").shape;
  const int B = static_cast<int>(src_shape[0]), S = static_cast<int>(src_shape[1]);
  const int U = static_cast<int>(f.tensors().at("batch.trg_in").shape[1]);
  const int32_t* src = f.get<int32_t>("batch.src", 2).data();
  const int32_t* trg_out = f.get<int32_t>("batch.trg_out", 2).data();
  // Rebuild the batch from its token sequences with the engine's make_batch.
  std::vector<std::vector<int32_t>> s(B), t(B);
  for (int b = 0; b < B; ++b) {
    for (int i = 0; i < S && src[b * S + i] != cfg.eos_id; ++i) s[b].push_back(src[b * S + i]);
    for (int u = 0; u < U && trg_out[b * U + u] != cfg.eos_id; ++u) t[b].push_back(trg_out[b * U + u]);
  }
  std::vector<const std::vector<int32_t>*> sp, tp;
  for (int b = 0; b < B; ++b) sp.push_back(&s[b]), tp.push_back(&t[b]);
  Batch batch = make_batch(cfg, sp, tp);
  REQUIRE(batch.S == S);
  REQUIRE(batch.U == U);
  CHECK(std::equal(batch.trg_in.begin(), batch.trg_in.end(), f.get<int32_t>("batch.trg_in", 2).data()));

  auto par = nlohmann::json::parse(f.metadata().at("parity"));
  Transformer<float> model(cfg);
  std::vector<float> p(mf.params(), mf.params() + model.layout().total()), g(p.size(), 0.0f);
  PassOptions opt;
  opt.label_smoothing = par["label_smoothing"].get<float>();
  opt.loss_scale = 1.0 / static_cast<double>(batch.trg_tokens);
  opt.keep_logits = true;
  XentResult r = model.pass(p.data(), g.data(), batch, opt);

  const int V = cfg.trg_vocab;
  const float* want_logits = f32(f, "expect.logits", {static_cast<int64_t>(B) * U, V});
  CHECK(max_abs_diff(model.logits().data(), want_logits, static_cast<int64_t>(B) * U * V) <= 1e-4);
  CHECK(r.loss / static_cast<double>(r.tokens) == doctest::Approx(f.get<float>("expect.loss")[0]).epsilon(1e-4));

  // Gradients, each tensor relative to its largest element (key biases are
  // exactly zero in the engine, ~1e-9 in PyTorch).
  double worst_grad = 0;
  for (const auto& ti : model.layout().tensors()) {
    const float* want = f32(f, "grad." + ti.name, ti.shape);
    double scale = 1e-3;
    for (int64_t i = 0; i < ti.size; ++i) scale = std::max(scale, static_cast<double>(std::abs(want[i])));
    worst_grad = std::max(worst_grad, max_abs_diff(g.data() + ti.offset, want, ti.size) / scale);
  }
  CHECK(worst_grad <= 1e-4);

  AdamWConfig ac;
  ac.beta1 = par["beta1"].get<double>();
  ac.beta2 = par["beta2"].get<double>();
  ac.eps = par["eps"].get<double>();
  ac.weight_decay = par["weight_decay"].get<double>();
  std::vector<float> m(p.size(), 0.0f), v(p.size(), 0.0f);
  adamw_step(p.data(), g.data(), m.data(), v.data(), static_cast<int64_t>(p.size()), par["lr"].get<double>(), ac, 1);
  double worst = 0;
  for (const auto& ti : model.layout().tensors())
    worst = std::max(worst, max_abs_diff(p.data() + ti.offset, f32(f, "after." + ti.name, ti.shape), ti.size));
  CHECK(worst <= 1e-4);
  // The step moved the weights by about lr: the comparison is not vacuous.
  CHECK(max_abs_diff(mf.params(), p.data(), static_cast<int64_t>(p.size())) > 5e-4);
}

}  // namespace

TEST_CASE("parity: post-norm, ReLU, shared and tied embeddings") { check_parity("parity-post-relu.safetensors"); }
TEST_CASE("parity: pre-norm, GELU, separate vocabularies, untied output") {
  check_parity("parity-pre-gelu.safetensors");
}
TEST_CASE("parity: pre-norm, Swish, 1 encoder and 3 decoder layers") { check_parity("parity-pre-swish.safetensors"); }
