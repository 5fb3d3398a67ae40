#include "libcorpus/line_reader.h"

#include <cstring>

#include "libcorpus/error.h"
#include "libcorpus/utf8.h"

namespace corpus {

LineReader::LineReader(ByteSource& src, size_t max_line) : src_(src), max_line_(max_line) {
  buf_.resize(size_t{1} << 20);
}

// Moves unread bytes to the front and reads more, growing the buffer when a
// single line fills it. Returns false when no more bytes arrive.
bool LineReader::refill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) {
    if (buf_.size() > max_line_)
      throw Error("line longer than " + std::to_string(max_line_) + " bytes", "is this a text file?")
          .at(src_.name(), line_no_ + 1);
    buf_.resize(buf_.size() * 2);
  }
  size_t r = src_.read(buf_.data() + end_, buf_.size() - end_);
  if (r == 0) {
    eof_ = true;
    return false;
  }
  end_ += r;
  return true;
}

bool LineReader::next(std::string_view& line) {
  size_t scan = begin_;
  for (;;) {
    const char* nl = static_cast<const char*>(std::memchr(buf_.data() + scan, '\n', end_ - scan));
    if (nl) {
      size_t pos = static_cast<size_t>(nl - buf_.data());
      line = std::string_view(buf_.data() + begin_, pos - begin_);
      line_offset_ = consumed_;
      consumed_ += pos + 1 - begin_;
      begin_ = pos + 1;
      ++line_no_;
      return true;
    }
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
    if (end_ - begin_ > max_line_)
      throw Error("line longer than " + std::to_string(max_line_) + " bytes", "is this a text file?")
          .at(src_.name(), line_no_ + 1);
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
