// PieceReader: lines in bounded memory, long ones in marked pieces cut at
// sentence ends, spaces or character boundaries, and checked for UTF-8.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/paragraph_reader.h"
#include "support/memory_source.h"

using namespace corpus;

namespace {

// A source that hands out its text `chunk` bytes at a time, so pieces and
// lines straddle reads.
struct TextSource : test::MemorySource {
  TextSource(std::string text, size_t chunk) : MemorySource(std::move(text), chunk, "text.txt") {}
};

struct Record {
  std::string text;
  uint64_t line;
};

std::vector<Record> read_all(const std::string& text, size_t max_piece, bool skip_bad = false, size_t chunk = 7) {
  TextSource src(text, chunk);
  PieceReader r(src, max_piece, true, skip_bad);
  std::vector<Record> out;
  std::string s;
  while (r.next(s)) {
    out.push_back({s, r.line_number()});
    s.clear();
  }
  return out;
}

// The line back from its pieces: the '\n' marks removed.
std::string joined(const std::vector<Record>& recs) {
  std::string line;
  for (const auto& r : recs) {
    std::string t = r.text;
    t.erase(std::remove(t.begin(), t.end(), '\n'), t.end());
    line += t;
  }
  return line;
}

}  // namespace

TEST_CASE("paragraph reader: short lines come whole, with their line numbers") {
  auto recs = read_all("first line\n\nthird line\nlast without newline", 100);
  REQUIRE(recs.size() == 4);
  CHECK(recs[0].text == "first line");
  CHECK(recs[1].text.empty());
  CHECK(recs[2].text == "third line");
  CHECK(recs[2].line == 3);
  CHECK(recs[3].text == "last without newline");
  CHECK(recs[3].line == 4);
  CHECK(read_all("", 100).empty());
}

TEST_CASE("paragraph reader: a long line comes in marked pieces of at most max_piece bytes") {
  std::string line;
  for (int i = 0; i < 40; ++i) line += "Sentence number " + std::to_string(i) + " is here. ";
  auto recs = read_all(line + "\nnext\n", 64);
  REQUIRE(recs.size() > 2);
  CHECK(recs.back().text == "next");
  CHECK(recs.back().line == 2);
  recs.pop_back();
  for (size_t i = 0; i < recs.size(); ++i) {
    INFO("piece " << i << ": " << recs[i].text);
    const std::string& t = recs[i].text;
    CHECK(recs[i].line == 1);
    CHECK((i == 0) == (t.front() != '\n'));             // a continuation starts with '\n'
    CHECK((i + 1 == recs.size()) == (t.back() != '\n'));  // a piece that goes on ends with '\n'
    std::string body = t.substr(i == 0 ? 0 : 1);
    if (!body.empty() && body.back() == '\n') body.pop_back();
    CHECK(body.size() <= 64);
    if (i + 1 < recs.size()) CHECK(body.substr(body.size() - 2) == ". ");  // cut after a sentence and its space
  }
  CHECK(joined(recs) == line);
}

TEST_CASE("paragraph reader: cut points without sentence marks") {
  SUBCASE("at a space in the piece's last quarter") {
    std::string line;
    for (int i = 0; i < 30; ++i) line += "word" + std::to_string(i) + " ";
    auto recs = read_all(line + "\n", 50);
    REQUIRE(recs.size() > 1);
    std::string first = recs[0].text.substr(0, recs[0].text.size() - 1);
    CHECK(first.back() == ' ');
    CHECK(first.size() <= 50);
    CHECK(first.size() > 50 * 3 / 4);
    CHECK(joined(recs) == line);
  }
  SUBCASE("at a character boundary when there is no space") {
    std::string line;
    for (int i = 0; i < 100; ++i) line += "\xC3\xA9\xE2\x82\xAC";  // é€, 2 + 3 bytes
    auto recs = read_all(line + "\n", 32);
    REQUIRE(recs.size() > 1);
    for (const auto& r : recs) {
      std::string t = r.text;
      t.erase(std::remove(t.begin(), t.end(), '\n'), t.end());
      CHECK(t.size() <= 32);
      // never cut inside a character: each piece starts with a lead byte
      CHECK((static_cast<unsigned char>(t[0]) & 0xC0) != 0x80);
    }
    CHECK(joined(recs) == line);
  }
}

TEST_CASE("paragraph reader: invalid UTF-8 in a piece stops the run, or is repaired with skip_bad") {
  std::string line = std::string(100, 'a') + "\xFF" + std::string(100, 'b');
  CHECK_THROWS_AS(read_all(line + "\n", 64), Error);
  try {
    read_all(line + "\n", 64);
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("byte 101 of the line") != std::string::npos);
  }
  TextSource src(line + "\n", 9);
  PieceReader r(src, 64, true, true);
  std::string all, s;
  while (r.next(s)) all += s, s.clear();
  CHECK(r.repaired() == 1);
  CHECK(all.find("\xEF\xBF\xBD") != std::string::npos);  // U+FFFD
  CHECK(all.find('\xFF') == std::string::npos);
}

TEST_CASE("paragraph reader: without pieces a long line is an error with its line number") {
  TextSource src("short\n" + std::string(200, 'x') + "\n", 16);
  PieceReader r(src, 64, false, false);
  std::string s;
  CHECK(r.next(s));
  s.clear();
  try {
    r.next(s);
    FAIL("no error");
  } catch (const Error& e) {
    std::string w = e.what();
    CHECK(w.find("line longer than 64 bytes") != std::string::npos);
    CHECK(e.line() == 2);
  }
}
