#include "mt/decode/draft_heads.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string_view>

#include "libcorpus/core/digest.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"
#include "mt/model/transformer.h"
#include "mt/tensor/row_kernels.h"
#include "mt/tensor/tensor.h"

namespace mt {

namespace {

struct OutputRows {
  const float* w;
  const float* b;
};

OutputRows output_rows(const Config& cfg, const float* params) {
  ModelOffsets off;
  make_layout(cfg, off);
  return {params + off.out_w, params + off.out_b};
}

std::string hex64(uint64_t v) { return fmt::format("{:016x}", v); }

}  // namespace

uint64_t draft_model_fingerprint(const Config& cfg, const float* params) {
  const OutputRows o = output_rows(cfg, params);
  const size_t V = static_cast<size_t>(cfg.trg_vocab), C = static_cast<size_t>(cfg.dim);
  const uint64_t w = corpus::hash64({reinterpret_cast<const char*>(o.w), V * C * sizeof(float)});
  const uint64_t b = corpus::hash64({reinterpret_cast<const char*>(o.b), V * sizeof(float)});
  return w ^ (b * 0x9E3779B97F4A7C15ULL) ^ (static_cast<uint64_t>(cfg.dim) << 32) ^ static_cast<uint64_t>(cfg.trg_vocab);
}

void DraftHeads::bind(const Config& cfg, const float* params) {
  if (dim != cfg.dim || draft_model_fingerprint(cfg, params) != model)
    throw corpus::Error(fmt::format("the draft heads were trained for another model (dim {}, model {}; this model: dim "
                                    "{}, {})",
                                    dim, hex64(model), cfg.dim, hex64(draft_model_fingerprint(cfg, params))),
                        "train heads for this model: pc-nmt train-heads -m MODEL");
  for (int32_t id : shortlist)
    if (id < 0 || id >= cfg.trg_vocab)
      throw corpus::Error(fmt::format("draft heads: shortlist id {} outside the vocabulary of {}", id, cfg.trg_vocab));
  const OutputRows o = output_rows(cfg, params);
  const size_t S = shortlist.size(), C = static_cast<size_t>(dim);
  out_w.resize(S * C);
  out_b.resize(S);
  for (size_t s = 0; s < S; ++s) {
    std::copy_n(o.w + static_cast<size_t>(shortlist[s]) * C, C, out_w.data() + s * C);
    out_b[s] = o.b[shortlist[s]];
  }
}

void DraftHeads::guess(const float* h, int n, int32_t* out, std::vector<float>& scratch) const {
  const int C = dim, Hd = hidden, S = shortlist_size(), nh = std::min(n, heads);
  if (nh <= 0) return;
  // The layers' temporaries for one row, then the heads' rows z, then their logits.
  scratch.resize(static_cast<size_t>(Hd) + static_cast<size_t>(C) + static_cast<size_t>(nh) * (C + S));
  float* z = scratch.data() + Hd + C;
  float* logits = z + static_cast<size_t>(nh) * C;
  head_layers(h, 1, nh, z, scratch.data(), scratch.data() + Hd);
  linear_forward<float>(z, out_w.data(), out_b.data(), logits, nh, S, C);  // every head in one product
  for (int k = 0; k < nh; ++k) {
    int arg = 0;
    row_max(logits + static_cast<size_t>(k) * S, S, &arg);
    out[k] = shortlist[static_cast<size_t>(arg)];
  }
}

void DraftHeads::head_rows(const float* top, int N, int n, float* out, std::vector<float>& scratch) const {
  scratch.resize(static_cast<size_t>(N) * hidden + static_cast<size_t>(N) * dim);
  head_layers(top, N, n, out, scratch.data(), scratch.data() + static_cast<size_t>(N) * hidden);
}

void DraftHeads::head_layers(const float* top, int N, int n, float* out, float* a, float* z) const {
  const int C = dim, Hd = hidden;
  const size_t c = static_cast<size_t>(C);
  for (int k = 0; k < std::min(n, heads); ++k) {
    const size_t kh = static_cast<size_t>(k) * Hd, kc = static_cast<size_t>(k) * C;
    linear_forward<float>(top, w1.data() + kh * c, b1.data() + kh, a, N, Hd, C);
    for (size_t i = 0; i < static_cast<size_t>(N) * Hd; ++i) a[i] = a[i] / (1.0f + std::exp(-a[i]));  // SiLU
    linear_forward<float>(a, w2.data() + kc * Hd, b2.data() + kc, z, N, C, Hd);
    for (int r = 0; r < N; ++r) {
      float* o = out + (static_cast<size_t>(r) * n + k) * c;
      const float* h = top + static_cast<size_t>(r) * c;
      const float* zr = z + static_cast<size_t>(r) * c;
      for (size_t i = 0; i < c; ++i) o[i] = h[i] + zr[i];
    }
  }
}

int32_t DraftHeads::pick(const float* logits) const {
  int32_t best = shortlist.front();
  for (int32_t id : shortlist)  // ascending ids: the first largest, as guess() picks
    if (logits[id] > logits[best]) best = id;
  return best;
}

void save_draft_heads(const std::string& path, const DraftHeads& h, const std::string& trained_on) {
  corpus::safetensors::Writer w;
  w.metadata("format", kDraftHeadsFormat);
  w.metadata("version", "1");
  w.metadata("heads", std::to_string(h.heads));
  w.metadata("dim", std::to_string(h.dim));
  w.metadata("hidden", std::to_string(h.hidden));
  w.metadata("model", hex64(h.model));
  w.metadata("trained_on", trained_on);
  const uint64_t C = static_cast<uint64_t>(h.dim), Hd = static_cast<uint64_t>(h.hidden);
  w.add<int32_t>("shortlist", std::span<const int32_t>(h.shortlist));
  for (int k = 0; k < h.heads; ++k) {
    const std::string p = "head." + std::to_string(k);
    w.add<float>(p + ".w1", std::span<const float>(h.w1).subspan(k * Hd * C, Hd * C), {Hd, C});
    w.add<float>(p + ".b1", std::span<const float>(h.b1).subspan(k * Hd, Hd));
    w.add<float>(p + ".w2", std::span<const float>(h.w2).subspan(k * C * Hd, C * Hd), {C, Hd});
    w.add<float>(p + ".b2", std::span<const float>(h.b2).subspan(k * C, C));
  }
  w.write(path);
}

namespace {

int meta_int(const corpus::safetensors::File& f, const char* key, int lo, int hi) {
  const std::string v = f.meta(key);
  int n = 0;
  size_t used = 0;
  try {
    n = std::stoi(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (v.empty() || used != v.size() || n < lo || n > hi)
    throw corpus::Error(fmt::format("{}: metadata {} is {}, expected a number {}..{}", f.path(), key,
                                    v.empty() ? "missing" : corpus::quote(v), lo, hi));
  return n;
}

}  // namespace

DraftHeads load_draft_heads(const std::string& path) {
  corpus::safetensors::File f(path);
  f.expect(kDraftHeadsFormat, "1", "pc-nmt train-heads");
  DraftHeads h;
  h.heads = meta_int(f, "heads", 1, 15);
  h.dim = meta_int(f, "dim", 1, 1 << 16);
  h.hidden = meta_int(f, "hidden", 1, 1 << 16);
  const std::string m = f.meta("model");
  if (m.size() != 16 || m.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw corpus::Error(fmt::format("{}: metadata model is {}, expected 16 hex digits", path, corpus::quote(m)));
  h.model = std::stoull(m, nullptr, 16);
  const auto sl = f.get<int32_t>("shortlist", 1);
  if (sl.empty()) throw corpus::Error(path + ": the draft heads' shortlist is empty");
  h.shortlist.assign(sl.begin(), sl.end());
  const uint64_t C = static_cast<uint64_t>(h.dim), Hd = static_cast<uint64_t>(h.hidden);
  for (int k = 0; k < h.heads; ++k) {
    const std::string p = "head." + std::to_string(k);
    const auto w1 = f.get_shaped<float>(p + ".w1", {Hd, C});
    const auto b1 = f.get_shaped<float>(p + ".b1", {Hd});
    const auto w2 = f.get_shaped<float>(p + ".w2", {C, Hd});
    const auto b2 = f.get_shaped<float>(p + ".b2", {C});
    h.w1.insert(h.w1.end(), w1.begin(), w1.end());
    h.b1.insert(h.b1.end(), b1.begin(), b1.end());
    h.w2.insert(h.w2.end(), w2.begin(), w2.end());
    h.b2.insert(h.b2.end(), b2.begin(), b2.end());
  }
  return h;
}

}  // namespace mt
