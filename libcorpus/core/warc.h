// WARC records (ISO 28500, WARC/1.0 and WARC/1.1): a streaming reader and a
// writer with one compressed member (gzip) or frame (zstd) per record.
//
// The reader takes decompressed bytes (corpus::open_input already undoes
// gzip/zstd, concatenated members included). A record is a version line,
// header lines, an empty line, Content-Length bytes of block, then CRLF CRLF.
// A record whose block is not followed by CRLF CRLF has a wrong
// Content-Length: next() throws, and after the throw the reader can resync to
// the next "WARC/1." line so that --skip-bad can continue.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcorpus/core/input.h"

namespace corpus {

struct WarcRecord {
  std::string version;  // "WARC/1.1"
  std::vector<std::pair<std::string, std::string>> headers;
  std::string block;           // the content block (empty when `oversize`)
  uint64_t content_length = 0;
  bool oversize = false;       // Content-Length > the reader's max_block: block skipped
  uint64_t number = 0;         // 1-based index of the record in its file
  uint64_t offset = 0;         // byte offset of the record in the decompressed stream

  // Value of the first header with this name (case-insensitive), or "".
  std::string_view header(std::string_view name) const;
  std::string_view type() const { return header("WARC-Type"); }
};

class WarcReader {
 public:
  // Blocks longer than `max_block` are skipped, not stored (record.oversize).
  WarcReader(ByteSource& src, uint64_t max_block);

  // Reads the next record; false at the end. Throws Error (with the file name
  // and record number) on a malformed record or truncated data.
  bool next(WarcRecord& rec);

  // After next() threw on a malformed record: skips to the next line that
  // starts with "WARC/1." after the first byte of that record (so a record
  // is never found twice and a skipping loop always ends). Returns false when
  // none is left.
  bool resync();

  const std::string& name() const { return src_.name(); }
  uint64_t records() const { return number_; }
  uint64_t position() const { return consumed_; }

 private:
  bool fill(size_t need);   // makes `need` bytes available; false at end
  bool read_line(std::string& line);
  void skip(uint64_t n);

  ByteSource& src_;
  uint64_t max_block_;
  std::string buf_;
  size_t pos_ = 0;
  size_t end_ = 0;  // buf_[pos_, end_) holds unread bytes; buf_ may be longer
  bool eof_ = false;
  uint64_t consumed_ = 0;  // bytes consumed before buf_[pos_]
  uint64_t number_ = 0;
  uint64_t record_start_ = 0;  // stream offset of the record next() read last
};

enum class WarcCompression { kNone, kGzip, kZstd };

// The compression a WARC file name asks for: .warc.gz, .warc.zst, else none.
WarcCompression warc_compression_for(std::string_view path);

// Serialises records; each record is handed to `sink` as one finished chunk
// (compressed on its own when asked), so a record is never half-written.
class WarcWriter {
 public:
  using Sink = std::function<void(std::string_view)>;
  WarcWriter(WarcCompression c, Sink sink) : comp_(c), sink_(std::move(sink)) {}

  // Writes a record of `type` with the given extra headers. WARC-Record-ID,
  // WARC-Date (if absent), Content-Length, WARC-Block-Digest (sha1) are added.
  // Returns the record id.
  std::string write(std::string_view type, std::vector<std::pair<std::string, std::string>> headers,
                    std::string_view block);

 private:
  WarcCompression comp_;
  Sink sink_;
};

// "<urn:uuid:...>" from /dev/urandom-seeded randomness (record ids are unique,
// not reproducible).
std::string warc_record_id();
// "sha1:" + base32 of the SHA-1 of `data` (WARC digest format).
std::string warc_sha1_digest(std::string_view data);

}  // namespace corpus
