// gzip input (libcorpus/core/input.cpp, ISA-L's inflate behind our own member
// header reader): the header fields of RFC 1952 section 2.3, wherever a read
// boundary falls in them, and the checks zlib makes (tests/fuzz/fuzz_gzip.cpp
// compares the two on arbitrary bytes).
#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "support/tmpdir.h"

using namespace corpus;

namespace {

uint32_t crc32_of(std::string_view s) {
  return static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(s.data()), static_cast<uInt>(s.size())));
}

std::string le(uint64_t v, int bytes) {
  std::string s;
  for (int i = 0; i < bytes; ++i) s += static_cast<char>((v >> (8 * i)) & 0xFF);
  return s;
}

struct Fields {
  std::string extra, name, comment;
  bool extra_on = false, name_on = false, comment_on = false, hcrc = false;
  unsigned char method = 8, reserved = 0;
};

// One member: the header `f` asks for, `text` in stored deflate blocks, the
// trailer (CRC-32 and length, each changeable to test the checks).
std::string member(std::string_view text, const Fields& f, uint32_t crc_xor = 0, uint32_t size_add = 0) {
  std::string h = "\x1f\x8b";
  h += static_cast<char>(f.method);
  h += static_cast<char>((f.hcrc ? 2 : 0) | (f.extra_on ? 4 : 0) | (f.name_on ? 8 : 0) | (f.comment_on ? 16 : 0) |
                         f.reserved);
  h += std::string(4, '\0') + '\0' + '\x03';
  if (f.extra_on) h += le(f.extra.size(), 2) + f.extra;
  if (f.name_on) h += f.name + '\0';
  if (f.comment_on) h += f.comment + '\0';
  if (f.hcrc) h += le(crc32_of(h) & 0xFFFF, 2);
  std::string body;
  size_t pos = 0;
  do {
    const size_t n = std::min<size_t>(text.size() - pos, 65535);
    const bool last = pos + n == text.size();
    body += static_cast<char>(last ? 1 : 0);
    body += le(n, 2) + le(~n & 0xFFFF, 2);
    body += text.substr(pos, n);
    pos += n;
  } while (pos < text.size());
  return h + body + le(crc32_of(text) ^ crc_xor, 4) + le(text.size() + size_add, 4);
}

std::string read_file_with(const std::string& path, size_t read_size) {
  auto in = open_input(path);
  std::string s, buf(read_size, '\0');
  while (size_t n = in->read(buf.data(), buf.size())) s.append(buf, 0, n);
  return s;
}

std::string error_of(const std::string& path) {
  try {
    read_file_with(path, 4096);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("gzip members with every optional header field decode, in reads of any size") {
  TmpDir dir;
  const std::string text = "Grüße aus Köln\nline two\n";
  Fields all;
  all.extra_on = all.name_on = all.comment_on = all.hcrc = true;
  all.extra = std::string("AB\x04\0data", 8);
  all.name = "page.html";
  all.comment = "a comment";
  Fields extra_empty;
  extra_empty.extra_on = true;
  for (const Fields& f : {Fields{}, all, extra_empty}) {
    const std::string path = dir.path("m.gz");
    std::ofstream(path, std::ios::binary) << member(text, f) << member("second\n", all) << member("", Fields{});
    for (size_t read_size : {1, 7, 4096}) {
      CAPTURE(read_size);
      CHECK(read_file_with(path, read_size) == text + "second\n");
    }
  }
}

TEST_CASE("a gzip header longer than one input read, with its CRC, decodes") {
  // The reader takes the file in 128 KiB reads: a 200 KB file name puts the
  // header's end, and its CRC, in the second read.
  TmpDir dir;
  Fields f;
  f.name_on = f.hcrc = f.comment_on = true;
  f.name = std::string(200000, 'n');
  f.comment.assign(1, 'c');
  const std::string big(150000, 'x');
  const std::string path = dir.path("long.gz");
  std::ofstream(path, std::ios::binary) << member("head\n", Fields{}) << member(big, f) << member("tail\n", f);
  CHECK(read_file_with(path, 65536) == "head\n" + big + "tail\n");
}

TEST_CASE("a read boundary anywhere in a trailer or the next member's header changes nothing") {
  // open_input reads 6 bytes to tell the format, then 128 KiB at a time: a
  // read ends at byte 6 + 131072. The first member's stored text is sized so
  // that its 8-byte trailer, then the next member's header (FNAME and FHCRC:
  // 14 bytes), starts `shift` bytes before that boundary.
  constexpr size_t kBoundary = 6 + 131072;
  TmpDir dir;
  Fields next;
  next.name_on = next.hcrc = true;
  next.name = "x";
  for (size_t shift = 0; shift <= 24; ++shift) {
    CAPTURE(shift);
    // 10 header bytes, then two stored blocks of 5 header bytes each.
    const std::string first(kBoundary - shift - 10 - 2 * 5, 'a');
    const std::string m = member(first, Fields{});
    REQUIRE(m.size() - 8 == kBoundary - shift);
    const std::string path = dir.path("split.gz");
    std::ofstream(path, std::ios::binary) << m << member("second\n", next);
    CHECK(read_file_with(path, 65536) == first + "second\n");
  }
}

TEST_CASE("gzip headers and trailers are checked as zlib checks them") {
  TmpDir dir;
  const std::string text = "some text\n";
  auto write = [&](const std::string& bytes) {
    const std::string path = dir.path("bad.gz");
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  };
  Fields hcrc;
  hcrc.hcrc = hcrc.name_on = true;
  hcrc.name = "x";
  std::string bad_hcrc = member(text, hcrc);
  bad_hcrc[12] ^= 1;  // the header CRC's low byte (10 fixed bytes, "x\0")
  CHECK(error_of(write(bad_hcrc)).find("header crc mismatch") != std::string::npos);
  Fields reserved;
  reserved.reserved = 0x20;
  CHECK(error_of(write(member(text, reserved))).find("unknown header flags set") != std::string::npos);
  Fields method;
  method.method = 7;
  CHECK(error_of(write(member(text, method))).find("unknown compression method") != std::string::npos);
  CHECK(error_of(write(member(text, Fields{}, 1))).find("CRC or length check failed") != std::string::npos);
  CHECK(error_of(write(member(text, Fields{}, 0, 1))).find("CRC or length check failed") != std::string::npos);
  // Cut in the trailer, in the header, and right after the magic bytes.
  const std::string whole = member(text, hcrc);
  for (size_t keep : {whole.size() - 3, size_t{11}, size_t{2}}) {
    CAPTURE(keep);
    CHECK(error_of(write(whole.substr(0, keep))).find("truncated gzip data") != std::string::npos);
  }
  CHECK(error_of(write(whole + "\x1f")).find("truncated gzip data") != std::string::npos);
  CHECK(error_of(write(whole + "x")).find("trailing garbage") != std::string::npos);
}
