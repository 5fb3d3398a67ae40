#include "libcorpus/core/input.h"

#include <bzlib.h>
#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
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

class GzipSource final : public SourceBase {
 public:
  GzipSource(std::unique_ptr<FdSource> fd, std::string head) : SourceBase(std::move(fd), std::move(head), Compression::kGzip) {
    std::memset(&z_, 0, sizeof z_);
    if (inflateInit2(&z_, 15 + 16) != Z_OK) throw Error("zlib initialisation failed").at(name());
  }
  ~GzipSource() override { inflateEnd(&z_); }

  size_t read(char* buf, size_t n) override {
    if (done_) return 0;
    z_.next_out = reinterpret_cast<Bytef*>(buf);
    z_.avail_out = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    while (z_.avail_out > 0) {
      if (!fill()) {
        if (between_members_) {
          done_ = true;
          break;
        }
        truncated();
      }
      if (between_members_) {
        // Another gzip member must follow, or nothing at all.
        if (next_in()[0] != 0x1f) corrupt("trailing garbage after gzip member");
        between_members_ = false;
      }
      z_.next_in = const_cast<Bytef*>(next_in());
      z_.avail_in = static_cast<uInt>(avail());
      int rc = inflate(&z_, Z_NO_FLUSH);
      in_pos_ = in_.size() - z_.avail_in;
      if (rc == Z_STREAM_END) {
        inflateReset(&z_);
        between_members_ = true;
        if (z_.avail_out < n) break;  // return what this member gave
      } else if (rc == Z_BUF_ERROR) {
        continue;  // needs more input
      } else if (rc != Z_OK) {
        corrupt(z_.msg ? z_.msg : "inflate error");
      }
    }
    return n - z_.avail_out;
  }

 private:
  z_stream z_;
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
