#include "libcorpus/core/line_reader.h"

#include <cstring>

#include "libcorpus/core/error.h"
#include "libcorpus/core/utf8.h"

namespace corpus {

LineReader::LineReader(ByteSource& src, size_t max_line) : src_(src), max_line_(max_line) {
  buf_.resize(size_t{1} << 20);
}

void LineReader::too_long() const {
  throw Error("line longer than " + std::to_string(max_line_) + " bytes", "is this a text file?")
      .at(src_.name(), line_no_ + 1);
}

// Reads more; false when no more bytes arrive. A line that fills the
// buffer at its cap (max_line + 1 bytes) is an error.
bool LineReader::refill() {
  switch (refill_window(src_, buf_, begin_, end_, eof_, max_line_ + 1)) {
    case Refill::kRead: return true;
    case Refill::kEof: return false;
    case Refill::kFull: break;
  }
  too_long();
  return false;
}

bool LineReader::next(std::string_view& line) {
  size_t scan = begin_;
  for (;;) {
    const char* nl = static_cast<const char*>(std::memchr(buf_.data() + scan, '\n', end_ - scan));
    if (nl) {
      size_t pos = static_cast<size_t>(nl - buf_.data());
      if (pos - begin_ > max_line_) too_long();
      line = std::string_view(buf_.data() + begin_, pos - begin_);
      line_offset_ = consumed_;
      consumed_ += pos + 1 - begin_;
      begin_ = pos + 1;
      ++line_no_;
      return true;
    }
    if (end_ - begin_ > max_line_) too_long();  // no newline in more than max_line bytes
    size_t scanned = end_ - begin_;
    if (!refill()) {
      if (end_ == begin_) return false;
      line = std::string_view(buf_.data() + begin_, end_ - begin_);
      line_offset_ = consumed_;
      consumed_ += end_ - begin_;
      begin_ = end_;
      ++line_no_;
      return true;
    }
    scan = begin_ + scanned;  // refill moved data to the front
  }
}

TextLines::TextLines(const std::string& path) : src_(open_input(path)), reader_(*src_) {}

bool TextLines::next(std::string_view& line) {
  if (!reader_.next(line)) return false;
  std::string why = check_text(line);
  if (!why.empty()) throw Error(why).at(reader_.name(), reader_.line_number());
  return true;
}

}  // namespace corpus
