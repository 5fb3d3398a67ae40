#include "mt/decode/forced_score.h"

#include <fmt/format.h>
#include <oneapi/tbb/enumerable_thread_specific.h>

#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/placeholders.h"
#include "libcorpus/core/utf8.h"
#include "mt/decode/translate_stream.h"
#include "mt/model/transformer.h"

namespace mt {

struct ForcedScorer::Impl {
  explicit Impl(const std::string& p) : path(p), model(p), protect(model.protects_placeholders()) {}
  std::string path;
  TranslationModel model;
  bool protect;
  // The Transformer keeps its activations: one a thread.
  mutable oneapi::tbb::enumerable_thread_specific<std::unique_ptr<Transformer<float>>> nets;
};

ForcedScorer::ForcedScorer(const std::string& path) : impl_(std::make_unique<Impl>(path)) {}
ForcedScorer::~ForcedScorer() = default;

align::TranslationScorer::Score ForcedScorer::score(std::string_view src, std::string_view trg) const {
  for (std::string_view side : {src, trg}) {
    const std::string bad = corpus::check_text(side);
    if (!bad.empty()) throw corpus::Error(bad);
  }
  const Config& cfg = impl_->model.file.config();
  const size_t keep = static_cast<size_t>(cfg.max_len) - 1;  // the end of sentence takes a position
  bool cut = false;
  std::vector<int32_t> s, t;
  if (impl_->protect) {
    const corpus::Masked m = corpus::mask_placeholders(src);
    s = impl_->model.src.encode_prefix(m.text, keep, cut);
    t = impl_->model.trg.encode_prefix(corpus::mask_like(trg, m), keep, cut);
  } else {
    s = impl_->model.src.encode_prefix(src, keep, cut);
    t = impl_->model.trg.encode_prefix(trg, keep, cut);
  }
  if (s.size() > keep) s.resize(keep);
  if (t.size() > keep) t.resize(keep);
  if (s.empty() || t.empty()) return {};
  std::unique_ptr<Transformer<float>>& net = impl_->nets.local();
  if (!net) net = std::make_unique<Transformer<float>>(cfg);
  const Batch b = make_batch(cfg, {&s}, {&t});
  const XentResult x = net->pass(impl_->model.file.params(), nullptr, b, PassOptions{});
  return {-x.loss, static_cast<int>(x.tokens)};
}

std::string ForcedScorer::describe() const {
  const Config& c = impl_->model.file.config();
  return fmt::format("pc-nmt model {} (d={}, {}+{} layers{})", impl_->path, c.dim, c.enc_layers, c.dec_layers,
                     impl_->protect ? ", placeholders masked" : "");
}

}  // namespace mt
