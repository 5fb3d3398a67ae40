#include "mt/decode/ibm1_draft.h"

#include <fmt/format.h>

#include "libcorpus/core/error.h"

namespace mt {

namespace {

// A token worth counting for the language check: not a number or a mark.
bool is_word(const std::string& t) {
  for (unsigned char c : t)
    if (c >= 0x80 || static_cast<unsigned>((c | 0x20) - 'a') < 26u) return true;
  return false;
}

}  // namespace

Ibm1Drafter::Ibm1Drafter(const std::string& path, const Tokenizer& trg)
    : path_(path), model_(align::Ibm1Model::load(path)), translate_(model_, false), words_(model_.tokenizer()),
      trg_(trg) {}

std::vector<int32_t> Ibm1Drafter::draft(std::string_view line) {
  const std::vector<std::string> tokens = words_.tokenize(line);
  for (const std::string& t : tokens) {
    if (!is_word(t)) continue;
    const bool in_src = model_.src.find(t) != UINT32_MAX, in_trg = model_.trg.find(t) != UINT32_MAX;
    src_only_ += in_src && !in_trg;
    trg_only_ += in_trg && !in_src;
  }
  std::string text;
  translate_.translate(tokens, text);
  return trg_.encode(text);
}

void Ibm1Drafter::check_pair() const {
  const uint64_t telling = src_only_ + trg_only_;
  if (telling < kCheckWords) return;
  const double share = static_cast<double>(src_only_) / static_cast<double>(telling);
  if (share >= kMinShare) return;
  std::string langs;
  const std::string sl = model_.config.value("src_lang", ""), tl = model_.config.value("trg_lang", "");
  if (!sl.empty() && !tl.empty()) langs = fmt::format(" (it is {}-{})", sl, tl);
  throw corpus::Error(fmt::format("the input is not in the IBM1 draft model's source language{}: of {} input "
                                  "words in only one of its vocabularies, {:.1f}% are in the source one",
                                  langs, telling, 100 * share),
                      "give an IBM1 model of this language pair and direction")
      .at(path_);
}

}  // namespace mt
