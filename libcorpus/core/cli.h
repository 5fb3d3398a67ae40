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
#include <deque>
#include <functional>
#include <memory>
#include <optional>
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

// How a value is read. Every non-flag option is parsed once, by the table,
// into its final type; a bad value is a usage error naming the option.
enum class Kind {
  kFlag,     // bool, no value
  kString,   // std::string
  kChoice,   // std::string, one of Option::choices
  kInt,      // int, int64_t, uint64_t (with an optional range)
  kFloat,    // double, float (with an optional range)
  kSize,     // uint64_t bytes written as 20M, 512k, 1G or plain bytes
  kList,     // std::vector<std::string>: comma-separated, and the option may repeat
};

struct Option {
  std::string long_name;   // "output"
  char short_name = 0;     // 'o', or 0
  std::string arg;         // "FILE"; empty for flags
  std::string help;        // one line
  std::string default_text;
  std::string group;
  Kind kind = Kind::kFlag;
  bool* flag = nullptr;    // kFlag
  // Parses one value (each item for kList) into the target; throws UsageError.
  std::function<void(const Option&, const std::string&)> set;
  std::vector<std::string> choices;  // kChoice: the allowed values
  bool has_range = false;            // kInt, kFloat: lo <= value <= hi
  double lo = 0, hi = 0;
  bool runtime_only = false;  // cannot change the output (threads, logging)
  bool split_commas = true;   // kList: "a,b" is two items
  std::string range_text() const;    // "0..1", "1..", "" without a range
};

// What option() returns: modifiers for the option just declared.
class OptionRef {
 public:
  explicit OptionRef(Option& o) : o_(o) {}
  // Values outside [lo, hi] are usage errors; shown in --help.
  OptionRef& range(double lo, double hi);
  OptionRef& at_least(double lo);
  // The option cannot change the output (threads, logging): provenance leaves it out.
  OptionRef& runtime_only();
  // kList: each value is one item, commas included (regexes).
  OptionRef& whole_items();
  Option& option() { return o_; }

 private:
  Option& o_;
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
    kMaxLine = 64,  // --max-line
    kAll = 127,
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
  // Longest input line in bytes: a longer one is bad input, read past
  // without being held whole (see corpus::LineLimit).
  uint64_t max_line = uint64_t{32} << 20;
  std::string src_lang, trg_lang;
  std::vector<std::string> inputs;
};

class Context;

// A tool's option table, or one subcommand's. A tool with subcommands
// (`pc-nmt train|translate|inspect`) declares each with subcommand(), which
// has a table of its own: an option of another subcommand is a usage error
// naming the subcommand that has it, and `TOOL CMD --help` shows only CMD's
// options.
class App {
 public:
  App(std::string tool, std::string about, std::string usage);
  ~App();

  // Options declared after this go under `title` in --help.
  void group(std::string title);
  // `names` is "o,output" or "output". The default shown in --help is the
  // target's value when declared (nothing for empty strings, empty optionals
  // and flags); `shown_default` replaces it only where the default is not a
  // value ("stdout", "from --arch").
  void flag(const std::string& names, bool* target, std::string help);
  template <class T>
  OptionRef option(const std::string& names, std::string arg, T* target, std::string help,
                   std::string shown_default = "");
  // A string that must be one of `choices` (listed in --help and checked).
  OptionRef choice(const std::string& names, std::string arg, std::string* target, std::vector<std::string> choices,
                   std::string help, std::string shown_default = "");
  // A size in bytes, written 20M, 512k, 1G or 1000 (k, M, G are powers of 1024).
  OptionRef size(const std::string& names, std::string arg, uint64_t* target, std::string help,
                 std::string shown_default = "");
  // Declares the shared options in `set`, plus -q -v --progress --no-progress
  // --meta -h --version --help-table, which every tool has. Call it once,
  // after the tool's own options (for each subcommand, in the subcommand).
  void common(Common& c, unsigned set);

  // A subcommand with its own option table; `usage` is what follows the tool
  // name ("train [options] BITEXT..."). The returned App lives as long as this.
  App& subcommand(std::string name, std::string about, std::string usage);
  // A family of command words under one table: `matches` says which words
  // belong to it (pc-eval's "bleu", "chrf,chrf++", ...); `name` is how help
  // lists it. Context::command() gives the word as typed.
  App& subcommand(std::function<bool(const std::string&)> matches, std::string name, std::string about,
                  std::string usage);

  // Parses argv, runs `body`, and returns the process exit code. With
  // subcommands, argv[1] chooses one and Context::command() names it.
  int run(int argc, char** argv, const std::function<void(Context&)>& body);

  const std::deque<Option>& table() const { return table_; }
  std::string help_text() const;
  std::string table_tsv() const;
  std::string version_text() const;
  // Adds "name: value" to --version (e.g. the BLAS a tool links, DESIGN §8).
  void version_line(std::string name, std::string value);
  const std::string& tool() const { return tool_; }
  const std::string& command() const { return command_; }  // "" for the tool itself
  const std::string& invoked() const { return invoked_; }  // the command word as typed
  const Common* common_options() const { return common_; }

 private:
  OptionRef add(Option o, const std::string& names);
  int run_args(const std::vector<std::string>& args, size_t first, const std::function<void(Context&)>& body);
  // The subcommands that declare an option ("dim" or "m"), in declaration order.
  std::vector<const App*> owners_of(const std::string& name) const;

  std::string tool_, about_, usage_, command_, invoked_;
  std::function<bool(const std::string&)> matches_;
  const App* parent_ = nullptr;
  std::string current_group_ = "Options";
  std::deque<Option> table_;
  std::vector<std::unique_ptr<App>> subs_;
  Common* common_ = nullptr;
  unsigned common_set_ = 0;
  bool want_help_ = false, want_version_ = false, want_table_ = false;
  std::vector<std::pair<std::string, std::string>> version_lines_;
};

// The value types option() reads (defined in cli.cpp).
#define PC_CLI_TYPES(X)                                                                                  \
  X(std::string) X(int) X(uint32_t) X(int64_t) X(uint64_t) X(double) X(float) X(std::vector<std::string>)            \
  X(std::optional<int>) X(std::optional<int64_t>) X(std::optional<uint64_t>) X(std::optional<double>)    \
  X(std::optional<std::string>)
#define PC_CLI_EXTERN(T) \
  extern template OptionRef App::option<T>(const std::string&, std::string, T*, std::string, std::string);
PC_CLI_TYPES(PC_CLI_EXTERN)
#undef PC_CLI_EXTERN

// "a" / "a or b" / "a, b or c": the allowed values of a choice, for messages.
std::string one_of(const std::vector<std::string>& choices);

// What a tool's body sees while it runs.
class Context {
 public:
  Context(const App& app, const Common& common, std::vector<std::string> argv, int threads);
  ~Context();

  const Common& common() const { return common_; }
  const std::string& tool() const { return app_.tool(); }
  // The subcommand that runs ("train"), "" for a tool without subcommands.
  const std::string& command() const { return app_.invoked(); }
  int threads() const { return threads_; }
  Progress& progress() { return *progress_; }

  // Counters for the end-of-run summary and --meta, in first-use order.
  void count(const std::string& key, uint64_t n = 1);
  void set_count(const std::string& key, uint64_t n);
  void set_counts(const OrderedCounts& c) {
    for (const auto& [k, v] : c.entries()) set_count(k, v);
  }
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

  // The one input of a tool that reads one: FILE, or "-" (stdin) when none is
  // given. Several files, or stdin on a terminal, are usage errors; the input
  // is recorded for --meta.
  std::string single_input(const std::vector<std::string>& files, const std::string& usage);

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
