// Sentence segmentation: ICU boundaries corrected by the per-language rules.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/nonbreaking.h"
#include "libcorpus/core/segment.h"
#include "libcorpus/core/utf8.h"

using namespace corpus;
using V = std::vector<std::string>;

namespace {
V split(const std::string& text, const std::string& lang, SegmentOptions o = {}) {
  Segmenter s(o);
  return s.split(text, lang);
}
}  // namespace

TEST_CASE("prefix lists: at least 25 languages embedded, parsed, directives") {
  auto langs = embedded_prefix_languages();
  CHECK(langs.size() >= 25);
  for (const auto& l : langs) CHECK_FALSE(prefix_table(l)->empty());
  auto de = prefix_table("de-AT");
  CHECK(de->ordinals);
  CHECK(de->months.count("Oktober"));
  CHECK(de->always.count("Dr"));
  CHECK(prefix_table("en")->numeric.count("No"));
  CHECK(prefix_table("en")->ends.count("etc"));
  CHECK(prefix_table("xx")->empty());
  CHECK(base_language("pt_BR") == "pt");
  CHECK(base_language("no") == "nb");
  CHECK_THROWS_AS(parse_prefix_table("%bogus\n", "t.txt"), Error);
}

TEST_CASE("abbreviations, initials, acronyms and numbers do not end sentences") {
  CHECK(split("Dr. Smith met Mr. Jones. They talked.", "en") == V{"Dr. Smith met Mr. Jones.", "They talked."});
  CHECK(split("J. R. R. Tolkien wrote it. It sold.", "en") == V{"J. R. R. Tolkien wrote it.", "It sold."});
  CHECK(split("See No. 5 here. Then No. Next.", "en") == V{"See No. 5 here.", "Then No.", "Next."});
  CHECK(split("Pi is 3.14 exactly. Version 2.4.1 is out.", "en") == V{"Pi is 3.14 exactly.", "Version 2.4.1 is out."});
  CHECK(split("It works e.g. Linux. Yes.", "en") == V{"It works e.g. Linux.", "Yes."});
  CHECK(split("Apples, pears etc. Then more.", "en") == V{"Apples, pears etc.", "Then more."});
  CHECK(split("Проф. Иванов пришёл. Он ушёл.", "ru") == V{"Проф. Иванов пришёл.", "Он ушёл."});
}

TEST_CASE("the same text without language rules splits after every abbreviation (control)") {
  CHECK(split("Dr. Smith left.", "") == V{"Dr.", "Smith left."});
  SegmentOptions icu;
  icu.icu_only = true;
  CHECK(split("Dr. Smith left.", "en", icu) == V{"Dr.", "Smith left."});
}

TEST_CASE("German ordinals") {
  CHECK(split("Am 3. Oktober kam er. Er blieb bis zum 15. Mai.", "de") ==
        V{"Am 3. Oktober kam er.", "Er blieb bis zum 15. Mai."});
  CHECK(split("Im 19. Jahrhundert war das so. Das war 1990. Dann ging er.", "de") ==
        V{"Im 19. Jahrhundert war das so.", "Das war 1990.", "Dann ging er."});
  // English has no ordinal rule: "3." before a capital ends the sentence.
  CHECK(split("He came 3. Then 4.", "en") == V{"He came 3.", "Then 4."});
}

TEST_CASE("URLs, e-mail addresses and tokens without a space") {
  CHECK(split("Visit https://x.org/a?Q=1 now. Write to a.b@example.org. Thanks!", "en") ==
        V{"Visit https://x.org/a?Q=1 now.", "Write to a.b@example.org.", "Thanks!"});
  CHECK(split("It failed.Retry later.", "en") == V{"It failed.Retry later."});
}

TEST_CASE("quotes, brackets, ellipsis, question marks") {
  CHECK(split("He said \"Stop.\" Then he left.", "en") == V{"He said \"Stop.\"", "Then he left."});
  CHECK(split("Il a dit : « C'est fini. » Puis il est parti.", "fr") ==
        V{"Il a dit : « C'est fini. »", "Puis il est parti."});
  CHECK(split("Er sagte: „Schluss.“ Dann ging er.", "de") == V{"Er sagte: „Schluss.“", "Dann ging er."});
  CHECK(split("Wait… Then go. Wait… then go.", "en") == V{"Wait…", "Then go.", "Wait… then go."});
  CHECK(split("Why? because. Really?", "en") == V{"Why? because.", "Really?"});
}

TEST_CASE("script-specific sentence ends") {
  CHECK(split("日本語です。次の文！最後？", "ja") == V{"日本語です。", "次の文！", "最後？"});
  CHECK(split("「本当ですか？」と彼女は聞いた。誰も答えなかった。", "ja") ==
        V{"「本当ですか？」と彼女は聞いた。", "誰も答えなかった。"});
  CHECK(split("我去了北京。那里人很多。", "zh") == V{"我去了北京。", "那里人很多。"});
  CHECK(split("मैं गया। वह आया॥ ठीक है।", "hi") == V{"मैं गया।", "वह आया॥", "ठीक है।"});
  CHECK(split("هل ستأتي؟ نعم.", "ar") == V{"هل ستأتي؟", "نعم."});
  CHECK(split("کیا آپ آئیں گے؟ میں آؤں گا۔ ٹھیک ہے۔", "ur") == V{"کیا آپ آئیں گے؟", "میں آؤں گا۔", "ٹھیک ہے۔"});
  CHECK(split("Բարեւ։ Ինչպես ես։", "hy") == V{"Բարեւ։", "Ինչպես ես։"});
  CHECK(split("ሰላም ነው። እንዴት ነህ።", "am") == V{"ሰላም ነው።", "እንዴት ነህ።"});
  CHECK(split("မင်္ဂလာပါ။ နေကောင်းလား။", "my") == V{"မင်္ဂလာပါ။", "နေကောင်းလား။"});
  CHECK(split("བཀྲ་ཤིས། བདེ་ལེགས།", "bo") == V{"བཀྲ་ཤིས།", "བདེ་ལེགས།"});
  // Thai, Lao, Khmer: a space between two letters of the script.
  CHECK(split("สวัสดีครับ ผมชื่อสมชาย", "th") == V{"สวัสดีครับ", "ผมชื่อสมชาย"});
  CHECK(split("สวัสดีครับ ผมชื่อสมชาย", "en") == V{"สวัสดีครับ ผมชื่อสมชาย"});
}

TEST_CASE("maximum and minimum length") {
  SegmentOptions o;
  o.max_bytes = 20;
  auto v = split("one two three four five six seven eight nine ten.", "en", o);
  CHECK(v.size() > 1);
  for (const auto& s : v) CHECK(s.size() <= 20);
  o.max_bytes = 10;
  std::string cjk;
  for (int i = 0; i < 20; ++i) cjk += "\xe4\xb8\xad";  // 中, 3 bytes each, no space
  for (const auto& s : split(cjk, "zh", o)) {
    CHECK(s.size() <= 10);
    CHECK(is_valid_utf8(s));
  }
  // A combining mark stays with its base.
  std::string marks;
  for (int i = 0; i < 10; ++i) marks += "e\xcc\x81";  // e + U+0301
  o.max_bytes = 4;
  for (const auto& s : split(marks, "en", o)) CHECK(s.substr(0, 2) != "\xcc\x81");

  SegmentOptions m;
  m.min_bytes = 10;
  CHECK(split("Hi. Ok. This one is long enough. Fine, too.", "en", m) ==
        V{"Hi. Ok. This one is long enough.", "Fine, too."});
  CHECK(split("This one is long enough. Ya.", "en", m) == V{"This one is long enough. Ya."});  // last joins back
}

TEST_CASE("safe_cut prefers clause punctuation and spaces") {
  CHECK(safe_cut("aaaa, bbbb cccc", 13) == 11);   // ", " lies outside the second half: the last space
  CHECK(safe_cut("aaaaaa, bb cc", 12) == 8);      // after ", "
  CHECK(safe_cut("abcdefgh", 5) == 5);
  CHECK(safe_cut("short", 10) == 5);
}

TEST_CASE("a paragraph larger than the window is split the same as in one piece") {
  std::string para;
  std::vector<std::string> want;
  for (int i = 0; para.size() < 2 * kSegmentWindow + 1000; ++i) {
    std::string s = "Sentence number " + std::to_string(i) + " is here, Dr. Who said.";
    para += (para.empty() ? "" : " ") + s;
    want.push_back(s);
  }
  CHECK(split(para, "en") == want);
}
