// The WARC a crawl appends to and the state file that names it
// (warc_append.h, crawl_state.h): a state resumes only its own WARC.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "libcorpus/core/error.h"
#include "libcorpus/web/crawl_state.h"
#include "libcorpus/web/warc_append.h"
#include "support/tmpdir.h"

using namespace corpus;

namespace {

// A mark of `path` after writing `data` to it afresh.
WarcMark written(const std::string& path, const std::string& data) {
  WarcAppendFile f(path);
  f.write(data);
  return f.sync();
}

}  // namespace

TEST_CASE("warc append: resuming cuts what was written after the mark, then appends") {
  TmpDir t;
  const std::string a = t.path("a.warc");
  WarcMark m;
  {
    WarcAppendFile f(a);
    f.write("record 1\n");
    m = f.sync();
    f.write("record 2, not in the state\n");
  }
  CHECK(m.path == warc_mark_path(a));
  CHECK(m.bytes == 9);
  WarcAppendFile f(a, m);
  CHECK(f.size() == 9);
  f.write("record 2\n");
  CHECK(f.sync().bytes == 18);
  CHECK(raw_bytes(a) == "record 1\nrecord 2\n");
}

TEST_CASE("warc append: another file, a shorter one or other bytes are refused, the file untouched") {
  TmpDir t;
  const std::string a = t.path("a.warc"), b = t.path("b.warc");
  const WarcMark m = written(a, std::string(100000, 'a'));
  put_bytes(b, std::string(300000, 'b'));
  CHECK_THROWS_WITH_AS(WarcAppendFile(b, m), doctest::Contains("belongs to another WARC"), Error);
  CHECK(raw_bytes(b) == std::string(300000, 'b'));
  // The same path rewritten: longer, but other bytes before the mark.
  put_bytes(a, std::string(200000, 'b'));
  CHECK_THROWS_WITH_AS(WarcAppendFile(a, m), doctest::Contains("not those the state file recorded"), Error);
  CHECK(raw_bytes(a) == std::string(200000, 'b'));
  put_bytes(a, std::string(99999, 'a'));
  CHECK_THROWS_WITH_AS(WarcAppendFile(a, m), doctest::Contains("shorter (99999 bytes) than the state says (100000)"),
                       Error);
  std::filesystem::remove(a);
  CHECK_THROWS_AS(WarcAppendFile(a, m), Error);
  CHECK_FALSE(std::filesystem::exists(a));
  // The bytes beyond the last kWarcTailBytes before the mark are not compared.
  put_bytes(a, std::string(100000 - kWarcTailBytes, 'x') + std::string(kWarcTailBytes, 'a'));
  CHECK_NOTHROW(WarcAppendFile(a, m));
}

TEST_CASE("crawl state: saved with its WARC's mark, resumed from it, refused without one") {
  TmpDir t;
  const std::string s = t.path("s.state"), a = t.path("a.warc");
  CrawlOptions o;
  o.seeds = {"http://127.0.0.1:9/"};
  {
    CrawlStateFile st(s, a);
    CHECK_FALSE(st.resuming());
    WarcWriter warc(WarcCompression::kNone, [&](std::string_view b) { st.warc().write(b); });
    Crawler crawler(o, warc, {}, {});
    st.warc().write("WARC/1.1\r\n");
    st.save(crawler, true);
  }
  {
    CrawlStateFile st(s, a);
    CHECK(st.resuming());
    CHECK(st.saved_queued() == 0);
    CHECK(st.saved().at("warc").at("bytes") == 10);
  }
  CHECK_THROWS_WITH_AS(CrawlStateFile(s, t.path("b.warc")), doctest::Contains("belongs to another WARC"), Error);
  CHECK_FALSE(std::filesystem::exists(t.path("b.warc")));
  put_bytes(s, "{\"version\": 1, \"warc_bytes\": 10}\n");  // a state of an older pc-crawl
  CHECK_THROWS_WITH_AS(CrawlStateFile(s, a), doctest::Contains("names no WARC"), Error);
  put_bytes(s, "garbage");
  CHECK_THROWS_WITH_AS(CrawlStateFile(s, a), doctest::Contains("not a pc-crawl state file"), Error);
  CHECK(raw_bytes(a) == "WARC/1.1\r\n");
}
