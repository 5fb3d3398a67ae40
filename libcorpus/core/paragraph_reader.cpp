#include "libcorpus/core/paragraph_reader.h"

#include <cstring>

#include <fmt/format.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/split_records.h"
#include "libcorpus/core/utf8.h"

namespace corpus {

namespace {

bool sentence_mark_before(const std::string& s, size_t i) {
  if (i >= 1 && (s[i - 1] == '.' || s[i - 1] == '!' || s[i - 1] == '?')) return true;
  if (i >= 3) {
    std::string_view t(s.data() + i - 3, 3);
    return t == "\xE3\x80\x82" || t == "\xEF\xBC\x81" || t == "\xEF\xBC\x9F" || t == "\xE0\xA5\xA4" ||
           t == "\xE0\xA5\xA5";
  }
  return false;
}

}  // namespace

PieceReader::PieceReader(ByteSource& src, size_t max_piece, bool pieces, bool skip_bad)
    : src_(src), max_piece_(max_piece), pieces_(pieces), skip_bad_(skip_bad) {
  buf_.resize(std::min(max_piece + 1, size_t{1} << 20));
}

bool PieceReader::fill() {
  // Full at max_piece + 1 bytes: next() cuts a piece.
  return refill_window(src_, buf_, begin_, end_, eof_, max_piece_ + 1) != Refill::kEof;
}

// The next line that fits, or false at the end; a line over max_piece
// without pieces is an Error, or read past and counted with skip_bad.
bool PieceReader::next(std::string& out) {
  for (;;) {
    switch (next_line(out)) {
      case Got::kLine: return true;
      case Got::kEnd: return false;
      case Got::kTooLong: break;
    }
    if (pieces_) return next_piece(out);
    if (!skip_bad_) throw_line_too_long(src_.name(), line_no_ + 1, max_piece_);
    drop_rest_of_line(src_, buf_, begin_, end_, eof_);
    ++line_no_;
    ++long_skipped_;
  }
}

PieceReader::Got PieceReader::next_line(std::string& out) {
  size_t scan = begin_;
  for (;;) {
    const char* nl = static_cast<const char*>(std::memchr(buf_.data() + scan, '\n', end_ - scan));
    if (nl && static_cast<size_t>(nl - buf_.data()) - begin_ <= max_piece_) {
      size_t pos = static_cast<size_t>(nl - buf_.data());
      if (continuing_) out += '\n';
      out.append(buf_, begin_, pos - begin_);
      if (!continuing_) ++line_no_;
      continuing_ = false;
      offset_in_line_ = 0;
      begin_ = pos + 1;
      return Got::kLine;
    }
    if (end_ - begin_ > max_piece_) return Got::kTooLong;
    size_t scanned = end_ - begin_;
    if (!fill()) {
      if (end_ == begin_) return Got::kEnd;
      if (continuing_) out += '\n';
      out.append(buf_, begin_, end_ - begin_);
      if (!continuing_) ++line_no_;
      continuing_ = false;
      begin_ = end_;
      return Got::kLine;
    }
    scan = begin_ + scanned;
  }
}

bool PieceReader::next_piece(std::string& out) {
  // Cut a piece of at most max_piece bytes.
  const size_t limit = begin_ + max_piece_;
  size_t cut = 0, space = 0;
  for (size_t i = limit; i > begin_ + max_piece_ * 3 / 4; --i) {
    if (buf_[i - 1] == ' ' || buf_[i - 1] == '\t') {
      if (!space) space = i;
      if (sentence_mark_before(buf_, i - 1)) {
        cut = i;
        break;
      }
    }
  }
  if (!cut) cut = space;
  if (!cut) {
    cut = utf8_cut_at_or_before(buf_, limit, begin_ + 1);
  }
  std::string piece = buf_.substr(begin_, cut - begin_);
  if (!continuing_) ++line_no_;
  if (std::string msg = check_text(piece); !msg.empty()) {
    if (!skip_bad_) {
      size_t at = piece.find('\0') != std::string::npos ? piece.find('\0') : find_invalid_utf8(piece);
      throw Error(fmt::format("{} at byte {} of the line ({} of a {}-byte piece)",
                              msg.substr(0, msg.find(" at byte")), offset_in_line_ + at + 1, at + 1, piece.size()),
                  "repair it with --skip-bad (bad bytes become U+FFFD)")
          .at(src_.name(), line_no_);
    }
    repaired_ += repair_utf8(piece) > 0;
  }
  if (continuing_) out += '\n';
  out += piece;
  out += '\n';
  offset_in_line_ += cut - begin_;
  begin_ = cut;
  continuing_ = true;
  return true;
}

}  // namespace corpus
