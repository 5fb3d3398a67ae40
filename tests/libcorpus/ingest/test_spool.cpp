// The ingest spool: what spool_encode writes, spool_decode reads back, and a
// damaged line is an Error, never a wrong document.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <string>

#include "libcorpus/core/error.h"
#include "libcorpus/ingest/ingest_spool.h"
#include "support/tmpdir.h"

using namespace corpus;

namespace {

Extracted sample() {
  Extracted x;
  x.url = "http://example.test/a?b=c\td";  // a tab where none should be
  x.host = "example.test";
  x.page_lang = "zh-Hant";
  x.beside_dropped = "10001";
  x.title = "Title with \\ backslash\nand newline";
  x.mime = "text/html";
  x.charset = "utf-8";
  x.date = "2024-01-01T00:00:00Z";
  x.input = "in\\put.warc.gz";
  x.is_warc = true;
  x.offset = 18446744073709551615ULL;
  x.length = 12345;
  x.paras = {"first paragraph", "tab\there, newline\nthere, backslash \\ and \\t literal", "",
             "caf\xC3\xA9 \xFF bytes pass unchanged", "last"};
  return x;
}

}  // namespace

TEST_CASE("spool: a document round-trips, escapes included, on one line") {
  Extracted x = sample();
  std::string line;
  spool_encode(x, line);
  REQUIRE(line.back() == '\n');
  CHECK(line.find('\n') == line.size() - 1);  // one line
  SpoolDoc d;
  spool_decode(std::string_view(line).substr(0, line.size() - 1), d);
  CHECK(d.url == x.url);
  CHECK(d.host == x.host);
  CHECK(d.page_lang == x.page_lang);
  CHECK(d.beside_dropped == x.beside_dropped);
  CHECK(d.title == x.title);
  CHECK(d.mime == x.mime);
  CHECK(d.charset == x.charset);
  CHECK(d.date == x.date);
  CHECK(d.input == x.input);
  CHECK(d.is_warc);
  CHECK(d.offset == x.offset);
  CHECK(d.length == x.length);
  CHECK(d.paras == x.paras);

  // The decoder reuses its strings: a shorter document after a longer one.
  Extracted y;
  y.url = "u";
  y.paras = {"only"};
  std::string line2;
  spool_encode(y, line2);
  spool_decode(std::string_view(line2).substr(0, line2.size() - 1), d);
  CHECK(d.url == "u");
  CHECK(d.title.empty());
  CHECK_FALSE(d.is_warc);
  REQUIRE(d.paras.size() == 1);
  CHECK(d.paras[0] == "only");
}

TEST_CASE("spool: a document without paragraphs") {
  Extracted x;
  x.url = "file.txt";
  std::string line;
  spool_encode(x, line);
  SpoolDoc d;
  d.paras = {"left over"};
  spool_decode(std::string_view(line).substr(0, line.size() - 1), d);
  CHECK(d.url == "file.txt");
  CHECK(d.paras.empty());
}

TEST_CASE("spool: damaged lines are errors") {
  std::string line;
  spool_encode(sample(), line);
  line.pop_back();
  SpoolDoc d;
  // cut before the numbers: a field is missing
  size_t cut = 0;
  for (int tabs = 0; tabs < 8; ++tabs) cut = line.find('\t', cut) + 1;
  CHECK_THROWS_AS(spool_decode(std::string_view(line).substr(0, cut - 1), d), Error);
  CHECK_THROWS_AS(spool_decode("", d), Error);
  CHECK_THROWS_AS(spool_decode("just one field", d), Error);
  // a number that is not one
  CHECK_THROWS_WITH_AS(spool_decode("u\th\tt\tm\tc\td\ti\t1\t12x\t5\tp", d), "corrupt ingest spool (a number)", Error);
  CHECK_THROWS_AS(spool_decode("u\th\tt\tm\tc\td\ti\t1\t\t5\tp", d), Error);
  CHECK_THROWS_AS(spool_decode("u\th\tt\tm\tc\td\ti\t1\t-3\t5\tp", d), Error);
  CHECK_THROWS_AS(spool_decode("u\th\tt\tm\tc\td\ti\t1\t99999999999999999999\t5\tp", d), Error);
}

TEST_CASE("spool: the temporary file is made in TMPDIR (tmpfile(3) ignored it)") {
  TmpDir dir;
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  ::setenv("TMPDIR", dir.dir.c_str(), 1);
  std::FILE* f = open_spool_file();
  REQUIRE(f != nullptr);
  CHECK(std::fputs("spooled", f) >= 0);
  // O_TMPFILE names the file "DIR/#inode (deleted)"; a mkstemp name is gone at once.
  char target[4096] = {};
  const std::string fd_link = "/proc/self/fd/" + std::to_string(fileno(f));
  const ssize_t n = ::readlink(fd_link.c_str(), target, sizeof target - 1);
  if (n > 0) CHECK(std::string(target).rfind(dir.dir, 0) == 0);
  CHECK(dir.count() == 0);
  std::fclose(f);
  // A TMPDIR that does not exist is an error naming it, not a file in /tmp.
  ::setenv("TMPDIR", (dir.dir + "/missing").c_str(), 1);
  try {
    std::FILE* g = open_spool_file();
    std::fclose(g);
    FAIL("a missing TMPDIR was accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("/missing") != std::string::npos);
  }
  if (old) ::setenv("TMPDIR", saved.c_str(), 1);
  else ::unsetenv("TMPDIR");
}
