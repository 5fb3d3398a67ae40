#include "align/tokenize.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <new>

#include "libcorpus/core/error.h"

namespace align {

TokenMode parse_token_mode(std::string_view s) {
  if (s == "icu") return TokenMode::kIcu;
  if (s == "whitespace") return TokenMode::kWhitespace;
  throw corpus::ConfigError("--tokenize must be icu or whitespace, not " + corpus::quote(s));
}

const char* token_mode_name(TokenMode m) { return m == TokenMode::kIcu ? "icu" : "whitespace"; }

namespace {

// ICU reports a failed allocation by leaving the string "bogus" (empty),
// which would make a sentence silently tokenless: make it the out-of-memory
// error it is.
void check_not_bogus(const icu::UnicodeString& u) {
  if (u.isBogus()) throw std::bad_alloc();
}

}  // namespace

struct Tokenizer::Impl {
  std::unique_ptr<icu::BreakIterator> words;
  icu::UnicodeString u;
  std::string utf8;
};

Tokenizer::Tokenizer(TokenizerOptions o) : opt_(o), impl_(std::make_unique<Impl>()) {
  if (opt_.mode == TokenMode::kIcu) {
    UErrorCode status = U_ZERO_ERROR;
    impl_->words.reset(icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status) || !impl_->words)
      throw corpus::Error(std::string("cannot create the ICU word-break iterator (") + u_errorName(status) + ")");
  }
}

Tokenizer::~Tokenizer() = default;

void Tokenizer::tokenize(std::string_view text, std::vector<std::string>& out) {
  if (opt_.mode == TokenMode::kWhitespace) {
    size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      size_t j = i;
      while (j < text.size() && text[j] != ' ' && text[j] != '\t') ++j;
      if (j > i) {
        if (!opt_.lowercase) {
          out.emplace_back(text.substr(i, j - i));
        } else {
          impl_->u = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data() + i, static_cast<int32_t>(j - i)));
          impl_->u.toLower(icu::Locale::getRoot());
          check_not_bogus(impl_->u);
          out.emplace_back();
          impl_->u.toUTF8String(out.back());
        }
      }
      i = j;
    }
    return;
  }
  icu::UnicodeString& u = impl_->u;
  u = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  if (opt_.lowercase) u.toLower(icu::Locale::getRoot());
  check_not_bogus(u);
  icu::BreakIterator& bi = *impl_->words;
  bi.setText(u);
  int32_t start = bi.first();
  for (int32_t end = bi.next(); end != icu::BreakIterator::DONE; start = end, end = bi.next()) {
    bool space = true;
    for (int32_t k = start; k < end && space;) {
      UChar32 c = u.char32At(k);
      space = u_isUWhiteSpace(c) || c == 0x200B || c == 0xFEFF;
      k += U16_LENGTH(c);
    }
    if (space) continue;
    out.emplace_back();
    u.tempSubStringBetween(start, end).toUTF8String(out.back());
  }
}

}  // namespace align
