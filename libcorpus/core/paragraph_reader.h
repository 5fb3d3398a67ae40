// Reads paragraphs (lines) for pc-split in bounded memory: a line longer than
// `max_piece` bytes is returned in pieces of at most that size, each cut just
// after a sentence mark and a space when there is one in the piece's last
// quarter, else at a space, else at a UTF-8 character boundary.
//
// Lines never contain '\n', so pieces are marked with it: a piece that the
// next record continues ends with '\n'; a record that continues the previous
// one starts with '\n'. Pieces are checked for valid UTF-8 here, where their
// position in the line is known.
#pragma once

#include <cstdint>
#include <string>

#include "libcorpus/core/input.h"

namespace corpus {

class PieceReader {
 public:
  // With `pieces` false a line longer than max_piece is an Error instead
  // (raise --max-line), or with skip_bad it is read past, never held whole,
  // and counted in long_lines_skipped(). The buffer starts at 1 MiB and grows to max_piece + 1 only for long lines.
  PieceReader(ByteSource& src, size_t max_piece, bool pieces, bool skip_bad);

  // Appends the next line or piece (see above) to `out`; false at the end.
  bool next(std::string& out);
  // 1-based line number of the record last appended.
  uint64_t line_number() const { return line_no_; }
  uint64_t bytes_read() const { return src_.raw_bytes_read(); }
  // Bytes replaced in pieces with --skip-bad.
  uint64_t repaired() const { return repaired_; }
  // Lines over max_piece read past (no pieces, skip_bad).
  uint64_t long_lines_skipped() const { return long_skipped_; }

 private:
  enum class Got { kLine, kEnd, kTooLong };
  bool fill();
  // The next line or the end; kTooLong when max_piece bytes hold no '\n'.
  Got next_line(std::string& out);
  // Cuts the next piece of a line longer than max_piece.
  bool next_piece(std::string& out);

  ByteSource& src_;
  size_t max_piece_;
  bool pieces_;
  bool skip_bad_;
  std::string buf_;
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  bool continuing_ = false;      // the last record was a piece that continues
  uint64_t line_no_ = 0;
  uint64_t offset_in_line_ = 0;  // of the next piece
  uint64_t repaired_ = 0;
  uint64_t long_skipped_ = 0;
};

}  // namespace corpus
