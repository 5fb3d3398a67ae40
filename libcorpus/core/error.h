// Errors carried from the libraries to the tools' main.
//
// Libraries never print or exit: they throw corpus::Error, which knows where the
// problem is (file, line), what is wrong, how to fix it, and which exit code the
// tool should end with (DESIGN.md §5: 1 data/runtime error, 2 usage error or
// unbalanced input).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace corpus {

enum ExitCode : int {
  kExitOk = 0,
  kExitData = 1,
  kExitUsage = 2,
  kExitInterrupted = 130,
};

class Error : public std::runtime_error {
 public:
  explicit Error(std::string what, std::string hint = {}, int exit_code = kExitData);

  // Adds the location; `line` 0 means "the file as a whole".
  Error& at(std::string file, uint64_t line = 0);

  const std::string& file() const { return file_; }
  uint64_t line() const { return line_; }
  const std::string& hint() const { return hint_; }
  int exit_code() const { return exit_code_; }

  // "TOOL: FILE:LINE: what — hint" (the parts that are known).
  std::string format(std::string_view tool) const;

 private:
  std::string file_;
  uint64_t line_ = 0;
  std::string hint_;
  int exit_code_;
};

// A mistake in how the tool was called, or inputs that do not fit together.
class UsageError : public Error {
 public:
  explicit UsageError(std::string what, std::string hint = {})
      : Error(std::move(what), std::move(hint), kExitUsage) {}
};

// The reader of our stdout went away (EPIPE): the tool ends quietly with 0.
class BrokenPipe : public std::exception {
 public:
  const char* what() const noexcept override { return "broken pipe"; }
};

// strerror(errno) as a std::string, for messages.
std::string errno_text(int err);

// Quotes a value for an error message, shortening it to `max` bytes.
std::string quote(std::string_view value, size_t max = 60);

}  // namespace corpus
