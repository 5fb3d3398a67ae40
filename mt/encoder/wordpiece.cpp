#include "mt/encoder/wordpiece.h"

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/utf8.h"

namespace mt {

namespace {

constexpr int kMaxWordChars = 100;  // Hugging Face's max_input_chars_per_word

bool is_space(UChar32 c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || u_charType(c) == U_SPACE_SEPARATOR;
}

// Unicode categories C* (Cc, Cf, Cs, Co, Cn), except tab and line ends.
bool is_control(UChar32 c) {
  if (c == '\t' || c == '\n' || c == '\r') return false;
  switch (u_charType(c)) {
    case U_CONTROL_CHAR:
    case U_FORMAT_CHAR:
    case U_SURROGATE:
    case U_PRIVATE_USE_CHAR:
    case U_UNASSIGNED:
      return true;
    default:
      return false;
  }
}

bool is_punct(UChar32 c) {
  if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return true;
  return u_ispunct(c);
}

// The CJK Unified Ideographs blocks (not Hiragana, Katakana or Hangul, which
// BERT's vocabularies split as other scripts).
bool is_cjk(UChar32 c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
         (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

const icu::Normalizer2& normalizer(bool nfc) {
  UErrorCode st = U_ZERO_ERROR;
  const icu::Normalizer2* n = nfc ? icu::Normalizer2::getNFCInstance(st) : icu::Normalizer2::getNFDInstance(st);
  if (U_FAILURE(st) || !n) throw corpus::Error("ICU has no NFC/NFD data");
  return *n;
}

icu::UnicodeString normalize(const icu::UnicodeString& s, bool nfc) {
  UErrorCode st = U_ZERO_ERROR;
  icu::UnicodeString out = normalizer(nfc).normalize(s, st);
  if (U_FAILURE(st)) throw corpus::Error("ICU normalisation failed");
  return out;
}

std::string utf8(const icu::UnicodeString& s) {
  std::string out;
  s.toUTF8String(out);
  return out;
}

}  // namespace

WordPiece::WordPiece(std::string_view vocab, WordPieceOptions opt) : opt_(std::move(opt)) {
  if (!corpus::is_valid_utf8(vocab)) throw corpus::Error("the WordPiece vocabulary is not UTF-8");
  int32_t id = 0;
  size_t pos = 0;
  while (pos < vocab.size()) {
    size_t nl = vocab.find('\n', pos);
    if (nl == std::string_view::npos) nl = vocab.size();
    // A later duplicate wins, as in Hugging Face's load_vocab.
    vocab_[std::string(vocab.substr(pos, nl - pos))] = id++;
    pos = nl + 1;
  }
  size_ = id;
  auto special = [&](const std::string& tok) {
    auto it = vocab_.find(tok);
    if (it == vocab_.end())
      throw corpus::Error("the WordPiece vocabulary has no " + corpus::quote(tok) + " token",
                          "give the vocab.txt the model was trained with");
    return it->second;
  };
  cls_ = special(opt_.cls);
  sep_ = special(opt_.sep);
  unk_ = special(opt_.unk);
}

std::vector<std::string> WordPiece::words(std::string_view text) const {
  const icu::UnicodeString in = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), int32_t(text.size())));
  icu::UnicodeString clean;
  for (int32_t i = 0; i < in.length();) {
    const UChar32 c = in.char32At(i);
    i += U16_LENGTH(c);
    if (c == 0 || c == 0xFFFD || is_control(c)) continue;
    if (is_space(c)) {
      clean.append(UChar32(' '));
    } else if (opt_.split_cjk && is_cjk(c)) {
      clean.append(UChar32(' ')).append(c).append(UChar32(' '));
    } else {
      clean.append(c);
    }
  }
  clean = normalize(clean, true);

  std::vector<std::string> out;
  auto punct_split = [&](const icu::UnicodeString& word) {
    icu::UnicodeString cur;
    for (int32_t i = 0; i < word.length();) {
      const UChar32 c = word.char32At(i);
      i += U16_LENGTH(c);
      if (is_punct(c)) {
        if (!cur.isEmpty()) out.push_back(utf8(cur));
        out.push_back(utf8(icu::UnicodeString(c)));
        cur.remove();
      } else if (u_isUWhiteSpace(c)) {  // lowercasing made white space: split there too
        if (!cur.isEmpty()) out.push_back(utf8(cur));
        cur.remove();
      } else {
        cur.append(c);
      }
    }
    if (!cur.isEmpty()) out.push_back(utf8(cur));
  };
  auto finish_word = [&](icu::UnicodeString word) {
    if (opt_.lower) word.toLower(icu::Locale::getRoot());
    if (opt_.strip_accents) {
      const icu::UnicodeString d = normalize(word, false);
      word.remove();
      for (int32_t i = 0; i < d.length();) {
        const UChar32 c = d.char32At(i);
        i += U16_LENGTH(c);
        if (u_charType(c) != U_NON_SPACING_MARK) word.append(c);
      }
    }
    punct_split(word);
  };
  // Python's str.split(): runs of white space separate words.
  icu::UnicodeString word;
  for (int32_t i = 0; i < clean.length();) {
    const UChar32 c = clean.char32At(i);
    i += U16_LENGTH(c);
    if (u_isUWhiteSpace(c)) {
      if (!word.isEmpty()) finish_word(word);
      word.remove();
    } else {
      word.append(c);
    }
  }
  if (!word.isEmpty()) finish_word(word);
  return out;
}

std::vector<int32_t> WordPiece::encode(std::string_view text) const {
  std::vector<int32_t> ids;
  std::string key;
  for (const std::string& w : words(text)) {
    // Code point boundaries of the word.
    std::vector<size_t> cut;
    for (size_t i = 0; i < w.size(); ++i)
      if ((static_cast<unsigned char>(w[i]) & 0xC0) != 0x80) cut.push_back(i);
    cut.push_back(w.size());
    const size_t n = cut.size() - 1;
    if (n > kMaxWordChars) {
      ids.push_back(unk_);
      continue;
    }
    const size_t before = ids.size();
    bool ok = true;
    for (size_t start = 0; start < n && ok;) {
      size_t end = n;
      int32_t found = -1;
      for (; end > start; --end) {
        key.assign(start > 0 ? "##" : "");
        key.append(w, cut[start], cut[end] - cut[start]);
        if (auto it = vocab_.find(key); it != vocab_.end()) {
          found = it->second;
          break;
        }
      }
      if (found < 0) {
        ok = false;
      } else {
        ids.push_back(found);
        start = end;
      }
    }
    if (!ok) {
      ids.resize(before);
      ids.push_back(unk_);
    }
  }
  return ids;
}

}  // namespace mt
