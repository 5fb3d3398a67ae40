// Byte input from a file or stdin, decompressed transparently.
//
// gzip, zstd, xz and bzip2 are recognised by their magic bytes, whatever the
// file is called; concatenated members/frames/streams are read in full, and a
// stream that ends early is an Error naming the file ("truncated gzip data").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace corpus {

enum class Compression { kNone, kGzip, kZstd, kXz, kBzip2 };

const char* compression_name(Compression c);

// Recognises a compression format from the first bytes of a stream.
Compression detect_compression(const unsigned char* p, size_t n);

class ByteSource {
 public:
  virtual ~ByteSource() = default;

  // Reads up to n bytes; returns 0 only at the end of the data. Throws Error.
  virtual size_t read(char* buf, size_t n) = 0;

  // The name used in messages: the path, or "-" for stdin.
  virtual const std::string& name() const = 0;
  virtual Compression compression() const = 0;

  // Bytes of the underlying file consumed so far (compressed bytes), and the
  // file's size when it is a regular file: together they drive progress bars.
  virtual uint64_t raw_bytes_read() const = 0;
  virtual std::optional<uint64_t> raw_size() const = 0;
};

// A read window over a source, as the line and piece readers keep it:
// buf[begin, end) is read but not consumed. refill_window moves those bytes
// to the front and reads more after them, doubling `buf` up to `cap` bytes
// when it is full. kFull: `buf` already holds `cap` unconsumed bytes (nothing
// read); kEof: the source has no more bytes (`eof` is set and stays set).
enum class Refill { kRead, kFull, kEof };
Refill refill_window(ByteSource& src, std::string& buf, size_t& begin, size_t& end, bool& eof, size_t cap);

// Drops the rest of a line that is too long to keep: buf[begin, end), then
// whatever the source gives up to and including the next '\n' (or its end),
// read into `buf` as it is and never grown. What follows the '\n' is left in
// buf[begin, end). Returns the bytes dropped, the '\n' included.
uint64_t drop_rest_of_line(ByteSource& src, std::string& buf, size_t& begin, size_t& end, bool& eof);

// Opens `path` ("-" or "" = stdin) for reading. Throws Error if it cannot be
// opened ("No such file or directory").
std::unique_ptr<ByteSource> open_input(const std::string& path);

// A source that changes what another one reads but not what it is: name,
// compression and raw positions are the inner source's.
class WrappedSource : public ByteSource {
 public:
  explicit WrappedSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)) {}
  const std::string& name() const override { return inner_->name(); }
  Compression compression() const override { return inner_->compression(); }
  uint64_t raw_bytes_read() const override { return inner_->raw_bytes_read(); }
  std::optional<uint64_t> raw_size() const override { return inner_->raw_size(); }

 protected:
  std::unique_ptr<ByteSource> inner_;
};

// Reads up to n bytes ahead without consuming them, so a tool can sniff the
// format of decompressed data. Wraps another source.
class PeekableSource : public WrappedSource {
 public:
  explicit PeekableSource(std::unique_ptr<ByteSource> inner);
  // Returns the first bytes (up to n; fewer at end of data).
  std::string_view peek(size_t n);
  size_t read(char* buf, size_t n) override;

 private:
  std::string ahead_;
  size_t pos_ = 0;
};

}  // namespace corpus
