// The spell rule (filter/spell.h) on small Hunspell dictionaries written
// here: which words it judges, which dictionary a language gets, a
// dictionary in ISO 8859-1, the rule's limits, bad dictionary files, and the
// same answers from several threads.
#include <doctest/doctest.h>

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "filter/chain.h"
#include "filter/rules.h"
#include "filter/spell.h"
#include "libcorpus/core/error.h"
#include "tests/support/tmpdir.h"

using filter::Chain;
using filter::RuleSet;
using filter::SpellDictionaries;

namespace {

// A dictionary STEM.aff/.dic in `dir`: no affixes, the words as given (in
// the dictionary's own character set).
void dictionary(const TmpDir& d, const std::string& stem, const std::vector<std::string>& words,
                const std::string& set = "UTF-8") {
  put_bytes(d.path(stem + ".aff"), "SET " + set + "\n");
  std::string dic = std::to_string(words.size()) + "\n";
  for (const auto& w : words) dic += w + "\n";
  put_bytes(d.path(stem + ".dic"), dic);
}

struct Dicts {
  TmpDir d;
  Dicts() {
    dictionary(d, "en_US", {"black", "green", "yellow", "total", "file", "error", "year", "daily"});
    dictionary(d, "de_DE", {"schwarz", "gelb", "grün", "gesamt", "täglich", "datei", "fehler"});
    dictionary(d, "fr", {"noir", "vert", "jaune", "total", "il", "y", "trop", "de", "fichier", "erreur"});
    // Spanish in Latin-1: "año" is the bytes 61 F1 6F.
    dictionary(d, "es_ES", {"negro", "verde", "amarillo", "archivo", "a\xf1o"}, "ISO8859-1");
  }
};

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> v;
  filter::spell_words(s, v);
  return v;
}

}  // namespace

TEST_CASE("spell: the words judged are runs of 2+ letters, not all capitals") {
  CHECK(words("l'utilisateur GSSAPI Datei-Fehler a x9 Ärger") ==
        std::vector<std::string>{"l'utilisateur", "Datei", "Fehler", "Ärger"});
  CHECK(words("aujourd\u2019hui CSS ISO-8859-1 Ok") == std::vector<std::string>{"aujourd\u2019hui", "Ok"});
  CHECK(words("  123 -- %s ").empty());
  CHECK(words("d'") == std::vector<std::string>{});  // one letter, the apostrophe not joining
}

TEST_CASE("spell: a language's dictionary, its preferred file and its character set") {
  Dicts f;
  dictionary(f.d, "pt_BR", {"arquivo"});
  dictionary(f.d, "pt_PT", {"ficheiro"});
  const SpellDictionaries d(f.d.dir);
  CHECK(d.accepts("de", "Schwarz") == 1);  // a capital first letter, as Hunspell accepts it
  CHECK(d.accepts("de", "noir") == 0);
  CHECK(d.accepts("fr", "noir") == 1);
  CHECK(d.accepts("es", "año") == 1);  // converted to the dictionary's Latin-1
  CHECK(d.accepts("es", "ano") == 0);
  CHECK(d.accepts("es", "数") == 0);  // not in Latin-1 at all: not the dictionary's word
  CHECK(d.accepts("pt", "ficheiro") == 1);  // pt_PT before pt_BR for "pt"
  CHECK(d.accepts("pt_BR", "arquivo") == 1);
  CHECK(d.accepts("nl", "zwart") == -1);
  CHECK_FALSE(d.has("nl"));
  dictionary(f.d, "bg_BG", {"\xe4\xe0"}, "microsoft-cp1251");  // "да" in Windows-1251, Hunspell's name for it
  CHECK(d.accepts("bg", "да") == 1);
  CHECK(d.accepts("bg", "не") == 0);
  CHECK(d.loaded().size() == 6);  // de_DE, fr, es_ES, pt_PT, pt_BR, bg_BG; none for nl
}

TEST_CASE("spell: the rule on pairs, the languages listed, and what is not evidence") {
  Dicts f;
  const SpellDictionaries d(f.d.dir);
  auto rejects = [&](const std::string& chain, const std::string& s, const std::string& t,
                     const std::string& tl = "de") {
    return RuleSet(Chain::parse(chain), "en", tl, nullptr, &d).first_failure(s, t, {}) >= 0;
  };
  CHECK(rejects("spell", "Black", "Noir"));
  CHECK_FALSE(rejects("spell", "Black", "Schwarz"));
  CHECK(rejects("spell", "Green", "Verde"));
  CHECK(rejects("spell", "Year", "Año"));
  CHECK_FALSE(rejects("spell=es", "Black", "Noir"));  // French is not listed
  CHECK(rejects("spell=es+fr", "Black", "Noir"));
  // English, the other side's language, is not evidence on a short side, even listed.
  CHECK_FALSE(rejects("spell=en+fr", "x", "black yellow"));
  CHECK(rejects("spell=en+fr", "x", "noir jaune"));
  // Acronyms are in no dictionary: nothing left to judge.
  CHECK_FALSE(rejects("spell", "File ERROR", "FICHIER ERREUR"));
  // Shares: French must have half the words more than German.
  CHECK_FALSE(rejects("spell", "Total error", "Gesamt noir"));
  CHECK_FALSE(rejects("spell", "x", "Fehler noir vert"));
  CHECK(rejects("spell", "x", "noir vert jaune Fehler"));
  // Ten words and more are CLD2's.
  CHECK(rejects("spell", "x", "il y a trop de noir vert jaune erreur"));
  CHECK_FALSE(rejects("spell", "x", "il y a trop de noir vert jaune erreur fichier"));
  // Words the other side has (names, copied terms) are left out, as lid's view does.
  CHECK_FALSE(rejects("spell", "Vert", "Vert"));
  // A language without a dictionary: its side is not judged.
  CHECK_FALSE(rejects("spell", "Black", "Noir", "nl"));
  // The French side of an en-fr pair, with a German word.
  CHECK(rejects("spell", "Error", "Fehler", "fr"));
  CHECK_FALSE(rejects("spell", "Error", "Erreur", "fr"));
}

TEST_CASE("spell: folders from DICPATH, several folders, and bad dictionary files") {
  Dicts f;
  TmpDir other;
  dictionary(other, "it_IT", {"nero"});
  {
    const SpellDictionaries d("/nonexistent:" + f.d.dir + ":" + other.dir);
    CHECK(d.accepts("it", "nero") == 1);
    CHECK(d.accepts("fr", "noir") == 1);
  }
  setenv("DICPATH", other.dir.c_str(), 1);
  CHECK(SpellDictionaries().accepts("it", "nero") == 1);
  CHECK(SpellDictionaries().accepts("fr", "noir") == -1);
  unsetenv("DICPATH");

  TmpDir bad;
  put_bytes(bad.path("de_DE.aff"), "SET UTF-8\n");
  put_bytes(bad.path("de_DE.dic"), "999999999999\nschwarz\n");  // a count no file this size holds
  put_bytes(bad.path("fr.aff"), "SET UTF-8\n");
  put_bytes(bad.path("fr.dic"), "noir\nvert\n");  // no count line
  put_bytes(bad.path("es.aff"), "SET KLINGON-1\n");
  put_bytes(bad.path("es.dic"), "1\nnegro\n");
  put_bytes(bad.path("nl.dic"), "1\nzwart\n");  // no .aff: not a dictionary
  put_bytes(bad.path("it.aff"), "SET UTF-8\n");
  std::filesystem::create_directory(bad.path("it.dic"));  // a folder named like one: not a dictionary
  const SpellDictionaries d(bad.dir);
  CHECK_THROWS_WITH_AS(d.accepts("de", "schwarz"), doctest::Contains("de_DE.dic is not a Hunspell dictionary"),
                       corpus::Error);
  CHECK_THROWS_WITH_AS(d.accepts("fr", "noir"), doctest::Contains("fr.dic is not a Hunspell dictionary"),
                       corpus::Error);
  CHECK_THROWS_WITH_AS(d.accepts("es", "negro"), doctest::Contains("unknown character set 'KLINGON-1'"),
                       corpus::Error);
  CHECK(d.accepts("nl", "zwart") == -1);
  CHECK(d.accepts("it", "nero") == -1);
}

TEST_CASE("spell: the chain item") {
  CHECK(Chain::parse("spell").spec() == "spell");
  CHECK(Chain::parse("spell=de+pt_BR").spec() == "spell=de+pt_BR");
  CHECK(std::string(filter::kDefaultChain).find(",lid,spell,") != std::string::npos);
  CHECK_THROWS_WITH_AS(Chain::parse("spell=de+"), doctest::Contains("joined by '+'"), corpus::ConfigError);
  CHECK_THROWS_WITH_AS(Chain::parse("spell=d e"), doctest::Contains("joined by '+'"), corpus::ConfigError);
  CHECK_THROWS_AS(Chain::parse("spell>=1"), corpus::ConfigError);
  CHECK_THROWS_WITH_AS(RuleSet(Chain::parse("spell"), "", ""), doctest::Contains("rule spell needs both languages"),
                       corpus::ConfigError);
}

TEST_CASE("spell: the same answers from 4 threads") {
  Dicts f;
  const SpellDictionaries d(f.d.dir);
  const RuleSet rs(Chain::parse("spell"), "en", "de", nullptr, &d);
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"Black", "Noir"}, {"Black", "Schwarz"}, {"Green", "Verde"}, {"Year", "Año"}, {"x", "Fehler noir vert"}};
  std::vector<int> want;
  for (const auto& [s, t] : pairs) want.push_back(rs.first_failure(s, t, {}));
  CHECK(want == std::vector<int>{0, -1, 0, 0, -1});
  std::vector<std::vector<int>> got(4);
  std::vector<std::thread> ts;
  const SpellDictionaries fresh(f.d.dir);  // loaded while the threads race for it
  const RuleSet rf(Chain::parse("spell"), "en", "de", nullptr, &fresh);
  for (int i = 0; i < 4; ++i)
    ts.emplace_back([&, i] {
      for (int k = 0; k < 50; ++k)
        for (const auto& [s, t] : pairs) got[static_cast<size_t>(i)].push_back(rf.first_failure(s, t, {}));
    });
  for (auto& t : ts) t.join();
  for (const auto& g : got) {
    REQUIRE(g.size() == 50 * pairs.size());
    for (size_t k = 0; k < g.size(); ++k) CHECK(g[k] == want[k % pairs.size()]);
  }
}
