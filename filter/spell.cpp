#include "filter/spell.h"

#include <fmt/format.h>
#include <hunspell.hxx>
#include <unicode/ucnv.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "filter/rules.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/split_fields.h"
#include "libcorpus/core/uchar.h"

namespace filter {

namespace {

bool is_letter(UChar32 c) { return c >= 0 && u_isalpha(c); }

// The word count Hunspell sizes its hash table by: the .dic file's first
// line. A file whose first line is no count, or a count larger than the
// file could hold, is refused before Hunspell allocates for it.
void check_dic(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw corpus::Error("cannot read the spelling dictionary " + path);
  std::string line;
  std::getline(f, line);
  if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) throw corpus::Error("cannot read the spelling dictionary " + path + ": " + ec.message());
  char* end = nullptr;
  const unsigned long long n = line.empty() ? 0 : std::strtoull(line.c_str(), &end, 10);
  if (line.empty() || end != line.c_str() + line.size() || n == 0 || n > size)
    throw corpus::Error(fmt::format("{} is not a Hunspell dictionary: its first line is not a word count up to "
                                    "the file's size",
                                    path));
}

// ICU knows Hunspell's charset names (ISO8859-1, KOI8-R, ...) but one:
// Hunspell's own name for the Cyrillic Windows code page.
std::string icu_encoding(const std::string& e) { return e == "microsoft-cp1251" ? "windows-1251" : e; }

}  // namespace

struct SpellDictionaries::Dict {
  std::string path;  // the .dic file
  std::unique_ptr<Hunspell> h;
  UConverter* conv = nullptr;  // null for a UTF-8 dictionary
  std::mutex mu;
  // Answers so far: Hunspell takes microseconds a word (affixes, compounds),
  // and a corpus's short strings repeat their words. Cleared when full.
  std::unordered_map<std::string, bool> seen;
  static constexpr size_t kMaxSeen = 1 << 20;
  ~Dict() {
    if (conv) ucnv_close(conv);
  }
  bool accepts(const std::string& word) {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = seen.find(word); it != seen.end()) return it->second;
    if (seen.size() >= kMaxSeen) seen.clear();
    return seen[word] = ask(word);
  }
  bool ask(const std::string& word) {
    if (!conv) return h->spell(word);
    const icu::UnicodeString u = icu::UnicodeString::fromUTF8(word);
    UErrorCode e = U_ZERO_ERROR;
    std::string w(static_cast<size_t>(u.length()) * 4 + 4, '\0');
    const int32_t n = ucnv_fromUChars(conv, w.data(), static_cast<int32_t>(w.size()), u.getBuffer(), u.length(), &e);
    if (U_FAILURE(e)) return false;  // a letter the dictionary's charset lacks: not its word
    w.resize(static_cast<size_t>(n));
    return h->spell(w);
  }
};

void spell_words(std::string_view s, std::vector<std::string>& out) {
  out.clear();
  size_t i = 0;
  while (i < s.size()) {
    size_t next = 0;
    UChar32 c = corpus::uc::at(s, i, &next);
    if (!is_letter(c)) {
      i = next;
      continue;
    }
    const size_t start = i;
    uint32_t letters = 0, upper = 0, lower = 0;
    size_t end = i;
    while (i < s.size()) {
      c = corpus::uc::at(s, i, &next);
      if (is_letter(c)) {
        ++letters;
        upper += u_isupper(c) ? 1 : 0;
        lower += (u_islower(c) || u_istitle(c)) ? 1 : 0;
        i = next;
        end = i;
        continue;
      }
      if ((c == '\'' || c == 0x2019) && next < s.size() && is_letter(corpus::uc::at(s, next))) {
        i = next;
        continue;
      }
      break;
    }
    if (letters >= 2 && !(upper > 0 && lower == 0)) out.emplace_back(s.substr(start, end - start));
    i = std::max(i, end);
  }
}

SpellDictionaries::SpellDictionaries(std::string path) {
  if (path.empty()) {
    const char* env = std::getenv("DICPATH");
    path = env && *env ? env : "/usr/share/hunspell";
  }
  for (std::string_view d : corpus::split_fields(path, ':'))
    if (!d.empty()) dirs_.emplace_back(d);
}

SpellDictionaries::~SpellDictionaries() = default;

const SpellDictionaries::Dict* SpellDictionaries::find(const std::string& lang) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = dicts_.find(lang);
  if (it != dicts_.end()) return it->second.get();
  std::string full = lang;
  std::replace(full.begin(), full.end(), '-', '_');
  const std::string primary(primary_language(lang));
  std::string upper = primary;
  for (char& ch : upper) ch = static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
  namespace fs = std::filesystem;
  std::string chosen;
  for (const std::string& dir : dirs_) {
    std::vector<std::string> names;  // stems with both files, of the language
    std::error_code ec;
    for (fs::directory_iterator e(dir, ec), last; !ec && e != last; e.increment(ec)) {
      const fs::path p = e->path();
      if (p.extension() != ".dic" || !e->is_regular_file(ec)) continue;
      const std::string stem = p.stem().string();
      if (stem != primary && !stem.starts_with(primary + "_")) continue;
      if (fs::exists(fs::path(dir) / (stem + ".aff"), ec)) names.push_back(stem);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& want : {full, primary, primary + "_" + upper})
      if (chosen.empty() && std::find(names.begin(), names.end(), want) != names.end()) chosen = dir + "/" + want;
    if (chosen.empty() && !names.empty()) chosen = dir + "/" + names.front();
    if (!chosen.empty()) break;
  }
  std::unique_ptr<Dict> d;
  if (!chosen.empty()) {
    d = std::make_unique<Dict>();
    d->path = chosen + ".dic";
    check_dic(d->path);
    d->h = std::make_unique<Hunspell>((chosen + ".aff").c_str(), d->path.c_str());
    const std::string enc = d->h->get_dict_encoding();
    if (enc != "UTF-8" && enc != "utf-8") {
      UErrorCode e = U_ZERO_ERROR;
      d->conv = ucnv_open(icu_encoding(enc).c_str(), &e);
      if (U_FAILURE(e)) throw corpus::Error(fmt::format("{}: unknown character set '{}'", chosen + ".aff", enc));
      ucnv_setFromUCallBack(d->conv, UCNV_FROM_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &e);
    }
  }
  return (dicts_[lang] = std::move(d)).get();
}

int SpellDictionaries::accepts(const std::string& lang, const std::string& word) const {
  const Dict* d = find(lang);
  if (!d) return -1;
  return const_cast<Dict*>(d)->accepts(word) ? 1 : 0;
}

bool SpellDictionaries::has(const std::string& lang) const { return find(lang) != nullptr; }

std::vector<std::string> SpellDictionaries::loaded() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> v;
  for (const auto& [lang, d] : dicts_)
    if (d) v.push_back(d->path);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

bool spell_other_language(const SpellDictionaries& d, std::string_view text, uint32_t words, const std::string& lang,
                          const std::string& other, const std::vector<std::string>& candidates) {
  if (words >= kSpellMaxWords) return false;
  thread_local std::vector<std::string> ws;
  spell_words(text, ws);
  if (ws.empty() || !d.has(lang)) return false;
  auto share = [&](const std::string& l) {
    uint32_t n = 0;
    for (const std::string& w : ws) n += d.accepts(l, w) == 1 ? 1 : 0;
    return static_cast<double>(n) / static_cast<double>(ws.size());
  };
  const double expected = share(lang);
  if (expected > kSpellMaxExpected) return false;
  const std::string_view p = primary_language(lang), o = primary_language(other);
  for (const std::string& c : candidates) {
    const std::string_view cp = primary_language(c);
    if (cp == p || cp == o || cp == "en" || !d.has(c)) continue;
    if (share(c) - expected >= kSpellMargin) return true;
  }
  return false;
}

}  // namespace filter
