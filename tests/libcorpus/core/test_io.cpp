// Compressed input and atomic output (libcorpus/input.h, output.h, line_reader.h).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/output.h"
#include "support/tmpdir.h"

using namespace corpus;

namespace {

std::string read_all(const std::string& path) {
  auto in = open_input(path);
  std::string s, buf(4096, '\0');
  while (size_t n = in->read(buf.data(), buf.size())) s.append(buf, 0, n);
  return s;
}

std::string sample_text() {
  std::string s;
  for (int i = 0; i < 20000; ++i) s += "line " + std::to_string(i) + "\tligne \xc3\xa9\n";
  return s;
}

}  // namespace

TEST_CASE("compression is recognised by magic bytes") {
  auto d = [](const char* p, size_t n) { return detect_compression(reinterpret_cast<const unsigned char*>(p), n); };
  CHECK(d("\x1f\x8b\x08", 3) == Compression::kGzip);
  CHECK(d("\x28\xb5\x2f\xfd", 4) == Compression::kZstd);
  CHECK(d("\xfd" "7zXZ\0", 6) == Compression::kXz);
  CHECK(d("BZh9", 4) == Compression::kBzip2);
  CHECK(d("BZh0", 4) == Compression::kNone);
  CHECK(d("src_text", 8) == Compression::kNone);
  CHECK(d("\x1f", 1) == Compression::kNone);
  CHECK(compression_for_path("a.tsv.gz") == Compression::kGzip);
  CHECK(compression_for_path("a.zst") == Compression::kZstd);
  CHECK(compression_for_path("a.tsv") == Compression::kNone);
  CHECK(compression_for_path(".gz") == Compression::kNone);
}

TEST_CASE("every compression round-trips, whatever the file is called") {
  TmpDir dir;
  const std::string text = sample_text();
  for (std::string suffix : {".gz", ".zst", ".xz", ".bz2", ""}) {
    CAPTURE(suffix);
    std::string path = dir.path("x.tsv" + suffix);
    write_file(path, text);
    if (!suffix.empty()) CHECK(raw_bytes(path) != text);
    // Rename away the suffix: detection must not depend on it.
    std::string bare = dir.path("bare" + suffix + ".data");
    std::filesystem::rename(path, bare);
    CHECK(read_all(bare) == text);
  }
}

TEST_CASE("concatenated gzip members and zstd frames are read in full") {
  TmpDir dir;
  for (std::string suffix : {".gz", ".zst", ".bz2", ".xz"}) {
    CAPTURE(suffix);
    write_file(dir.path("a" + suffix), "first part\n");
    write_file(dir.path("b" + suffix), "second part\n");
    std::ofstream(dir.path("ab" + suffix), std::ios::binary) << raw_bytes(dir.path("a" + suffix))
                                                             << raw_bytes(dir.path("b" + suffix));
    CHECK(read_all(dir.path("ab" + suffix)) == "first part\nsecond part\n");
  }
}

TEST_CASE("a truncated compressed file is an error naming the file") {
  TmpDir dir;
  const std::string text = sample_text();
  for (std::string suffix : {".gz", ".zst", ".xz", ".bz2"}) {
    CAPTURE(suffix);
    std::string path = dir.path("x" + suffix);
    write_file(path, text);
    std::string bytes = raw_bytes(path);
    std::string cut = dir.path("cut" + suffix);
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    try {
      read_all(cut);
      FAIL("no error for a truncated file");
    } catch (const Error& e) {
      CHECK(e.file() == cut);
      CHECK(std::string(e.what()).find("truncated") != std::string::npos);
      CHECK(e.exit_code() == 1);
    }
  }
}

TEST_CASE("garbage after a gzip member is an error, not silently dropped") {
  TmpDir dir;
  write_file(dir.path("a.gz"), "data\n");
  std::ofstream(dir.path("g.gz"), std::ios::binary) << raw_bytes(dir.path("a.gz")) << "junk";
  CHECK_THROWS_AS(read_all(dir.path("g.gz")), Error);
}

TEST_CASE("a missing file or a directory is an Error with the path") {
  try {
    open_input("/nonexistent/file.tsv");
    FAIL("opened a missing file");
  } catch (const Error& e) {
    CHECK(e.format("pc-x") == "pc-x: /nonexistent/file.tsv: No such file or directory \u2014 check the path");
  }
  CHECK_THROWS_AS(open_input("/"), Error);
}

TEST_CASE("output is written under a temporary name and renamed on commit") {
  TmpDir dir;
  std::string path = dir.path("out.txt");
  {
    Output out(path);
    out.write("hello\n");
    CHECK_FALSE(std::filesystem::exists(path));
    out.commit();
  }
  CHECK(raw_bytes(path) == "hello\n");
  CHECK(dir.count() == 1);
}

TEST_CASE("an output that is never committed leaves nothing behind") {
  TmpDir dir;
  std::string path = dir.path("out.txt.gz");
  write_file(path, "old\n");
  {
    Output out(path);
    out.write("new contents that must not appear\n");
  }  // destroyed as if an exception had unwound the stack
  CHECK(read_all(path) == "old\n");  // the previous file is untouched
  CHECK(dir.count() == 1);
}

TEST_CASE("an unwritable output path is an Error at open") {
  CHECK_THROWS_AS(Output("/nonexistent-dir/out.tsv"), Error);
  CHECK_THROWS_AS(Output("/proc/out.tsv"), Error);
  TmpDir dir;
  CHECK_THROWS_AS(Output(dir.path("")), Error);  // a directory
}

TEST_CASE("existing devices are written directly") {
  Output out("/dev/null");
  out.write("discarded");
  out.commit();
  CHECK(std::filesystem::exists("/dev/null"));
}

TEST_CASE("LineReader: lines, a last line without newline, CR kept, long lines") {
  TmpDir dir;
  std::string big(3'000'000, 'x');  // longer than the initial 1 MiB buffer
  write_file(dir.path("l.txt"), "a\r\n\nb\t c\n" + big + "\nlast");
  auto in = open_input(dir.path("l.txt"));
  LineReader r(*in);
  std::string_view l;
  REQUIRE(r.next(l));
  CHECK(l == "a\r");
  CHECK(r.line_number() == 1);
  REQUIRE(r.next(l));
  CHECK(l.empty());
  REQUIRE(r.next(l));
  CHECK(l == "b\t c");
  REQUIRE(r.next(l));
  CHECK(l.size() == big.size());
  CHECK(r.line_offset() == 9);  // "a\r\n" + "\n" + "b\t c\n"
  REQUIRE(r.next(l));
  CHECK(l == "last");
  CHECK(r.line_number() == 5);
  CHECK_FALSE(r.next(l));
  CHECK_FALSE(r.next(l));
}

TEST_CASE("LineReader: empty input has no lines, a line over the limit is an Error") {
  TmpDir dir;
  write_file(dir.path("empty"), "");
  auto in = open_input(dir.path("empty"));
  LineReader r(*in);
  std::string_view l;
  CHECK_FALSE(r.next(l));

  write_file(dir.path("long"), std::string(5'000'000, 'y') + "\n");
  auto in2 = open_input(dir.path("long"));
  LineReader r2(*in2, 2'000'000);
  CHECK_THROWS_AS(r2.next(l), Error);
}

TEST_CASE("LineReader: a line of exactly the limit passes, one byte more does not") {
  TmpDir dir;
  for (size_t limit : {size_t{10}, size_t{3'000'000}}) {
    write_file(dir.path("ok"), std::string(limit, 'z') + "\nnext\n");
    auto in = open_input(dir.path("ok"));
    LineReader r(*in, limit);
    std::string_view l;
    REQUIRE(r.next(l));
    CHECK(l.size() == limit);
    REQUIRE(r.next(l));
    CHECK(l == "next");
    write_file(dir.path("over"), std::string(limit + 1, 'z') + "\n");
    auto in2 = open_input(dir.path("over"));
    LineReader r2(*in2, limit);
    CHECK_THROWS_WITH_AS(r2.next(l), doctest::Contains("line longer than"), Error);
  }
}

TEST_CASE("refill_window keeps unconsumed bytes, grows to its cap, then says full") {
  TmpDir dir;
  write_file(dir.path("w"), "abcdefghij");
  auto in = open_input(dir.path("w"));
  std::string buf(4, '\0');
  size_t begin = 0, end = 0;
  bool eof = false;
  REQUIRE(refill_window(*in, buf, begin, end, eof, 6) == Refill::kRead);
  CHECK(buf.substr(begin, end - begin) == "abcd");
  begin = 2;  // "ab" consumed
  REQUIRE(refill_window(*in, buf, begin, end, eof, 6) == Refill::kRead);  // moves "cd" to the front
  CHECK(begin == 0);
  CHECK(buf.substr(0, end) == "cdef");
  REQUIRE(refill_window(*in, buf, begin, end, eof, 6) == Refill::kRead);  // full: grows to the cap
  CHECK(buf.size() == 6);
  CHECK(buf.substr(0, end) == "cdefgh");
  CHECK(refill_window(*in, buf, begin, end, eof, 6) == Refill::kFull);
  begin = 6;
  REQUIRE(refill_window(*in, buf, begin, end, eof, 6) == Refill::kRead);
  CHECK(buf.substr(begin, end - begin) == "ij");
  CHECK(refill_window(*in, buf, begin, end, eof, 6) == Refill::kEof);
  CHECK(eof);
  CHECK(refill_window(*in, buf, begin, end, eof, 6) == Refill::kEof);
}

TEST_CASE("PeekableSource gives back what it peeked") {
  TmpDir dir;
  write_file(dir.path("p.zst"), "<tmx>hello</tmx>\n");
  PeekableSource p(open_input(dir.path("p.zst")));
  CHECK(p.peek(4) == "<tmx");
  CHECK(p.peek(100) == "<tmx>hello</tmx>\n");
  std::string s, buf(3, '\0');
  while (size_t n = p.read(buf.data(), buf.size())) s.append(buf, 0, n);
  CHECK(s == "<tmx>hello</tmx>\n");
}

TEST_CASE("TextLines checks every line and names file and line, and an empty file has no lines") {
  TmpDir dir;
  struct Case {
    const char* name;
    std::string data;
    uint64_t bad_line;
    const char* what;
  };
  for (const Case& c : {Case{"t.txt.gz", "ok\ncaf\xc3\xa9\nbad \xff\n", 3, "invalid UTF-8"},
                        Case{"n.txt", std::string("ok\ncaf\xc3\xa9\ntw\0o\n", 14), 3, "NUL"}}) {
    CAPTURE(c.name);
    write_file(dir.path(c.name), c.data);
    TextLines t(dir.path(c.name));
    std::string_view l;
    REQUIRE(t.next(l));
    CHECK(l == "ok");
    REQUIRE(t.next(l));
    CHECK(l == "caf\xc3\xa9");
    try {
      t.next(l);
      FAIL("a bad line accepted");
    } catch (const Error& e) {
      CHECK(e.line() == c.bad_line);
      CHECK(e.file() == dir.path(c.name));
      CHECK(std::string(e.what()).find(c.what) != std::string::npos);
    }
  }
  write_file(dir.path("e.txt.zst"), "");
  TextLines e(dir.path("e.txt.zst"));
  std::string_view l;
  CHECK_FALSE(e.next(l));
}
