// The option table: declaration, help text, --help-table and --version.
#include "libcorpus/core/cli.h"

#include <fmt/format.h>

#include <stdexcept>

#include "libcorpus/core/sysinfo.h"
#include "libcorpus/core/threads.h"

namespace corpus::cli {

App::App(std::string tool, std::string about, std::string usage)
    : tool_(std::move(tool)), about_(std::move(about)), usage_(std::move(usage)) {}

App::~App() = default;

void App::group(std::string title) { current_group_ = std::move(title); }

void App::add(Option o, const std::string& names) {
  auto comma = names.find(',');
  if (comma == 1) {
    o.short_name = names[0];
    o.long_name = names.substr(2);
  } else {
    o.long_name = names;
  }
  o.group = current_group_;
  for (const auto& x : table_) {
    if (x.long_name == o.long_name || (o.short_name && x.short_name == o.short_name))
      throw std::logic_error(tool_ + ": option declared twice: " + names);
  }
  table_.push_back(std::move(o));
}

void App::flag(const std::string& names, bool* target, std::string help) {
  Option o;
  o.help = std::move(help);
  o.kind = Kind::kFlag;
  o.target = target;
  add(std::move(o), names);
}

namespace {
template <class T>
std::string default_of(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return v;
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    std::string s;
    for (auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s;
  } else {
    return v == T{} ? std::string() : fmt::format("{}", v);
  }
}
}  // namespace

#define PC_OPTION_OVERLOAD(T, KIND)                                                                          \
  void App::option(const std::string& names, std::string arg, T* target, std::string help, std::string dflt) { \
    Option o;                                                                                                \
    o.arg = std::move(arg);                                                                                  \
    o.help = std::move(help);                                                                                \
    o.default_text = dflt.empty() ? default_of(*target) : std::move(dflt);                                   \
    o.kind = KIND;                                                                                           \
    o.target = target;                                                                                       \
    add(std::move(o), names);                                                                                \
  }
PC_OPTION_OVERLOAD(std::string, Kind::kString)
PC_OPTION_OVERLOAD(int, Kind::kInt)
PC_OPTION_OVERLOAD(uint64_t, Kind::kUInt64)
PC_OPTION_OVERLOAD(double, Kind::kDouble)
PC_OPTION_OVERLOAD(std::vector<std::string>, Kind::kStrings)
#undef PC_OPTION_OVERLOAD

void App::common(Common& c, unsigned set) {
  common_ = &c;
  common_set_ = set;
  std::string saved = current_group_;
  if (set & Common::kLangs) {
    group("Languages");
    option("s,src-lang", "LANG", &c.src_lang, "source language code (BCP 47, e.g. en)");
    option("t,trg-lang", "LANG", &c.trg_lang, "target language code (BCP 47, e.g. fr)");
  }
  group("Common options");
  if (set & Common::kOutput)
    option("o,output", "FILE", &c.output, "write to FILE, compressed by its suffix (.gz .zst .xz .bz2)", "stdout");
  if (set & Common::kSkipBad) flag("skip-bad", &c.skip_bad, "skip malformed records, count and report them");
  if (set & Common::kThreads) {
    option("j,threads", "N", &c.threads, "worker threads (oneTBB and OpenMP)",
           fmt::format("CPUs available: {}", threads::available_cpus()));
    table_.back().runtime_only = true;
  }
  if (set & Common::kSeed) option("seed", "N", &c.seed, "seed for every random choice", "1");
  flag("q,quiet", &c.quiet, "no summary or information messages on stderr");
  table_.back().runtime_only = true;
  flag("v,verbose", &c.verbose, "more messages on stderr");
  table_.back().runtime_only = true;
  flag("progress", &c.progress, "show a progress bar (default when stderr is a terminal)");
  table_.back().runtime_only = true;
  flag("no-progress", &c.no_progress, "never show a progress bar");
  table_.back().runtime_only = true;
  option("meta", "FILE", &c.meta, "write provenance JSON (argv, version, counts, timings) to FILE");
  table_.back().runtime_only = true;
  flag("h,help", &want_help_, "print this help and exit");
  flag("version", &want_version_, "print version, commit, compiler and SIMD level and exit");
  flag("help-table", &want_table_, "print the option table as TSV and exit (for scripts and man-page checks)");
  current_group_ = saved;
}

std::string App::help_text() const {
  std::string s = fmt::format("About:   {}\nUsage:   {}\n", about_, usage_);
  auto left = [](const Option& o) {
    std::string l = o.short_name ? fmt::format("-{}, ", o.short_name) : std::string("    ");
    l += "--" + o.long_name;
    if (!o.arg.empty()) l += " " + o.arg;
    return l;
  };
  size_t width = 0;
  for (const auto& o : table_) width = std::max(width, left(o).size());
  width = std::min<size_t>(width, 30);
  std::vector<std::string> groups;
  for (const auto& o : table_)
    if (std::find(groups.begin(), groups.end(), o.group) == groups.end()) groups.push_back(o.group);
  for (const auto& g : groups) {
    s += "\n" + g + ":\n";
    for (const auto& o : table_) {
      if (o.group != g) continue;
      std::string l = left(o);
      std::string line = "    " + l;
      if (l.size() > width) line += "\n    " + std::string(width, ' ');
      else line += std::string(width - l.size(), ' ');
      line += "  " + o.help;
      if (!o.default_text.empty()) line += " [" + o.default_text + "]";
      s += line + "\n";
    }
  }
  s += fmt::format("\nExit status: 0 ok, 1 data or runtime error, 2 usage error, 130 interrupted.\n"
                   "Manual:  man {}\n",
                   tool_);
  return s;
}

std::string App::table_tsv() const {
  std::string s = "short\tlong\targ\tgroup\tdefault\thelp\n";
  for (const auto& o : table_)
    s += fmt::format("{}\t--{}\t{}\t{}\t{}\t{}\n", o.short_name ? std::string("-") + o.short_name : "", o.long_name,
                     o.arg, o.group, o.default_text, o.help);
  return s;
}

std::string App::version_text() const {
  std::string s = fmt::format("{} (paracorp) {}\ncommit: {}\ncompiler: {}\nsimd: {}\nthreads: {}\n", tool_,
                              sysinfo::version(), sysinfo::git_commit(), sysinfo::compiler(), sysinfo::simd_level(),
                              sysinfo::threading());
  for (const auto& [name, value] : version_lines_) s += fmt::format("{}: {}\n", name, value);
  return s;
}

void App::version_line(std::string name, std::string value) { version_lines_.emplace_back(std::move(name), std::move(value)); }

}  // namespace corpus::cli
