// The command-line module every pc-* tool uses (DESIGN.md §5).
//
// A tool declares its options once, in a table; from that table come the
// parser (Boost.Program_options), the --help text (About/Usage/groups with the
// default in brackets), --help-table (the table as TSV, which the man-page
// test checks), and the provenance command line. App::run() then owns the
// process conventions: error format and exit codes, SIGPIPE/SIGINT, thread
// control, progress bar, end-of-run summary and the --meta JSON.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libcorpus/core/counts.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/progress.h"

namespace corpus::cli {

// A mistake in how the tool was called: an unknown option, a bad value, an
// option of another subcommand. Only the CLI layer and the tools' wiring
// throw it; libraries throw corpus::ConfigError for bad settings.
class UsageError : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

enum class Kind { kFlag, kString, kInt, kUInt64, kDouble, kStrings };

struct Option {
  std::string long_name;   // "output"
  char short_name = 0;     // 'o', or 0
  std::string arg;         // "FILE"; empty for flags
  std::string help;        // one line
  std::string default_text;
  std::string group;
  Kind kind = Kind::kFlag;
  void* target = nullptr;
  bool runtime_only = false;  // cannot change the output (threads, logging)
};

// The shared options; each tool picks the ones that apply with `Common::Set`.
struct Common {
  enum Set : unsigned {
    kOutput = 1,    // -o/--output
    kThreads = 2,   // -j/--threads
    kSeed = 4,      // --seed
    kLangs = 8,     // -s/--src-lang, -t/--trg-lang
    kSkipBad = 16,  // --skip-bad
    kInputs = 32,   // positional FILE...
    kAll = 63,
  };
  std::string output = "-";
  int threads = 0;  // 0: available CPUs
  uint64_t seed = 1;
  bool quiet = false;
  bool verbose = false;
  bool progress = false;
  bool no_progress = false;
  std::string meta;
  bool skip_bad = false;
  std::string src_lang, trg_lang;
  std::vector<std::string> inputs;
};

class Context;

class App {
 public:
  App(std::string tool, std::string about, std::string usage);
  ~App();

  // Options declared after this go under `title` in --help.
  void group(std::string title);
  // `names` is "o,output" or "output". A default text of "" shows the
  // target's initial value (nothing for empty strings, zeros and flags).
  void flag(const std::string& names, bool* target, std::string help);
  void option(const std::string& names, std::string arg, std::string* target, std::string help, std::string dflt = "");
  void option(const std::string& names, std::string arg, int* target, std::string help, std::string dflt = "");
  void option(const std::string& names, std::string arg, uint64_t* target, std::string help, std::string dflt = "");
  void option(const std::string& names, std::string arg, double* target, std::string help, std::string dflt = "");
  void option(const std::string& names, std::string arg, std::vector<std::string>* target, std::string help,
              std::string dflt = "");
  // Declares the shared options in `set`, plus -q -v --progress --no-progress
  // --meta -h --version --help-table, which every tool has. Call it once,
  // after the tool's own options.
  void common(Common& c, unsigned set);

  // Parses argv, runs `body`, and returns the process exit code.
  int run(int argc, char** argv, const std::function<void(Context&)>& body);

  const std::vector<Option>& table() const { return table_; }
  std::string help_text() const;
  std::string table_tsv() const;
  std::string version_text() const;
  // Adds "name: value" to --version (e.g. the BLAS a tool links, DESIGN §8).
  void version_line(std::string name, std::string value);
  const std::string& tool() const { return tool_; }

 private:
  void add(Option o, const std::string& names);

  std::string tool_, about_, usage_;
  std::string current_group_ = "Options";
  std::vector<Option> table_;
  Common* common_ = nullptr;
  unsigned common_set_ = 0;
  bool want_help_ = false, want_version_ = false, want_table_ = false;
  std::vector<std::pair<std::string, std::string>> version_lines_;
};

// What a tool's body sees while it runs.
class Context {
 public:
  Context(const App& app, const Common& common, std::vector<std::string> argv, int threads);
  ~Context();

  const Common& common() const { return common_; }
  const std::string& tool() const { return app_.tool(); }
  int threads() const { return threads_; }
  Progress& progress() { return *progress_; }

  // Counters for the end-of-run summary and --meta, in first-use order.
  void count(const std::string& key, uint64_t n = 1);
  void set_count(const std::string& key, uint64_t n);
  const std::vector<std::pair<std::string, uint64_t>>& counts() const { return counts_.entries(); }

  // Records an input file for --meta (path and size).
  void note_input(const std::string& path);

  // Messages on stderr: info unless --quiet, debug only with --verbose,
  // warn always.
  void info(const std::string& msg);
  void debug(const std::string& msg);
  void warn(const std::string& msg);

  // The command line without the options that cannot change the output
  // (threads, logging, progress, --meta): what provenance records.
  std::string provenance_command() const;

  // Internal: summary line and meta JSON.
  std::string summary_line(double wall_seconds) const;
  std::string meta_json(double wall_seconds, int exit_code) const;

  // Throws a UsageError when the tool would read stdin but stdin is a
  // terminal: the user forgot the input.
  void check_stdin_not_terminal(const std::string& usage) const;

 private:
  const App& app_;
  const Common& common_;
  std::vector<std::string> argv_;
  int threads_;
  std::unique_ptr<Progress> progress_;
  OrderedCounts counts_;
  std::vector<std::pair<std::string, int64_t>> inputs_;
  std::string started_;
};

}  // namespace corpus::cli
