// WarcReader on damaged input: skipping always moves forward, and sizes from
// headers are never allocated before the bytes are there.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "libcorpus/core/error.h"
#include "libcorpus/core/warc.h"
#include "support/memory_source.h"

using namespace corpus;

namespace {

// Serves a string in reads of at most `step` bytes and records the largest
// read asked for (the reader's buffer grows to hold what it asks).
struct PieceSource : test::MemorySource {
  explicit PieceSource(std::string s, size_t step = 1 << 20) : MemorySource(std::move(s), step, "t.warc") {}
};

const std::string kGood = "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n";

// Reads like pc-ingest --skip-bad: a bad record counts and the reader
// resyncs. Stops after `limit` rounds so that a reader that loops fails the
// test instead of hanging it.
struct Tally {
  int good = 0, bad = 0;
  bool ended = false;
};
Tally skip_bad_read(ByteSource& src, int limit = 100) {
  WarcReader r(src, 1 << 20);
  Tally t;
  WarcRecord rec;
  for (int i = 0; i < limit; ++i) {
    try {
      if (!r.next(rec)) {
        t.ended = true;
        return t;
      }
      ++t.good;
    } catch (const Error&) {
      ++t.bad;
      if (!r.resync()) {
        t.ended = true;
        return t;
      }
    }
  }
  return t;
}

}  // namespace

TEST_CASE("WARC --skip-bad: a good record then one with a bad header ends, each record counted once") {
  const std::string bad = "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: x\r\n\r\nabc\r\n\r\n";
  for (size_t step : {size_t{1} << 20, size_t{7}, size_t{1}}) {
    CAPTURE(step);
    PieceSource src(kGood + bad, step);
    Tally t = skip_bad_read(src);
    CHECK(t.ended);
    CHECK(t.good == 1);
    CHECK(t.bad == 1);
  }
}

TEST_CASE("WARC --skip-bad: the 14 bytes WARC/ LF WARC/1.1 end") {
  PieceSource src("WARC/\nWARC/1.1");
  Tally t = skip_bad_read(src);
  CHECK(t.ended);
  CHECK(t.good == 0);
  CHECK(t.bad == 2);  // the first record's header, then the one resync found (cut short)
}

TEST_CASE("WARC --skip-bad: a bad record between good ones, and one whose wrong length swallowed the next") {
  const std::string bad = "WARC/1.1\r\nContent-Length: 1\r\nbroken header\r\n\r\nx\r\n\r\n";
  const std::string too_long = "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 40\r\n\r\nabc\r\n\r\n";
  PieceSource src(kGood + bad + kGood + too_long + kGood);
  Tally t = skip_bad_read(src);
  CHECK(t.ended);
  CHECK(t.good == 3);
  CHECK(t.bad == 2);
}

TEST_CASE("WARC: a Content-Length of 10 GB on a short file is a truncation error, not a 10 GB buffer") {
  const std::string rec = "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 10000000000\r\n\r\nshort\r\n\r\n";
  PieceSource src(rec);
  WarcReader r(src, uint64_t{100} << 30);  // --max-size 100G
  WarcRecord out;
  try {
    r.next(out);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("truncated: Content-Length is 10000000000 but only 9 bytes follow") !=
          std::string::npos);
  }
  CHECK(src.largest_ask <= (size_t{4} << 20));
}

TEST_CASE("WARC: a large block still reads whole, in reads that grow with what arrived") {
  const std::string block(5'000'000, 'b');
  const std::string rec =
      "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: " + std::to_string(block.size()) + "\r\n\r\n" + block + "\r\n\r\n";
  PieceSource src(rec + kGood);
  WarcReader r(src, 1 << 30);
  WarcRecord out;
  REQUIRE(r.next(out));
  CHECK(out.block == block);
  REQUIRE(r.next(out));
  CHECK(out.block == "abc");
  CHECK_FALSE(r.next(out));
}
