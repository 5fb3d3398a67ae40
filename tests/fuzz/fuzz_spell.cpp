// pc-clean's spell rule (filter/spell.h) on any pair of sides, with small
// dictionaries this target writes once (one UTF-8, one ISO 8859-1): the
// words it judges are pieces of the side, 2+ letters each, and the rule's
// answer is the same when asked again (the second time from the dictionaries'
// word caches).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "filter/chain.h"
#include "filter/rules.h"
#include "filter/spell.h"
#include "libcorpus/core/uchar.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

void put(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size()) std::abort();
  std::fclose(f);
}

const filter::SpellDictionaries& dictionaries() {
  static std::unique_ptr<filter::SpellDictionaries> d = [] {
    const char* tmp = std::getenv("TMPDIR");
    const std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/paracorp-fuzz-dict-" + std::to_string(getpid());
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) std::abort();
    put(dir + "/en_US.aff", "SET UTF-8\n");
    put(dir + "/en_US.dic", "4\nblack\ngreen\nfile\nerror\n");
    put(dir + "/fr.aff", "SET UTF-8\n");
    put(dir + "/fr.dic", "5\nnoir\nvert\nfichier\nerreur\nl'utilisateur\n");
    put(dir + "/es_ES.aff", "SET ISO8859-1\n");
    put(dir + "/es_ES.dic", "4\nnegro\nverde\na\xf1o\nse\xf1" "al\n");
    return std::make_unique<filter::SpellDictionaries>(dir);
  }();
  return *d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string in = fuzz::valid_utf8(fuzz::bytes(data, size));
  const size_t tab = in.find('\t');
  const std::string s = in.substr(0, tab), t = tab == std::string::npos ? std::string() : in.substr(tab + 1);
  if (s.find('\t') != std::string::npos || t.find('\t') != std::string::npos || s.find('\n') != std::string::npos ||
      t.find('\n') != std::string::npos)
    return 0;
  std::vector<std::string> words;
  filter::spell_words(t, words);
  for (const std::string& w : words) {
    if (t.find(w) == std::string::npos) fuzz::broken("a judged word is not a piece of the side");
    int letters = 0;
    for (size_t i = 0; i < w.size();) {
      size_t next = 0;
      const UChar32 c = corpus::uc::at(w, i, &next);
      letters += u_isalpha(c) ? 1 : 0;
      i = next;
    }
    if (letters < 2) fuzz::broken("a judged word has fewer than 2 letters");
  }
  static const filter::RuleSet rules(filter::Chain::parse("spell=fr+es"), "en", "de", nullptr, &dictionaries());
  static const filter::RuleSet rules_fr(filter::Chain::parse("spell=es"), "en", "fr", nullptr, &dictionaries());
  for (const filter::RuleSet* r : {&rules, &rules_fr}) {
    const int first = r->first_failure(s, t, {});
    if (r->first_failure(s, t, {}) != first) fuzz::broken("the rule answered differently the second time");
  }
  return 0;
}
