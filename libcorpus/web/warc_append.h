// The WARC of a crawl with a state file: appended to record by record, and
// reopened on resume at the length the state recorded, cutting off records
// written after the last save (requests the state does not know of). Since
// that cut destroys whatever lies beyond, a state names its WARC by a
// WarcMark, and a file that is not that WARC is refused, untouched.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace corpus {

// A WARC as a state file saw it: enough to tell that a file is the same WARC
// and still holds what was written when the state was saved.
struct WarcMark {
  std::string path;         // absolute, lexically normal
  uint64_t bytes = 0;       // its length then
  std::string tail_digest;  // digest_text() of the kWarcTailBytes bytes before `bytes` (all, if fewer)
};

// A gzip or zstd member per record, so the last 64 KiB span at least the last
// record of most crawls, and reading them back once a second costs nothing.
inline constexpr uint64_t kWarcTailBytes = 64 << 10;

// `path` as a WarcMark names it.
std::string warc_mark_path(const std::string& path);

class WarcAppendFile {
 public:
  // Creates `path`, or empties it: a crawl starting afresh.
  explicit WarcAppendFile(const std::string& path);
  // Reopens the WARC `mark` was taken of and cuts it to mark.bytes. Throws
  // Error, leaving the file as it is, when `path` is another file, or when
  // the file is shorter or its bytes before mark.bytes differ.
  WarcAppendFile(const std::string& path, const WarcMark& mark);
  ~WarcAppendFile();
  WarcAppendFile(const WarcAppendFile&) = delete;
  WarcAppendFile& operator=(const WarcAppendFile&) = delete;

  void write(std::string_view s);
  // Flushes to disk; returns the mark of what is written so far.
  WarcMark sync();
  uint64_t size() const { return size_; }

 private:
  std::string tail_digest(uint64_t end) const;

  std::string path_, mark_path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace corpus
