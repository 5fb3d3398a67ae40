// Pharaoh alignment lines (libcorpus/core/pharaoh.h): the writer pc-ibm1
// prints with and the reader AER scoring parses with.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/pharaoh.h"

using corpus::AlignLink;

namespace {
std::vector<AlignLink> sure_of(std::string_view line) {
  std::vector<AlignLink> s;
  corpus::parse_pharaoh(line, s);
  return s;
}
}  // namespace

TEST_CASE("pharaoh: the writer puts i-j links in the given order, space-separated, no newline") {
  std::string out = "x\t";
  corpus::append_pharaoh(out, {{0, 0}, {2, 1}, {1, 10}});
  CHECK(out == "x\t0-0 2-1 1-10");
  std::string none;
  corpus::append_pharaoh(none, {});
  CHECK(none.empty());
}

TEST_CASE("pharaoh: the reader keeps line order and repeats, and reads back what the writer wrote") {
  const std::vector<AlignLink> links{{3, 1}, {0, 2}, {3, 1}, {123456789, 0}};
  std::string line;
  corpus::append_pharaoh(line, links);
  CHECK(sure_of(line) == links);
  CHECK(sure_of(" \t0-1\r  2-3 \r") == std::vector<AlignLink>{{0, 1}, {2, 3}});
  CHECK(sure_of("").empty());
  CHECK(sure_of("  \t").empty());
}

TEST_CASE("pharaoh: gold lines split sure i-j from possible i?j and ipj links") {
  std::vector<AlignLink> sure{{9, 9}}, possible{{9, 9}};
  corpus::parse_pharaoh("0-0 1?2 3p4 5-6", sure, &possible);
  CHECK(sure == std::vector<AlignLink>{{0, 0}, {5, 6}});
  CHECK(possible == std::vector<AlignLink>{{1, 2}, {3, 4}});
  // Without a place for possible links, '?' and 'p' are no separators.
  CHECK_THROWS_AS(sure_of("1?2"), corpus::Error);
  CHECK_THROWS_AS(sure_of("3p4"), corpus::Error);
}

TEST_CASE("pharaoh: malformed links are refused with the link quoted and the expected form") {
  for (const char* bad : {"0-", "-1", "1", "a-1", "0-1-2", "1234567890-0", "0--1", "+1-2"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(sure_of(bad), corpus::Error);
  }
  try {
    sure_of("0-0 x-1");
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(std::string(e.what()).find("malformed alignment link") != std::string::npos);
    CHECK(std::string(e.what()).find("x-1") != std::string::npos);
  }
  std::vector<AlignLink> s, p;
  CHECK_THROWS_WITH_AS(corpus::parse_pharaoh("1?", s, &p), doctest::Contains("malformed alignment link"), corpus::Error);
}
