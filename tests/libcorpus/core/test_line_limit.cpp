// The line limit every line reader shares (LineLimit, --max-line): a longer
// line is an Error at file:line naming --max-line, or read past and counted,
// and the reader never holds more of it than the limit.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/paragraph_reader.h"
#include "libcorpus/core/tsv.h"

using namespace corpus;

namespace {

// `text`, then `fill` bytes of 'a' (a line without end, made as it is read),
// handed out `chunk` bytes at a time; counts what it gave.
class Source final : public ByteSource {
 public:
  Source(std::string text, size_t chunk, uint64_t fill = 0, std::string tail = "")
      : text_(std::move(text)), tail_(std::move(tail)), chunk_(chunk), fill_(fill) {}
  size_t read(char* buf, size_t n) override {
    n = std::min(n, chunk_);
    size_t k = 0;
    while (k < n) {
      if (pos_ < text_.size()) {
        buf[k++] = text_[pos_];
      } else if (pos_ < text_.size() + fill_) {
        buf[k++] = 'a';
      } else if (pos_ < text_.size() + fill_ + tail_.size()) {
        buf[k++] = tail_[pos_ - text_.size() - fill_];
      } else {
        break;
      }
      ++pos_;
    }
    return k;
  }
  const std::string& name() const override { return name_; }
  Compression compression() const override { return Compression::kNone; }
  uint64_t raw_bytes_read() const override { return pos_; }
  std::optional<uint64_t> raw_size() const override { return std::nullopt; }

 private:
  std::string text_, tail_;
  size_t chunk_;
  uint64_t fill_;
  uint64_t pos_ = 0;
  std::string name_ = "in.txt";
};

std::vector<std::string> all_lines(LineReader& r) {
  std::vector<std::string> v;
  std::string_view l;
  while (r.next(l)) v.emplace_back(std::string(l) + "@" + std::to_string(r.line_number()));
  return v;
}

}  // namespace

TEST_CASE("line limit: a longer line is an Error at its line that names --max-line") {
  for (size_t chunk : {1, 3, 7, 4096}) {
    CAPTURE(chunk);
    Source src("ab\n0123456789\n" + std::string(11, 'x') + "\ncd\n", chunk);
    LineReader r(src, 10);
    std::string_view l;
    REQUIRE(r.next(l));
    REQUIRE(r.next(l));
    CHECK(l == "0123456789");  // exactly the limit passes
    try {
      r.next(l);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("line longer than 10 bytes") != std::string::npos);
      CHECK(e.format("pc-test").find("in.txt:3: line longer than 10 bytes") != std::string::npos);
      CHECK(e.format("pc-test").find("raise --max-line or fix the input") != std::string::npos);
      CHECK(e.line() == 3);
    }
  }
}

TEST_CASE("line limit: a line without end stops the reader after about the limit, not the line") {
  Source src("ok\n", 1 << 16, uint64_t{1} << 30);  // 1 GiB of 'a', never held anywhere
  LineReader r(src, 1000);
  std::string_view l;
  REQUIRE(r.next(l));
  CHECK_THROWS_AS(r.next(l), Error);
  CHECK(src.raw_bytes_read() < (uint64_t{2} << 20));  // read no further than one buffer
}

TEST_CASE("line limit: with skip, long lines are read past and counted, line numbers stay right") {
  for (size_t chunk : {1, 5, 64, 4096}) {
    CAPTURE(chunk);
    const std::string big(1000, 'w');
    Source src("ab\n" + big + "\n\ncd\n" + big + "\nef\n" + big, chunk);
    LineReader r(src, LineLimit(10, true));
    CHECK(all_lines(r) == std::vector<std::string>{"ab@1", "@3", "cd@4", "ef@6"});
    CHECK(r.long_lines_skipped() == 3);
  }
}

TEST_CASE("line limit: a skipped 1 GiB line costs the reader one buffer, and the next line follows") {
  Source src("first\n", 1 << 16, uint64_t{1} << 30, "\nlast\n");
  LineReader r(src, LineLimit(1 << 20, true));
  CHECK(all_lines(r) == std::vector<std::string>{"first@1", "last@3"});
  CHECK(r.long_lines_skipped() == 1);
  CHECK(r.bytes_consumed() == 6 + (uint64_t{1} << 30) + 6);
}

TEST_CASE("line limit: TSV rows over the limit are an Error, or skipped rows counted by the BitextReader") {
  const std::string text = "src_text\ttrg_text\na\tb\n" + std::string(100, 'x') + "\ty\nc\td\n";
  {
    auto lines = open_tsv_lines(std::make_unique<Source>(text, 7), 50);
    BitextReader r(std::move(lines), false);
    std::vector<std::string_view> f;
    REQUIRE(r.next(f));
    try {
      r.next(f);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.format("pc-test").find("in.txt:3: line longer than 50 bytes") != std::string::npos);
    }
  }
  BitextReader r(open_tsv_lines(std::make_unique<Source>(text, 7), LineLimit(50, true)), true);
  std::vector<std::string_view> f;
  std::vector<std::string> src;
  while (r.next(f)) src.emplace_back(f[0]);
  CHECK(src == std::vector<std::string>{"a", "c"});
  CHECK(r.skipped() == 1);
  CHECK(r.lines().line_number() == 4);
}

TEST_CASE("line limit: a JSONL line over the limit is an Error, or with skip_bad read past and counted") {
  const std::string text = "{\"a\":1}\n{\"t\":\"" + std::string(500, 'x') + "\"}\n{\"b\":2}\n";
  {
    Source src(text, 9);
    PieceReader r(src, 100, false, false);
    std::string s;
    REQUIRE(r.next(s));
    try {
      r.next(s);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.format("pc-test").find("in.txt:2: line longer than 100 bytes") != std::string::npos);
      CHECK(e.format("pc-test").find("raise --max-line") != std::string::npos);
    }
  }
  Source src(text, 9);
  PieceReader r(src, 100, false, true);
  std::vector<std::string> got;
  for (std::string s; r.next(s); s.clear()) got.push_back(s + "@" + std::to_string(r.line_number()));
  CHECK(got == std::vector<std::string>{"{\"a\":1}@1", "{\"b\":2}@3"});
  CHECK(r.long_lines_skipped() == 1);
}

TEST_CASE("--max-line: a shared size option, 32M by default, only where the tool asks for it") {
  auto run = [](unsigned set, std::vector<std::string> args, uint64_t& got) {
    cli::App app("pc-test", "Test tool.", "pc-test [options]");
    cli::Common c;
    app.common(c, set);
    args.insert(args.begin(), "pc-test");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int code = app.run(static_cast<int>(args.size()), argv.data(), [&](cli::Context&) { got = c.max_line; });
    return std::make_pair(code, app.help_text());
  };
  uint64_t got = 0;
  auto [code, help] = run(cli::Common::kMaxLine, {"-q"}, got);
  CHECK(code == 0);
  CHECK(got == uint64_t{32} << 20);
  CHECK(help.find("--max-line SIZE") != std::string::npos);
  CHECK(help.find("[32M]") != std::string::npos);
  CHECK(run(cli::Common::kMaxLine, {"-q", "--max-line", "1k"}, got).first == 0);
  CHECK(got == 1024);
  CHECK(run(cli::Common::kMaxLine, {"-q", "--max-line", "0"}, got).first == 2);
  CHECK(run(cli::Common::kMaxLine, {"-q", "--max-line", "lots"}, got).first == 2);
  CHECK(run(cli::Common::kOutput, {"-q", "--max-line", "1k"}, got).first == 2);  // not this tool's option
  CHECK(run(cli::Common::kOutput, {}, got).second.find("--max-line") == std::string::npos);
}
