#include "libcorpus/ingest/per_lang_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "libcorpus/core/chunk_compress.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/tempfiles.h"

namespace corpus {

namespace {
bool ends_with(std::string_view s, std::string_view t) {
  return s.size() >= t.size() && s.substr(s.size() - t.size()) == t;
}
// Language codes become file names: keep [A-Za-z0-9_-], anything else is '_'.
std::string safe(const std::string& lang) {
  std::string r = lang.empty() ? "und" : lang;
  for (char& c : r)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return r;
}
}  // namespace

LangSplitWriter::LangSplitWriter(std::string dir, std::string suffix, size_t buffer_bytes)
    : dir_(std::move(dir)), suffix_(std::move(suffix)), cap_(buffer_bytes) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw Error("cannot create the folder: " + ec.message()).at(dir_);
}

LangSplitWriter::~LangSplitWriter() {
  if (committed_) return;
  for (const auto& [lang, path] : tmp_) ::unlink(path.c_str());
}

const std::string& LangSplitWriter::temp_path(const std::string& lang) {
  auto [it, fresh] = tmp_.try_emplace(lang);
  if (fresh) {
    std::string path = tempfiles::template_for(dir_ + "/", safe(lang) + suffix_);
    int fd = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd < 0) {
      tmp_.erase(it);
      throw Error("cannot create a temporary file: " + errno_text(errno)).at(dir_);
    }
    const mode_t mask = ::umask(0);  // mkostemp makes 0600; outputs get 0666 less the umask, as Output's do
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    ::close(fd);
    it->second = std::move(path);
  }
  return it->second;
}

void LangSplitWriter::write(const std::string& lang, std::string_view line) {
  auto [it, fresh] = bufs_.try_emplace(lang);
  if (fresh) temp_path(lang);
  it->second.append(line);
  it->second += '\n';
  buffered_ += line.size() + 1;
  if (buffered_ >= cap_) {
    for (auto& [l, b] : bufs_) flush(l, b);
    buffered_ = 0;
  }
}

void LangSplitWriter::flush(const std::string& lang, std::string& buf) {
  if (buf.empty()) return;
  std::string chunk = ends_with(suffix_, ".gz") ? gzip_member(buf) : ends_with(suffix_, ".zst") ? zstd_frame(buf) : buf;
  const std::string& path = temp_path(lang);
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) throw Error("cannot write: " + errno_text(errno)).at(path);
  size_t off = 0;
  while (off < chunk.size()) {
    ssize_t n = ::write(fd, chunk.data() + off, chunk.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      ::close(fd);
      throw Error("cannot write: " + errno_text(e)).at(path);
    }
    off += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) throw Error("cannot write: " + errno_text(errno)).at(path);
  buf.clear();
}

void LangSplitWriter::commit() {
  for (auto& [l, b] : bufs_) flush(l, b);
  for (const auto& [lang, buf] : bufs_) {
    std::string final_path = dir_ + "/" + safe(lang) + suffix_;
    const std::string& tmp = temp_path(lang);
    if (std::rename(tmp.c_str(), final_path.c_str()) != 0)
      throw Error("cannot rename to its final name: " + errno_text(errno)).at(final_path);
  }
  committed_ = true;
  // What killed runs left beside these names goes, as corpus::Output does.
  for (const auto& [lang, buf] : bufs_) tempfiles::remove_stale(dir_ + "/", safe(lang) + suffix_);
}

}  // namespace corpus
