// A fast line reader over a ByteSource.
//
// Lines are returned as views into an internal buffer, valid until the next
// call. The buffer grows for long lines up to the limit's `max_line` bytes
// (default 1 GiB, for the tools' own files; input from users gets the tools'
// --max-line, 32 MiB by default). A longer line is never held whole: it is an
// Error at file:line, or with `skip` it is read past up to its '\n', counted,
// and the next line is returned. A last line without '\n' is still a line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "libcorpus/core/input.h"

namespace corpus {

inline constexpr size_t kDefaultMaxLine = size_t{1} << 30;

// How long a line may be, and what a longer one is.
struct LineLimit {
  LineLimit(size_t max = kDefaultMaxLine, bool skip_long = false) : max_line(max), skip(skip_long) {}  // NOLINT
  size_t max_line;
  bool skip;  // --skip-bad: read past a longer line and count it, instead of an Error
};

// The Error for a line over `max_line` bytes at name:line, naming --max-line.
[[noreturn]] void throw_line_too_long(const std::string& name, uint64_t line, size_t max_line);

class LineReader {
 public:
  static constexpr size_t kDefaultMaxLine = corpus::kDefaultMaxLine;

  explicit LineReader(ByteSource& src, LineLimit limit = {});

  // The next line without its '\n'; false at end of input.
  bool next(std::string_view& line);

  // 1-based number of the line last returned; byte offset of its start in the
  // decompressed stream.
  uint64_t line_number() const { return line_no_; }
  uint64_t line_offset() const { return line_offset_; }
  uint64_t bytes_consumed() const { return consumed_; }
  // Lines over the limit read past (LineLimit::skip).
  uint64_t long_lines_skipped() const { return long_skipped_; }
  const std::string& name() const { return src_.name(); }
  ByteSource& source() { return src_; }

 private:
  bool refill();
  // The line at begin_ is over the limit: an Error, or (skip) dropped.
  void too_long();

  ByteSource& src_;
  size_t max_line_;
  bool skip_long_;
  std::string buf_;
  size_t begin_ = 0;  // start of unread data
  size_t end_ = 0;    // end of valid data
  bool eof_ = false;
  uint64_t line_no_ = 0;
  uint64_t line_offset_ = 0;
  uint64_t consumed_ = 0;
  uint64_t long_skipped_ = 0;
};

// A text file read line by line, each line checked to be valid UTF-8 without
// NUL bytes (an Error at file:line otherwise). Owns its source.
class TextLines {
 public:
  explicit TextLines(const std::string& path, LineLimit limit = {});
  // The next checked line without '\n'; false at the end.
  bool next(std::string_view& line);
  uint64_t line_number() const { return reader_.line_number(); }
  uint64_t long_lines_skipped() const { return reader_.long_lines_skipped(); }
  const std::string& name() const { return reader_.name(); }

 private:
  std::unique_ptr<ByteSource> src_;
  LineReader reader_;
};

}  // namespace corpus
