#include "libcorpus/core/input.h"

#include <bzlib.h>
#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "libcorpus/core/error.h"

namespace corpus {

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::kNone: return "none";
    case Compression::kGzip: return "gzip";
    case Compression::kZstd: return "zstd";
    case Compression::kXz: return "xz";
    case Compression::kBzip2: return "bzip2";
  }
  return "?";
}

Compression detect_compression(const unsigned char* p, size_t n) {
  if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) return Compression::kGzip;
  if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) return Compression::kZstd;
  if (n >= 6 && std::memcmp(p, "\xfd" "7zXZ\0", 6) == 0) return Compression::kXz;
  if (n >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' && p[3] <= '9')
    return Compression::kBzip2;
  return Compression::kNone;
}

namespace {

constexpr size_t kChunk = 1 << 17;

// The raw file descriptor, with a small look-ahead for the magic bytes.
class FdSource {
 public:
  FdSource(std::string name, int fd, bool owned) : name_(std::move(name)), fd_(fd), owned_(owned) {
    struct stat st;
    if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) size_ = static_cast<uint64_t>(st.st_size);
    if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode))
      throw Error("is a directory", "give a file, or - for stdin").at(name_);
  }
  ~FdSource() {
    if (owned_) ::close(fd_);
  }
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;

  size_t read(char* buf, size_t n) {
    for (;;) {
      ssize_t r = ::read(fd_, buf, n);
      if (r >= 0) {
        pos_ += static_cast<uint64_t>(r);
        return static_cast<size_t>(r);
      }
      if (errno == EINTR) continue;
      throw Error("read error (" + errno_text(errno) + ")").at(name_);
    }
  }
  // Fills `buf` as far as possible (short only at end of file).
  size_t read_full(char* buf, size_t n) {
    size_t got = 0;
    while (got < n) {
      size_t r = read(buf + got, n - got);
      if (r == 0) break;
      got += r;
    }
    return got;
  }
  const std::string& name() const { return name_; }
  uint64_t pos() const { return pos_; }
  std::optional<uint64_t> size() const { return size_; }

 private:
  std::string name_;
  int fd_;
  bool owned_;
  uint64_t pos_ = 0;
  std::optional<uint64_t> size_;
};

// Common part of every source: the fd, the magic bytes already read, and the
// compressed-input buffer the decoders consume.
class SourceBase : public ByteSource {
 public:
  SourceBase(std::unique_ptr<FdSource> fd, std::string head, Compression c)
      : fd_(std::move(fd)), compression_(c), in_(std::move(head)) {}
  const std::string& name() const override { return fd_->name(); }
  Compression compression() const override { return compression_; }
  uint64_t raw_bytes_read() const override { return fd_->pos(); }
  std::optional<uint64_t> raw_size() const override { return fd_->size(); }

 protected:
  // Makes sure compressed input is available; false at end of file.
  bool fill() {
    if (in_pos_ < in_.size()) return true;
    in_.resize(kChunk);
    size_t r = fd_->read(in_.data(), kChunk);
    in_.resize(r);
    in_pos_ = 0;
    return r > 0;
  }
  size_t avail() const { return in_.size() - in_pos_; }
  const unsigned char* next_in() const { return reinterpret_cast<const unsigned char*>(in_.data()) + in_pos_; }
  [[noreturn]] void truncated() const {
    throw Error(std::string("truncated ") + compression_name(compression_) + " data (unexpected end of file)",
                "the file was cut short; fetch or recompress it again")
        .at(name());
  }
  [[noreturn]] void corrupt(const std::string& detail) const {
    throw Error(std::string("corrupt ") + compression_name(compression_) + " data (" + detail + ")").at(name());
  }

  std::unique_ptr<FdSource> fd_;
  Compression compression_;
  std::string in_;
  size_t in_pos_ = 0;
};

class PlainSource final : public SourceBase {
 public:
  using SourceBase::SourceBase;
  size_t read(char* buf, size_t n) override {
    if (in_pos_ < in_.size()) {
      size_t k = std::min(n, in_.size() - in_pos_);
      std::memcpy(buf, in_.data() + in_pos_, k);
      in_pos_ += k;
      return k;
    }
    return fd_->read(buf, n);
  }
};

// gzip through ISA-L's inflate (igzip): the same streaming contract as zlib's,
// about 1.5-1.8x its speed on WARC members (docs/ingest.md). The member header
// is read here (ISA-L 2.30 refuses a header with FHCRC that arrives in two
// reads), the deflate data and the trailer by ISA-L, which checks the
// member's CRC-32 and length (ISAL_GZIP_NO_HDR_VER). tests/fuzz/fuzz_gzip.cpp
// checks the whole against zlib.
class GzipSource final : public SourceBase {
 public:
  GzipSource(std::unique_ptr<FdSource> fd, std::string head) : SourceBase(std::move(fd), std::move(head), Compression::kGzip) {}

  size_t read(char* buf, size_t n) override {
    size_t got = 0;
    while (!done_ && got < n) {
      if (between_members_) {
        // Another gzip member must follow, or nothing at all.
        if (!fill()) {
          done_ = true;
          break;
        }
        if (next_in()[0] != 0x1f) corrupt("trailing garbage after gzip member");
        between_members_ = false;
        header_ = Header{};
      }
      if (!header_.done) {
        read_header();
        isal_inflate_init(&s_);
        s_.crc_flag = ISAL_GZIP_NO_HDR_VER;
      }
      // At the end of the file inflate still runs once without input: it may
      // hold output (and the trailer) it has already read.
      const bool at_end = avail() == 0 && !fill();
      s_.next_in = const_cast<uint8_t*>(next_in());
      s_.avail_in = at_end ? 0 : static_cast<uint32_t>(std::min<size_t>(avail(), UINT32_MAX));
      s_.next_out = reinterpret_cast<uint8_t*>(buf + got);
      s_.avail_out = static_cast<uint32_t>(std::min<size_t>(n - got, 1u << 30));
      const uint32_t in_before = s_.avail_in, out_before = s_.avail_out;
      const int rc = isal_inflate(&s_);
      if (!at_end) in_pos_ += in_before - s_.avail_in;
      got += out_before - s_.avail_out;
      if (rc != ISAL_DECOMP_OK) corrupt(message(rc));
      if (s_.block_state == ISAL_BLOCK_FINISH) {
        between_members_ = true;
        if (got > 0) break;  // return what this member gave
      } else if (s_.avail_out == out_before && s_.avail_in == in_before) {
        if (at_end) truncated();
        corrupt("inflate made no progress");  // not seen; a guard against a loop
      }
    }
    return got;
  }

 private:
  // RFC 1952 section 2.3: ID1 ID2 CM FLG MTIME(4) XFL OS, then FEXTRA (a
  // 2-byte length and that many bytes), FNAME and FCOMMENT (each up to a NUL),
  // FHCRC (the low 16 bits of the CRC-32 of the header before it). Checked as
  // zlib checks it: the magic, CM 8, no reserved flag bit, the header CRC.
  struct Header {
    unsigned char fixed[10];
    size_t have = 0;      // bytes of the current part read
    size_t extra = 0;     // FEXTRA's length, once read
    int part = 0;         // 0 fixed, 1 extra length, 2 extra, 3 name, 4 comment, 5 crc, 6 done
    uint32_t crc = 0;     // CRC-32 of the header bytes before FHCRC
    unsigned char two[2];
    bool done = false;
  };
  void read_header() {
    Header& h = header_;
    constexpr unsigned kHcrc = 2, kExtra = 4, kName = 8, kComment = 16;
    while (!h.done) {
      if (avail() == 0 && !fill()) truncated();
      const unsigned char c = next_in()[0];
      ++in_pos_;
      if (h.part != 5) h.crc = static_cast<uint32_t>(crc32(h.crc, &c, 1));
      switch (h.part) {
        case 0:
          h.fixed[h.have++] = c;
          if (h.have < 10) continue;
          if (h.fixed[0] != 0x1f || h.fixed[1] != 0x8b) corrupt("incorrect header check");
          if (h.fixed[2] != 8) corrupt("unknown compression method");
          if (h.fixed[3] & 0xE0) corrupt("unknown header flags set");
          break;
        case 1:
          h.two[h.have++] = c;
          if (h.have < 2) continue;
          h.extra = h.two[0] | (size_t{h.two[1]} << 8);
          break;
        case 2:
          if (++h.have < h.extra) continue;
          break;
        case 3:
        case 4:
          if (c != 0) continue;
          break;
        case 5:
          h.two[h.have++] = c;
          if (h.have < 2) continue;
          if ((h.two[0] | (unsigned{h.two[1]} << 8)) != (h.crc & 0xFFFF)) corrupt("header crc mismatch");
          break;
      }
      // The part is complete: on to the next one the flags ask for.
      const unsigned flags = h.fixed[3];
      h.have = 0;
      for (;;) {
        ++h.part;
        if (h.part == 1 && (flags & kExtra)) break;
        if (h.part == 2 && (flags & kExtra) && h.extra > 0) break;
        if (h.part == 3 && (flags & kName)) break;
        if (h.part == 4 && (flags & kComment)) break;
        if (h.part == 5 && (flags & kHcrc)) break;
        if (h.part == 6) {
          h.done = true;
          break;
        }
      }
    }
  }
  static std::string message(int rc) {
    switch (rc) {
      case ISAL_INVALID_BLOCK: return "invalid deflate block";
      case ISAL_INVALID_SYMBOL: return "invalid deflate code";
      case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
      case ISAL_INCORRECT_CHECKSUM: return "CRC or length check failed";
      default: return "inflate error " + std::to_string(rc);
    }
  }
  inflate_state s_;
  Header header_;
  bool between_members_ = false;
  bool done_ = false;
};

class ZstdSource final : public SourceBase {
 public:
  ZstdSource(std::unique_ptr<FdSource> fd, std::string head) : SourceBase(std::move(fd), std::move(head), Compression::kZstd) {
    ds_ = ZSTD_createDStream();
    if (!ds_) throw Error("zstd initialisation failed").at(name());
    ZSTD_initDStream(ds_);
  }
  ~ZstdSource() override { ZSTD_freeDStream(ds_); }

  size_t read(char* buf, size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0) {
      if (!fill()) {
        if (last_ != 0) truncated();
        return 0;
      }
      ZSTD_inBuffer in{next_in(), avail(), 0};
      last_ = ZSTD_decompressStream(ds_, &out, &in);
      in_pos_ += in.pos;
      if (ZSTD_isError(last_)) corrupt(ZSTD_getErrorName(last_));
    }
    return out.pos;
  }

 private:
  ZSTD_DStream* ds_;
  size_t last_ = 1;  // 0 once a frame is complete
};

class XzSource final : public SourceBase {
 public:
  XzSource(std::unique_ptr<FdSource> fd, std::string head) : SourceBase(std::move(fd), std::move(head), Compression::kXz) {
    if (lzma_stream_decoder(&s_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw Error("xz initialisation failed").at(name());
  }
  ~XzSource() override { lzma_end(&s_); }

  size_t read(char* buf, size_t n) override {
    if (done_) return 0;
    s_.next_out = reinterpret_cast<uint8_t*>(buf);
    s_.avail_out = n;
    while (s_.avail_out == n) {
      lzma_action action = LZMA_RUN;
      if (!fill()) action = LZMA_FINISH;
      s_.next_in = next_in();
      s_.avail_in = avail();
      lzma_ret rc = lzma_code(&s_, action);
      in_pos_ = in_.size() - s_.avail_in;
      if (rc == LZMA_STREAM_END) {
        done_ = true;
        break;
      }
      if (rc == LZMA_BUF_ERROR && action == LZMA_FINISH) truncated();
      if (rc != LZMA_OK) corrupt("lzma error " + std::to_string(static_cast<int>(rc)));
    }
    return n - s_.avail_out;
  }

 private:
  lzma_stream s_ = LZMA_STREAM_INIT;
  bool done_ = false;
};

class Bzip2Source final : public SourceBase {
 public:
  Bzip2Source(std::unique_ptr<FdSource> fd, std::string head) : SourceBase(std::move(fd), std::move(head), Compression::kBzip2) {
    init();
  }
  ~Bzip2Source() override { BZ2_bzDecompressEnd(&s_); }

  size_t read(char* buf, size_t n) override {
    if (done_) return 0;
    s_.next_out = buf;
    s_.avail_out = static_cast<unsigned>(std::min<size_t>(n, 1u << 30));
    const unsigned want = s_.avail_out;
    while (s_.avail_out == want) {
      if (!fill()) {
        if (between_streams_) {
          done_ = true;
          break;
        }
        truncated();
      }
      if (between_streams_) {
        char* out = s_.next_out;
        unsigned room = s_.avail_out;
        BZ2_bzDecompressEnd(&s_);
        init();
        s_.next_out = out;
        s_.avail_out = room;
        between_streams_ = false;
      }
      s_.next_in = const_cast<char*>(reinterpret_cast<const char*>(next_in()));
      s_.avail_in = static_cast<unsigned>(avail());
      int rc = BZ2_bzDecompress(&s_);
      in_pos_ = in_.size() - s_.avail_in;
      if (rc == BZ_STREAM_END) {
        between_streams_ = true;
        if (s_.avail_out != want) break;
      } else if (rc != BZ_OK) {
        corrupt("bzip2 error " + std::to_string(rc));
      }
    }
    return want - s_.avail_out;
  }

 private:
  void init() {
    std::memset(&s_, 0, sizeof s_);
    if (BZ2_bzDecompressInit(&s_, 0, 0) != BZ_OK) throw Error("bzip2 initialisation failed").at(name());
  }
  bz_stream s_;
  bool between_streams_ = false;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> open_input(const std::string& path) {
  std::unique_ptr<FdSource> fd;
  if (path.empty() || path == "-") {
    fd = std::make_unique<FdSource>("-", 0, false);
  } else {
    int f = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f < 0) {
      int e = errno;
      throw Error(errno_text(e), e == ENOENT ? "check the path" : "").at(path);
    }
    fd = std::make_unique<FdSource>(path, f, true);
  }
  std::string head(6, '\0');
  head.resize(fd->read_full(head.data(), head.size()));
  Compression c = detect_compression(reinterpret_cast<const unsigned char*>(head.data()), head.size());
  switch (c) {
    case Compression::kGzip: return std::make_unique<GzipSource>(std::move(fd), std::move(head));
    case Compression::kZstd: return std::make_unique<ZstdSource>(std::move(fd), std::move(head));
    case Compression::kXz: return std::make_unique<XzSource>(std::move(fd), std::move(head));
    case Compression::kBzip2: return std::make_unique<Bzip2Source>(std::move(fd), std::move(head));
    case Compression::kNone: break;
  }
  return std::make_unique<PlainSource>(std::move(fd), std::move(head), Compression::kNone);
}

PeekableSource::PeekableSource(std::unique_ptr<ByteSource> inner) : WrappedSource(std::move(inner)) {}

std::string_view PeekableSource::peek(size_t n) {
  while (ahead_.size() - pos_ < n) {
    size_t have = ahead_.size();
    ahead_.resize(have + (n - (have - pos_)));
    size_t r = inner_->read(ahead_.data() + have, ahead_.size() - have);
    ahead_.resize(have + r);
    if (r == 0) break;
  }
  return std::string_view(ahead_).substr(pos_, n);
}

size_t PeekableSource::read(char* buf, size_t n) {
  if (pos_ < ahead_.size()) {
    size_t k = std::min(n, ahead_.size() - pos_);
    std::memcpy(buf, ahead_.data() + pos_, k);
    pos_ += k;
    if (pos_ == ahead_.size()) {
      ahead_.clear();
      pos_ = 0;
    }
    return k;
  }
  return inner_->read(buf, n);
}

Refill refill_window(ByteSource& src, std::string& buf, size_t& begin, size_t& end, bool& eof, size_t cap) {
  if (eof) return Refill::kEof;
  if (begin > 0) {
    std::memmove(buf.data(), buf.data() + begin, end - begin);
    end -= begin;
    begin = 0;
  }
  if (end == buf.size()) {
    if (buf.size() >= cap) return Refill::kFull;
    buf.resize(std::min(std::max<size_t>(buf.size() * 2, 1), cap));
  }
  size_t r = src.read(buf.data() + end, buf.size() - end);
  if (r == 0) {
    eof = true;
    return Refill::kEof;
  }
  end += r;
  return Refill::kRead;
}

uint64_t drop_rest_of_line(ByteSource& src, std::string& buf, size_t& begin, size_t& end, bool& eof) {
  uint64_t dropped = 0;
  for (;;) {
    const char* nl = static_cast<const char*>(std::memchr(buf.data() + begin, '\n', end - begin));
    if (nl) {
      const size_t pos = static_cast<size_t>(nl - buf.data());
      dropped += pos + 1 - begin;
      begin = pos + 1;
      return dropped;
    }
    dropped += end - begin;
    begin = end = 0;
    if (eof) return dropped;
    const size_t r = src.read(buf.data(), buf.size());
    if (r == 0) {
      eof = true;
      return dropped;
    }
    end = r;
  }
}

}  // namespace corpus
