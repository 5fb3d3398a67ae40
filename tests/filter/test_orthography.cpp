// The orthography fixer: each repair on text that needs it, and the words
// and languages it must leave alone.
#include <doctest/doctest.h>

#include <string>

#include "filter/fixers.h"
#include "filter/orthography.h"

namespace {

std::string ortho_fixed(const char* lang, std::string s) {
  filter::Orthography(lang).apply(s);
  return s;
}

}  // namespace

TEST_CASE("orthography: lookalike letters of another script inside a word") {
  // A Cyrillic о (U+043E) in an English word; a Latin a in a Russian one.
  CHECK(ortho_fixed("en", "C\u043empany") == "Company");
  CHECK(ortho_fixed("ru", "\u041c\u043e\u0441\u043a\u0432a") == "\u041c\u043e\u0441\u043a\u0432\u0430");
  // Greek capitals in a Latin word, Latin capitals in a Greek one.
  CHECK(ortho_fixed("de", "\u039ft\u03a4o") == "OtTo");
  CHECK(ortho_fixed("el", "\u0391\u0398H\u039d\u0391") == "\u0391\u0398\u0397\u039d\u0391");
  // A tie goes to the language's script: "CО2" in English is CO2.
  CHECK(ortho_fixed("en", "C\u041e2 levels") == "CO2 levels");
  // The Latin i of a Ukrainian word is the Cyrillic і there, not in Russian.
  CHECK(ortho_fixed("uk", "\u043ai\u043d\u043e") == "\u043a\u0456\u043d\u043e");
  CHECK(ortho_fixed("ru", "\u043ai\u043d\u043e") == "\u043ai\u043d\u043e");
}

TEST_CASE("orthography: words it leaves alone") {
  // Whole words of another script are names or quotes, not typing slips.
  CHECK(ortho_fixed("en", "the city of \u041c\u043e\u0441\u043a\u0432\u0430") == "the city of \u041c\u043e\u0441\u043a\u0432\u0430");
  CHECK(ortho_fixed("ru", "\u0444\u0430\u0439\u043b README") == "\u0444\u0430\u0439\u043b README");
  // A foreign letter without a twin keeps the word as it is (Cyrillic к).
  CHECK(ortho_fixed("en", "Pa\u043aage") == "Pa\u043aage");
  // Mostly foreign letters: the word is not the language's.
  CHECK(ortho_fixed("en", "\u0441o\u0440") == "\u0441o\u0440");
  // Codes glued to a word: an escape, a format directive, a hex number, an
  // option letter, a literal suffix, an acronym.
  for (const char* code : {"\\x\u041d\u041d", "%c\u043f\u0440\u043e\u0433", "0x\u0410\u0414\u0420\u0415\u0421\u0410",
                           "-c\u041e\u0417\u041d\u0410\u041a\u0410", "p\u0411\u0424\u0412",
                           "\u041f\u0420\u0415\u0424\u0418\u041a\u0421aa", "TOC\u0421\u041f\u0415\u0426"})
    CHECK(ortho_fixed("ru", code) == code);
  // A slip at the start of a word in title case or among capitals is one.
  CHECK(ortho_fixed("ru", "T\u0438\u043f --C\u0422\u0418\u041f") == "\u0422\u0438\u043f --\u0421\u0422\u0418\u041f");
  // A letter of a fourth script in the word.
  CHECK(ortho_fixed("en", "C\u043e\u4e2d") == "C\u043e\u4e2d");
  // No language, no repair; plain ASCII is never touched.
  std::string s = "C\u043empany";
  CHECK_FALSE(filter::Orthography().apply(s));
  std::string a = "Company and col.lection";
  CHECK_FALSE(filter::Orthography("en").apply(a));
}

TEST_CASE("orthography: Romanian comma below, Catalan ela geminada, Dutch ij") {
  CHECK(ortho_fixed("ro", "\u015ei \u0163ara \u015fi \u0162\u0103rii") == "\u0218i \u021bara \u0219i \u021a\u0103rii");
  // Turkish keeps its cedilla.
  CHECK(ortho_fixed("tr", "\u015fehir") == "\u015fehir");
  CHECK(ortho_fixed("ca", "col.lecci\u00f3, intel\u2022ligent, para\u0140lel, PARA\u013fLEL") ==
        "col\u00b7lecci\u00f3, intel\u00b7ligent, paral\u00b7lel, PARAL\u00b7LEL");
  // Not between letters: a sentence end, a file name.
  CHECK(ortho_fixed("ca", "Final.l Vull fitxer.l") == "Final.l Vull fitxer.l");
  CHECK(ortho_fixed("es", "col.lecci\u00f3") == "col.lecci\u00f3");
  CHECK(ortho_fixed("nl", "\u0133s en \u0132sland") == "ijs en IJsland");
  CHECK(ortho_fixed("de", "\u0133s") == "\u0133s");
  // The ij written for the ligature makes a word of the Cyrillic o after it
  // (a fuzz finding: the second pass repaired it).
  CHECK(ortho_fixed("nl", "\u0133\u043e:") == "ijo:");
}

TEST_CASE("orthography: the ortho fixer step") {
  const auto all = filter::Fixers::parse("all");
  CHECK(all.spec() == "all");
  std::string s = "C\u043empany \u015fi";
  CHECK(all.apply(s, filter::Orthography("ro")));
  CHECK(s == "Company \u0219i");
  // Without the side's language ortho does nothing.
  std::string t = "C\u043empany";
  CHECK_FALSE(all.apply(t));
  const auto only = filter::Fixers::parse("nfc+ortho");
  CHECK(only.spec() == "nfc+ortho");
  std::string u = "C\u043empany";
  CHECK(only.apply(u, filter::Orthography("en")));
  CHECK(u == "Company");
}
