// Errors carried from the libraries to the tools' main.
//
// Libraries never print or exit: they throw one of two errors, each knowing
// where the problem is (file, line), what is wrong and how to fix it:
//  - corpus::Error: the data or the run is wrong (bad input, a damaged model
//    file, a failed write);
//  - corpus::ConfigError: a setting the caller chose is invalid, or inputs
//    that must fit together do not (unequal --src/--trg line counts).
// Only the CLI layer (cli.h) turns them into messages and exit codes
// (DESIGN.md §5: Error -> 1, ConfigError and the CLI's own ConfigError -> 2).
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
  explicit Error(std::string what, std::string hint = {});

  // Adds the location; `line` 0 means "the file as a whole".
  Error& at(std::string file, uint64_t line = 0);

  const std::string& file() const { return file_; }
  uint64_t line() const { return line_; }
  const std::string& hint() const { return hint_; }
  // The exit status the CLI layer gives this error (kExitData, or kExitUsage
  // for a ConfigError).
  int exit_code() const { return exit_code_; }

  // "TOOL: FILE:LINE: what — hint" (the parts that are known).
  std::string format(std::string_view tool) const;

 private:
  std::string file_;
  uint64_t line_ = 0;
  std::string hint_;

 protected:
  int exit_code_ = kExitData;
};

// An invalid setting (a value out of range, an unknown name), or inputs that
// do not fit together. What a library throws where a tool would have said
// "usage error".
class ConfigError : public Error {
 public:
  explicit ConfigError(std::string what, std::string hint = {}) : Error(std::move(what), std::move(hint)) {
    exit_code_ = kExitUsage;
  }
};

// The reader of our stdout went away (EPIPE): the tool ends quietly with 0.
class BrokenPipe : public std::exception {
 public:
  const char* what() const noexcept override { return "broken pipe"; }
};

// strerror(errno) as a std::string, for messages.
std::string errno_text(int err);

// `text` made safe for a one-line message: \n, \r and \t written as those
// two characters, U+2028, U+2029 and C1 controls as \uXXXX, other control
// bytes and bytes that are not UTF-8 as \xNN. Valid UTF-8 passes as is;
// backslashes are not doubled (messages stay readable, not reversible).
std::string one_line(std::string_view text);

// Quotes a value for an error message, escaped as one_line() does and
// shortened to about `max` bytes (never inside a character).
std::string quote(std::string_view value, size_t max = 60);

}  // namespace corpus
