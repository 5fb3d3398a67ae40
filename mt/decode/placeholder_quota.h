// Placeholder quotas for models trained with --protect-placeholders: the
// output must hold each placeholder symbol of its source (⦃1⦄..⦃16⦄, one
// token each) exactly as often as the source does, or the unmasked text
// loses, repeats or invents a %s, {0} or <b>. The decoders ask `mask` before
// they pick from a row of logits: a symbol whose quota is used up, or that
// the source lacks, gets -inf, and so does EOS while a quota is left; where
// EOS was the row's best, every token but the owed symbols does (the model
// meant to stop, so an owed symbol comes now, not words it did not want), and
// so it does where the output limit leaves no more positions than symbols
// owed (a model that never stops still writes them before it is cut). The
// mask depends only on the output so far and the sentence's limit, so greedy,
// beam and the parallel modes (which check each guessed position against the
// same rule) agree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mt {

class PlaceholderQuota {
 public:
  // src_ids[k] / trg_ids[k]: the source and target piece ids of symbol k+1
  // (-1 where a side lacks it); eos: the target EOS id; trg_vocab: V.
  PlaceholderQuota(std::vector<int32_t> src_ids, std::vector<int32_t> trg_ids, int32_t eos, int trg_vocab);

  // How often each symbol occurs in a source sentence (token ids).
  std::vector<int> demand(const std::vector<int32_t>& src) const;
  // Masks a row of V logits for the output prefix[0..n) of a sentence whose
  // source asks `demand` and whose output is cut at `limit` tokens
  // (output_limit in greedy.h): this row picks token n of at most limit.
  void mask(const std::vector<int>& demand, const int32_t* prefix, size_t n, size_t limit, float* row) const;

 private:
  std::vector<int32_t> src_ids_, trg_ids_;
  std::vector<int> src_slot_, trg_slot_;  // token id -> symbol index, or -1
  int32_t eos_;
};

}  // namespace mt
