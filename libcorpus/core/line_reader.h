// A fast line reader over a ByteSource.
//
// Lines are returned as views into an internal buffer, valid until the next
// call. The buffer grows for long lines up to `max_line` bytes (default 1 GiB);
// a longer line is an Error. A last line without '\n' is still a line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "libcorpus/core/input.h"

namespace corpus {

class LineReader {
 public:
  static constexpr size_t kDefaultMaxLine = size_t{1} << 30;

  explicit LineReader(ByteSource& src, size_t max_line = kDefaultMaxLine);

  // The next line without its '\n'; false at end of input.
  bool next(std::string_view& line);

  // 1-based number of the line last returned; byte offset of its start in the
  // decompressed stream.
  uint64_t line_number() const { return line_no_; }
  uint64_t line_offset() const { return line_offset_; }
  uint64_t bytes_consumed() const { return consumed_; }
  const std::string& name() const { return src_.name(); }
  ByteSource& source() { return src_; }

 private:
  bool refill();
  [[noreturn]] void too_long() const;

  ByteSource& src_;
  size_t max_line_;
  std::string buf_;
  size_t begin_ = 0;  // start of unread data
  size_t end_ = 0;    // end of valid data
  bool eof_ = false;
  uint64_t line_no_ = 0;
  uint64_t line_offset_ = 0;
  uint64_t consumed_ = 0;
};

// A text file read line by line, each line checked to be valid UTF-8 without
// NUL bytes (an Error at file:line otherwise). Owns its source.
class TextLines {
 public:
  explicit TextLines(const std::string& path);
  // The next checked line without '\n'; false at the end.
  bool next(std::string_view& line);
  uint64_t line_number() const { return reader_.line_number(); }
  const std::string& name() const { return reader_.name(); }

 private:
  std::unique_ptr<ByteSource> src_;
  LineReader reader_;
};

}  // namespace corpus
