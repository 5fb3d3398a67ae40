// Placeholders a translation must keep (libcorpus/core/placeholders.h):
// what counts as one, masking with numbered symbols, and the check after
// unmasking.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "libcorpus/core/placeholders.h"

using namespace corpus;

namespace {

std::vector<std::string> found(std::string_view s) {
  std::vector<std::string> out;
  for (const PlaceholderSpan& p : find_placeholders(s)) out.emplace_back(s.substr(p.begin, p.end - p.begin));
  return out;
}

}  // namespace

TEST_CASE("placeholders: printf, Qt, braces, tags and character references are found whole") {
  CHECK(found("Cannot open %s: %.250s (%1$s, %2$d)") == std::vector<std::string>{"%s", "%.250s", "%1$s", "%2$d"});
  CHECK(found("%(count)d files, 100%% done, %-10lu %5.2f %lld %p") ==
        std::vector<std::string>{"%(count)d", "%%", "%-10lu", "%5.2f", "%lld", "%p"});
  CHECK(found("Copy %1 to %2, %10 items") == std::vector<std::string>{"%1", "%2", "%10"});
  CHECK(found("Hello {0}, {name} and {user.id}") == std::vector<std::string>{"{0}", "{name}", "{user.id}"});
  CHECK(found("<b>%s</b><br/><a href=\"https://x.org/\">link</a>") ==
        std::vector<std::string>{"<b>", "%s", "</b>", "<br/>", "<a href=\"https://x.org/\">", "</a>"});
  CHECK(found("Tom &amp; Jerry&#160;&#xA0;") == std::vector<std::string>{"&amp;", "&#160;", "&#xA0;"});
}

TEST_CASE("placeholders: text that only looks like one is left alone") {
  CHECK(found("50% off, 100 %, a < b > c, R&D, &;, { x }, {}, %0, %, <3, <<b>") == std::vector<std::string>{"<b>"});
  CHECK(found("").empty());
  CHECK(found("%").empty());
  CHECK(found("&#;").empty());
}

TEST_CASE("placeholders: masking numbers them by first occurrence and unmasking restores the text") {
  const Masked m = mask_placeholders("<b>%s</b> of %d, again %s");
  CHECK(m.values == std::vector<std::string>{"<b>", "%s", "</b>", "%d"});
  CHECK(m.counts == std::vector<size_t>{1, 2, 1, 1});
  CHECK(m.text == "⦃1⦄⦃2⦄⦃3⦄ of ⦃4⦄, again ⦃2⦄");
  bool bad = true;
  CHECK(unmask_placeholders("⦃4⦄ de ⦃1⦄⦃2⦄⦃3⦄, encore ⦃2⦄", m, &bad) == "%d de <b>%s</b>, encore %s");
  CHECK_FALSE(bad);
  // The target side of a training pair takes the source's numbers; what the source lacks stays text.
  CHECK(mask_like("%d de <b>%s</b> <i>x</i>", m) == "⦃4⦄ de ⦃1⦄⦃2⦄⦃3⦄ <i>x</i>");
}

TEST_CASE("placeholders: a symbol lost, repeated or invented is a mismatch") {
  const Masked m = mask_placeholders("Open %s in {0}");
  bool bad = false;
  CHECK(unmask_placeholders("Ouvrir ⦃1⦄", m, &bad) == "Ouvrir %s");
  CHECK(bad);
  CHECK(unmask_placeholders("⦃1⦄ ⦃1⦄ ⦃2⦄", m, &bad) == "%s %s {0}");
  CHECK(bad);
  CHECK(unmask_placeholders("⦃1⦄ ⦃2⦄ ⦃7⦄", m, &bad) == "%s {0} ");
  CHECK(bad);
  CHECK(unmask_placeholders("⦃x⦄ ⦃2⦄ ⦃1⦄", m, &bad) == "⦃x⦄ {0} %s");
  CHECK_FALSE(bad);
}

TEST_CASE("placeholders: past the symbols there are, placeholders stay text") {
  std::string s;
  for (size_t i = 1; i <= kMaxPlaceholders + 2; ++i) s += "{" + std::to_string(i) + "} ";
  const Masked m = mask_placeholders(s);
  CHECK(m.values.size() == kMaxPlaceholders);
  CHECK(m.text.find("{17} {18}") != std::string::npos);
  bool bad = true;
  CHECK(unmask_placeholders(m.text, m, &bad) == s);
  CHECK_FALSE(bad);
}
