#include "libcorpus/core/output.h"

#include <bzlib.h>
#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>

#include "libcorpus/core/error.h"
#include "libcorpus/core/tempfiles.h"

namespace corpus {

Compression compression_for_path(std::string_view path) {
  auto ends = [&](std::string_view suf) {
    return path.size() > suf.size() && path.substr(path.size() - suf.size()) == suf;
  };
  if (ends(".gz")) return Compression::kGzip;
  if (ends(".zst")) return Compression::kZstd;
  if (ends(".xz")) return Compression::kXz;
  if (ends(".bz2")) return Compression::kBzip2;
  return Compression::kNone;
}

// Turns plain bytes into compressed bytes handed to `sink`.
class Output::Encoder {
 public:
  using Sink = std::function<void(const char*, size_t)>;
  virtual ~Encoder() = default;
  virtual void encode(const char* p, size_t n, bool finish, const Sink& sink) = 0;

 protected:
  std::string out_ = std::string(1 << 17, '\0');
};

namespace {

class GzipEncoder final : public Output::Encoder {
 public:
  GzipEncoder() {
    std::memset(&z_, 0, sizeof z_);
    if (deflateInit2(&z_, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw Error("zlib initialisation failed");
  }
  ~GzipEncoder() override { deflateEnd(&z_); }
  void encode(const char* p, size_t n, bool finish, const Sink& sink) override {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(p));
    z_.avail_in = static_cast<uInt>(n);
    int rc;
    do {
      z_.next_out = reinterpret_cast<Bytef*>(out_.data());
      z_.avail_out = static_cast<uInt>(out_.size());
      rc = deflate(&z_, finish ? Z_FINISH : Z_NO_FLUSH);
      if (rc == Z_STREAM_ERROR) throw Error("gzip compression failed");
      sink(out_.data(), out_.size() - z_.avail_out);
    } while (z_.avail_out == 0 || (finish && rc != Z_STREAM_END));
  }

 private:
  z_stream z_;
};

class ZstdEncoder final : public Output::Encoder {
 public:
  ZstdEncoder() : cs_(ZSTD_createCStream()) {
    if (!cs_) throw Error("zstd initialisation failed");
    ZSTD_initCStream(cs_, 3);
  }
  ~ZstdEncoder() override { ZSTD_freeCStream(cs_); }
  void encode(const char* p, size_t n, bool finish, const Sink& sink) override {
    ZSTD_inBuffer in{p, n, 0};
    for (;;) {
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      size_t rc = ZSTD_compressStream2(cs_, &out, &in, finish ? ZSTD_e_end : ZSTD_e_continue);
      if (ZSTD_isError(rc)) throw Error(std::string("zstd compression failed: ") + ZSTD_getErrorName(rc));
      sink(out_.data(), out.pos);
      if (finish ? rc == 0 : in.pos == in.size) break;
    }
  }

 private:
  ZSTD_CStream* cs_;
};

class XzEncoder final : public Output::Encoder {
 public:
  XzEncoder() {
    if (lzma_easy_encoder(&s_, 6, LZMA_CHECK_CRC64) != LZMA_OK) throw Error("xz initialisation failed");
  }
  ~XzEncoder() override { lzma_end(&s_); }
  void encode(const char* p, size_t n, bool finish, const Sink& sink) override {
    s_.next_in = reinterpret_cast<const uint8_t*>(p);
    s_.avail_in = n;
    for (;;) {
      s_.next_out = reinterpret_cast<uint8_t*>(out_.data());
      s_.avail_out = out_.size();
      lzma_ret rc = lzma_code(&s_, finish ? LZMA_FINISH : LZMA_RUN);
      if (rc != LZMA_OK && rc != LZMA_STREAM_END) throw Error("xz compression failed");
      sink(out_.data(), out_.size() - s_.avail_out);
      if (finish ? rc == LZMA_STREAM_END : s_.avail_in == 0) break;
    }
  }

 private:
  lzma_stream s_ = LZMA_STREAM_INIT;
};

class Bzip2Encoder final : public Output::Encoder {
 public:
  Bzip2Encoder() {
    std::memset(&s_, 0, sizeof s_);
    if (BZ2_bzCompressInit(&s_, 9, 0, 0) != BZ_OK) throw Error("bzip2 initialisation failed");
  }
  ~Bzip2Encoder() override { BZ2_bzCompressEnd(&s_); }
  void encode(const char* p, size_t n, bool finish, const Sink& sink) override {
    s_.next_in = const_cast<char*>(p);
    s_.avail_in = static_cast<unsigned>(n);
    for (;;) {
      s_.next_out = out_.data();
      s_.avail_out = static_cast<unsigned>(out_.size());
      int rc = BZ2_bzCompress(&s_, finish ? BZ_FINISH : BZ_RUN);
      if (rc < 0) throw Error("bzip2 compression failed");
      sink(out_.data(), out_.size() - s_.avail_out);
      if (finish ? rc == BZ_STREAM_END : s_.avail_in == 0) break;
    }
  }

 private:
  bz_stream s_;
};

std::unique_ptr<Output::Encoder> make_encoder(Compression c) {
  switch (c) {
    case Compression::kGzip: return std::make_unique<GzipEncoder>();
    case Compression::kZstd: return std::make_unique<ZstdEncoder>();
    case Compression::kXz: return std::make_unique<XzEncoder>();
    case Compression::kBzip2: return std::make_unique<Bzip2Encoder>();
    case Compression::kNone: break;
  }
  return nullptr;
}

}  // namespace

Output::Output(const std::string& path) : Output(path, compression_for_path(path)) {}

Output::Output(const std::string& path, Compression compression) : path_(path.empty() ? "-" : path) {
  if (path_ == "-") {
    fd_ = 1;
  } else {
    tempfiles::Target t = tempfiles::open_target(path_);
    dir_ = std::move(t.dir);
    base_ = std::move(t.base);
    tmp_path_ = std::move(t.tmp_path);
    fd_ = t.fd;
    temp_slot_ = t.slot;
    direct_ = t.direct;  // a device or pipe (/dev/null, /dev/stdout, a FIFO)
  }
  enc_ = make_encoder(compression);
  buf_.reserve(cap_);
}

Output::~Output() {
  if (direct_ && fd_ > 1) {
    ::close(fd_);
  } else if (!committed_ && fd_ > 1) {
    ::close(fd_);
    ::unlink(tmp_path_.c_str());
    tempfiles::remove(temp_slot_);
  }
}

void Output::write_fd(const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE) throw BrokenPipe();
      throw Error("write error (" + errno_text(errno) + ")").at(path_);
    }
    p += w;
    n -= static_cast<size_t>(w);
    written_ += static_cast<uint64_t>(w);
  }
}

void Output::flush_buffer() {
  if (buf_.empty()) return;
  if (enc_) {
    enc_->encode(buf_.data(), buf_.size(), false, [this](const char* p, size_t n) { write_fd(p, n); });
  } else {
    write_fd(buf_.data(), buf_.size());
  }
  buf_.clear();
}

void Output::write_slow(std::string_view s) {
  flush_buffer();
  if (s.size() >= cap_) {
    if (enc_)
      enc_->encode(s.data(), s.size(), false, [this](const char* p, size_t n) { write_fd(p, n); });
    else
      write_fd(s.data(), s.size());
  } else {
    buf_.append(s);
  }
}

void Output::commit() {
  if (committed_) return;
  flush_buffer();
  if (enc_) enc_->encode(nullptr, 0, true, [this](const char* p, size_t n) { write_fd(p, n); });
  if (direct_ && fd_ > 1) {
    int rc = ::close(fd_);
    fd_ = -1;
    committed_ = true;
    if (rc != 0) throw Error("error closing output (" + errno_text(errno) + ")").at(path_);
    return;
  }
  if (fd_ > 1) {
    if (::close(fd_) != 0) {
      int e = errno;
      fd_ = -1;
      ::unlink(tmp_path_.c_str());
      tempfiles::remove(temp_slot_);
      committed_ = true;
      throw Error("error closing output (" + errno_text(e) + ")").at(path_);
    }
    fd_ = -1;
    if (::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
      int e = errno;
      ::unlink(tmp_path_.c_str());
      tempfiles::remove(temp_slot_);
      committed_ = true;
      throw Error("cannot rename temporary file into place (" + errno_text(e) + ")").at(path_);
    }
    tempfiles::remove(temp_slot_);
    // The final name is in place: what killed runs left beside it goes.
    tempfiles::remove_stale(dir_, base_);
  }
  committed_ = true;
}

}  // namespace corpus
