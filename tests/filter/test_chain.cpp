// The chain string: parsing, canonical form, and errors that name the item.
#include <doctest/doctest.h>

#include <string>

#include "filter/chain.h"
#include "filter/fixers.h"
#include "libcorpus/core/error.h"

using filter::Chain;
using filter::RuleKind;

namespace {
std::string error_of(const std::string& spec) {
  try {
    Chain::parse(spec);
  } catch (const corpus::ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("chain: the issue's example parses and prints back the same") {
  const std::string spec = "fix=all,len=1:200,ratio=3,lid,dedup=near,ibm1>=0.2";
  Chain c = Chain::parse(spec);
  CHECK(c.has_fix);
  REQUIRE(c.rules.size() == 5);
  CHECK(c.rules[0].kind == RuleKind::kLen);
  CHECK(c.rules[0].a == 1);
  CHECK(c.rules[0].b == 200);
  CHECK(c.rules[4].kind == RuleKind::kIbm1);
  CHECK(c.rules[4].a == doctest::Approx(0.2));
  CHECK(c.spec() == spec);
  CHECK(Chain::parse(c.spec()).spec() == spec);
}

TEST_CASE("chain: lid=short parses and prints back") {
  const Chain c = Chain::parse("len=1:200,lid=short,dedup=exact");
  REQUIRE(c.rules.size() == 3);
  CHECK(c.rules[1].kind == filter::RuleKind::kLid);
  CHECK(c.rules[1].arg == "short");
  CHECK(c.rules[1].name() == "lid");
  CHECK(c.spec() == "len=1:200,lid=short,dedup=exact");
  CHECK(Chain::parse("lid").rules[0].arg.empty());
}

TEST_CASE("chain: the default chain parses and round-trips") {
  Chain c = Chain::parse(filter::kDefaultChain);
  CHECK(c.spec() == filter::kDefaultChain);
  CHECK(c.has(RuleKind::kLid));
  CHECK_FALSE(c.without_lang_rules().has(RuleKind::kLid));
  CHECK_FALSE(c.without_lang_rules().has(RuleKind::kScript));
  CHECK(c.without_lang_rules().has(RuleKind::kDedup));
}

TEST_CASE("chain: bad items are ConfigErrors that name the item") {
  CHECK(error_of("len=1:200,lenght=3").find("'lenght=3'") != std::string::npos);
  CHECK(error_of("len=200").find("'len=200'") != std::string::npos);
  CHECK(error_of("len=5:1").find("MIN <= MAX") != std::string::npos);
  CHECK(error_of("ratio=x").find("not a number") != std::string::npos);
  CHECK(error_of("ratio=0.5").find("at least 1") != std::string::npos);
  CHECK(error_of("alpha=2").find("between 0 and 1") != std::string::npos);
  CHECK(error_of("ibm1=0.2").find("ibm1>=") != std::string::npos);
  CHECK(error_of("lid=fr").find("takes no value but short") != std::string::npos);
  CHECK(error_of("lid>=short").find("takes no value") != std::string::npos);
  CHECK(error_of("dedup=fuzzy").find("exact or") != std::string::npos);
  CHECK(error_of("repeat=2.5").find("whole number") != std::string::npos);
  CHECK(error_of("len=1:2,,same").find("empty item") != std::string::npos);
  CHECK(error_of("same,same").find("twice") != std::string::npos);
  CHECK(error_of("fix=mojibake+bogus").find("unknown fixer 'bogus'") != std::string::npos);
  CHECK(error_of("").empty());
}

TEST_CASE("fixers: each step on its own, all, and the ASCII fast path") {
  std::string s = "caf\xc3\x83\xc2\xa9 &amp; \xe2\x80\x9cquotes\xe2\x80\x9d  end ";
  CHECK(filter::Fixers::parse("all").apply(s));
  CHECK(s == "caf\xc3\xa9 & \"quotes\" end");
  std::string e = "a &lt;b&gt;  c";
  CHECK(filter::Fixers::parse("entities").apply(e));
  CHECK(e == "a <b>  c");  // ws was not asked for
  std::string w = "a\x01 b  ";
  CHECK(filter::Fixers::parse("ctrl+ws").apply(w));
  CHECK(w == "a b");
  std::string plain = "nothing to do here";
  CHECK_FALSE(filter::Fixers::parse("all").apply(plain));
  CHECK(filter::Fixers::parse("entities+ws").spec() == "entities+ws");
  CHECK(filter::Fixers::parse("none").empty());
}
