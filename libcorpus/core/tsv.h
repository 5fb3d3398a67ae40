// TSV bitext: columns, the header rule of DESIGN.md §4, readers and a writer.
//
// A first line is a header only if every field is a known column name (see
// is_known_column). A headerless stream must have exactly two columns, which
// are src_text and trg_text. Moses-style `--src/--trg` files are read in
// lockstep and presented as the same two-column stream; unequal line counts
// are a ConfigError (exit 2).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"

namespace corpus {

// The fixed names (src_text, trg_text, src_url, trg_url, score, src_lang,
// trg_lang, src_id, trg_id, src_digest, trg_digest), any name of the form
// NAME_score or NAME_reason with NAME made of [a-z0-9_], and user columns
// x_NAME.
bool is_known_column(std::string_view name);

struct TsvColumns {
  std::vector<std::string> names;
  bool header = false;  // the input's first line named them

  int index(std::string_view name) const;
  size_t size() const { return names.size(); }
};

// True if `s` holds a byte a TSV field cannot: TAB, LF or NUL. (Three
// memchr passes: std::string_view::find_first_of costs a call per byte.)
bool has_tsv_breaker(std::string_view s);

// Replaces TAB and LF by spaces; returns true if it changed anything.
bool replace_tabs_newlines(std::string& s);

// Splits at tabs; `fields` views into `line`.
void split_tsv(std::string_view line, std::vector<std::string_view>& fields);

// Applies the header rule to a first line. When it is not a header, the
// columns are src_text and trg_text and `header` is false.
TsvColumns columns_from_first_line(std::string_view line);

// Checks a split row: the column count and that every field is valid UTF-8
// without NUL bytes. Returns "" when fine, else what is wrong.
std::string check_row(const std::vector<std::string_view>& fields, size_t ncols);

// A source of bitext rows as TSV lines, from one TSV stream or two lockstep
// plain-text files. Lines (without '\n') are appended to `out`.
class BitextLines {
 public:
  virtual ~BitextLines() = default;
  virtual const TsvColumns& columns() const = 0;
  // Appends the next row's line to `out`; false at the end.
  virtual bool next(std::string& out) = 0;
  // Where the row last returned came from: "file" and its 1-based line.
  virtual const std::string& name() const = 0;
  virtual uint64_t line_number() const = 0;
  // Progress: compressed bytes read and total size of the inputs, if known.
  virtual uint64_t raw_bytes_read() const = 0;
  virtual std::optional<uint64_t> raw_size() const = 0;
  // Lines over the limit read past and left out (LineLimit::skip).
  virtual uint64_t long_lines_skipped() const = 0;
};

// One TSV stream ("-" = stdin). The first line is consumed if it is a header.
// A line over limit.max_line is an Error at its line, or skipped and counted.
std::unique_ptr<BitextLines> open_tsv_lines(std::unique_ptr<ByteSource> src, LineLimit limit = {});
// Two plain-text files read in lockstep; a tab inside a line is an Error. A
// line over the limit is an Error even with limit.skip: skipping it on one
// side would pair the rest of the files wrongly.
std::unique_ptr<BitextLines> open_lockstep_lines(const std::string& src_path, const std::string& trg_path,
                                                 LineLimit limit = {});

// The index of column `name` in the header of `in`; a ConfigError at the
// input, listing the columns it has, when it has none of that name.
size_t column_of(const BitextLines& in, std::string_view name);

// Sequential row reader on top of BitextLines: splits and checks each row.
// Bad rows throw an Error with file and line, or are counted with skip_bad.
class BitextReader {
 public:
  BitextReader(std::unique_ptr<BitextLines> lines, bool skip_bad);
  const TsvColumns& columns() const { return lines_->columns(); }
  bool next(std::vector<std::string_view>& fields);
  // Bad rows skipped, lines over the limit included.
  uint64_t skipped() const { return skipped_ + lines_->long_lines_skipped(); }
  BitextLines& lines() { return *lines_; }

 private:
  std::unique_ptr<BitextLines> lines_;
  bool skip_bad_;
  std::string line_;
  uint64_t skipped_ = 0;
};

// Writes a TSV stream. Fields may not contain tab, newline or NUL (Error).
class Output;
class TsvWriter {
 public:
  explicit TsvWriter(Output& out) : out_(out) {}
  void header(const std::vector<std::string>& names);
  void row(const std::vector<std::string_view>& fields);

 private:
  Output& out_;
};

}  // namespace corpus
