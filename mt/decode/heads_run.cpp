#include "mt/decode/heads_run.h"

#include <optional>
#include <string_view>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/placeholders.h"
#include "libcorpus/core/utf8.h"
#include "mt/model/transformer.h"
#include "mt/tensor/packed_weights.h"

namespace mt {

DraftHeads train_heads_on_text(const TranslationModel& model, SentenceSource& in, size_t max_sentences,
                               const DecodeOptions& decode, const DraftHeadsTrainOptions& o, HeadsRunCounts& counts,
                               DraftHeadsTrainReport* report, const std::function<void(int, double)>& on_epoch) {
  const Config& cfg = model.file.config();
  const bool protect = model.protects_placeholders();
  std::vector<std::vector<int32_t>> src;
  std::string_view line;
  while (src.size() < max_sentences && in.next(line)) {
    ++counts.lines;
    std::string bad = corpus::check_text(line);
    if (!bad.empty()) throw corpus::Error(bad).at(in.name(), in.line_number());
    bool cut = false;
    std::optional<corpus::Masked> mask;
    if (protect) mask = corpus::mask_placeholders(line);
    std::vector<int32_t> ids =
        model.src.encode_prefix(mask ? std::string_view(mask->text) : line, static_cast<size_t>(cfg.max_len), cut);
    if (ids.empty()) {
      ++counts.empty;
      continue;
    }
    src.push_back(std::move(ids));
  }
  counts.sentences = src.size();
  if (src.empty()) throw corpus::Error("no sentence with tokens to train draft heads on").at(in.name(), in.line_number());
  DecodeOptions d = decode;
  ModelOffsets offsets;
  PackedWeights packed(model.file.params(), make_layout(cfg, offsets).total());
  if (!d.packed) d.packed = &packed;
  std::optional<PlaceholderQuota> quota;
  if ((quota = placeholder_quota(model))) d.quota = &*quota;
  const std::vector<std::vector<int32_t>> outputs = greedy_translate(cfg, model.file.params(), src, d);
  return train_draft_heads(cfg, model.file.params(), src, outputs, d, o, report, on_epoch);
}

}  // namespace mt
