// Drafts for parallel decoding from an IBM Model 1 of the language pair
// (pc-ibm1 train): the source sentence translated word by word (each word's
// most likely target word, unknown words and numbers copied), then split
// into the translation model's target tokens. A draft only has to guess
// tokens greedy will produce: a poor one costs speed, never output.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "align/ibm1_apply.h"
#include "align/ibm1_model.h"
#include "align/tokenize.h"
#include "mt/spm/spm.h"

namespace mt {

class Ibm1Drafter {
 public:
  // Loads the model (corpus::Error naming the file when it is no IBM1
  // model); `trg` is the translation model's target tokenizer.
  Ibm1Drafter(const std::string& path, const Tokenizer& trg);
  // The draft of one source line (valid UTF-8), as target token ids. Also
  // counts the line's words for check_pair.
  std::vector<int32_t> draft(std::string_view line);
  // Whether the input is in the IBM1 model's source language: of the input
  // words that only one of the model's vocabularies has (names, numbers and
  // placeholders are often in both, and tell nothing), under kMinShare in
  // the source vocabulary is a corpus::Error (a model of another source
  // language, or of the other direction), once kCheckWords such words were
  // seen. A model of the right source and another target language passes:
  // its drafts cost speed, never output.
  void check_pair() const;
  static constexpr uint64_t kCheckWords = 100;
  static constexpr double kMinShare = 0.5;

 private:
  std::string path_;
  align::Ibm1Model model_;
  align::WordTranslator translate_;
  align::Tokenizer words_;
  const Tokenizer& trg_;
  uint64_t src_only_ = 0, trg_only_ = 0;
};

}  // namespace mt
