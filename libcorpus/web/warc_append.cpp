#include "libcorpus/web/warc_append.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include <fmt/format.h>

#include "libcorpus/core/digest.h"
#include "libcorpus/core/error.h"

namespace corpus {

namespace {

constexpr const char* kAfresh = "delete the state file to start afresh";

}  // namespace

std::string warc_mark_path(const std::string& path) {
  return std::filesystem::absolute(path).lexically_normal().string();
}

WarcAppendFile::WarcAppendFile(const std::string& path) : path_(path), mark_path_(warc_mark_path(path)) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error(errno_text(errno)).at(path);
}

WarcAppendFile::WarcAppendFile(const std::string& path, const WarcMark& mark)
    : path_(path), mark_path_(warc_mark_path(path)) {
  if (mark_path_ != mark.path)
    throw Error("the state file belongs to another WARC, " + mark.path,
                "give -o " + mark.path + " to resume that crawl, or " + kAfresh)
        .at(path);
  // Opened without O_CREAT or O_TRUNC, and cut only once it proves to be the
  // state's WARC.
  fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd_ < 0) throw Error(errno_text(errno) + " (the state file's WARC)", kAfresh).at(path);
  try {
    struct stat st{};
    if (::fstat(fd_, &st) != 0) throw Error(errno_text(errno)).at(path);
    if (static_cast<uint64_t>(st.st_size) < mark.bytes)
      throw Error(fmt::format("the WARC is shorter ({} bytes) than the state says ({})", st.st_size, mark.bytes),
                  "the state file belongs to another WARC; delete it to start afresh")
          .at(path);
    if (tail_digest(mark.bytes) != mark.tail_digest)
      throw Error(fmt::format("the WARC's bytes before offset {} are not those the state file recorded "
                              "(the file was rewritten since)",
                              mark.bytes),
                  kAfresh)
          .at(path);
    if (::ftruncate(fd_, static_cast<off_t>(mark.bytes)) != 0 || ::lseek(fd_, 0, SEEK_END) < 0)
      throw Error(errno_text(errno)).at(path);
  } catch (...) {
    ::close(fd_);
    throw;
  }
  size_ = mark.bytes;
}

WarcAppendFile::~WarcAppendFile() { ::close(fd_); }

void WarcAppendFile::write(std::string_view s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(fd_, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(errno_text(errno)).at(path_);
    off += static_cast<size_t>(n);
  }
  size_ += s.size();
}

WarcMark WarcAppendFile::sync() {
  if (::fdatasync(fd_) != 0) throw Error(errno_text(errno)).at(path_);
  return {mark_path_, size_, tail_digest(size_)};
}

std::string WarcAppendFile::tail_digest(uint64_t end) const {
  const uint64_t begin = end > kWarcTailBytes ? end - kWarcTailBytes : 0;
  std::string buf(end - begin, '\0');
  size_t got = 0;
  while (got < buf.size()) {
    ssize_t n = ::pread(fd_, buf.data() + got, buf.size() - got, static_cast<off_t>(begin + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(errno_text(errno)).at(path_);
    if (n == 0) break;  // shorter than `end`: the digest cannot match
    got += static_cast<size_t>(n);
  }
  buf.resize(got);
  return digest_text(digest128(buf));
}

}  // namespace corpus
