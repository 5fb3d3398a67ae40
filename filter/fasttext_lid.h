// A fastText language-ID model the user has (lid.176.bin or .ftz, or one
// trained with `fasttext supervised` on labelled text, as bench/lid-train.sh
// does from the gettext catalogues): the lid rule's second opinion where
// CLD2 is unsure, which on short strings is most of the time. The file is
// checked end to end (filter/fasttext_format.h) before libfasttext loads it.
// Thread-safe once loaded (predictions are const).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fasttext {
class FastText;
}

namespace filter {

class FastTextLid {
 public:
  // Error naming `path` when it cannot be read or is not a whole supervised
  // fastText model.
  explicit FastTextLid(const std::string& path);
  ~FastTextLid();
  FastTextLid(const FastTextLid&) = delete;
  FastTextLid& operator=(const FastTextLid&) = delete;

  struct Guess {
    std::string_view lang;  // the label without "__label__", as in the model ("fr", "fra_Latn")
    std::string_view code;  // language_code(lang), worked out once at load
    float p = 0;
  };
  // Every label with its probability for `text` (one line of valid UTF-8),
  // best first, as fastText's Python predict(text, k=-1) gives them. The
  // views live as long as the model.
  std::vector<Guess> predict(std::string_view text) const;
  int labels() const { return static_cast<int>(labels_.size()); }

 private:
  std::unique_ptr<fasttext::FastText> model_;
  std::vector<std::string> labels_, codes_;  // by label index
};

// The code two language names are compared by: the primary subtag, lower
// case, two-letter codes as ICU's ISO 639-3 names ("fra_Latn" and "fr" are
// both "fra"; "pt_BR" is "por").
std::string language_code(std::string_view lang);
// Whether a model's label names language `lang` (a BCP 47 or ISO 639 code).
inline bool same_language(std::string_view label, std::string_view lang) {
  return language_code(label) == language_code(lang);
}

}  // namespace filter
