// Output to stdout or to a file, compressed by the file's suffix.
//
// A file is written under a temporary name in the same folder and renamed to
// its real name by commit(); until then (error, Ctrl-C, kill) the real name is
// never a half-written file. Write and close errors are checked and thrown.
// A successful commit() also removes temporaries of the same name that killed
// runs left behind (tempfiles::remove_stale).
// An existing device or FIFO (/dev/null, /dev/stdout) is written directly.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "libcorpus/core/input.h"

namespace corpus {

// The compression a file name asks for: .gz, .zst, .xz, .bz2; else none.
Compression compression_for_path(std::string_view path);

class Output {
 public:
  // "-" or "" is stdout (uncompressed unless `compression` says otherwise).
  explicit Output(const std::string& path);
  Output(const std::string& path, Compression compression);
  ~Output();  // removes the temporary file if commit() was not reached
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  void write(std::string_view s) {
    if (s.size() <= cap_ - buf_.size()) {
      buf_.append(s);
      return;
    }
    write_slow(s);
  }
  void put(char c) {
    if (buf_.size() == cap_) flush_buffer();
    buf_.push_back(c);
  }

  // Finishes the compressed stream, closes, and renames to the real name.
  void commit();

  const std::string& name() const { return path_; }
  bool is_stdout() const { return fd_ == 1; }
  uint64_t bytes_written() const { return written_; }

  class Encoder;  // compression back end (output.cpp)

 private:
  void write_slow(std::string_view s);
  void flush_buffer();
  void write_fd(const char* p, size_t n);

  std::string path_;
  std::string dir_, base_;  // path_ split: "" or "folder/", and the file name
  std::string tmp_path_;
  int fd_ = -1;
  bool committed_ = false;
  bool direct_ = false;  // an existing device or FIFO: no temporary file
  size_t cap_ = 1 << 20;
  std::string buf_;
  uint64_t written_ = 0;
  int temp_slot_ = -1;
  std::unique_ptr<Encoder> enc_;
};

}  // namespace corpus
