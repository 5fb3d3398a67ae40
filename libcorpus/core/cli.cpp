// The option table: declaration, typed values, help text, --help-table and --version.
#include "libcorpus/core/cli.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "libcorpus/core/cli_values.h"
#include "libcorpus/core/sysinfo.h"
#include "libcorpus/core/threads.h"

namespace corpus::cli {

std::string one_of(const std::vector<std::string>& c) {
  std::string s;
  for (size_t i = 0; i < c.size(); ++i) s += (i == 0 ? "" : i + 1 == c.size() ? " or " : ", ") + c[i];
  return s;
}

std::string Option::range_text() const {
  if (!has_range) return "";
  auto num = [](double x) { return fmt::format("{}", x); };
  if (std::isinf(hi)) return num(lo) + "..";
  return num(lo) + ".." + num(hi);
}

OptionRef& OptionRef::range(double lo, double hi) {
  o_.has_range = true;
  o_.lo = lo;
  o_.hi = hi;
  return *this;
}

OptionRef& OptionRef::at_least(double lo) { return range(lo, std::numeric_limits<double>::infinity()); }

OptionRef& OptionRef::whole_items() {
  o_.split_commas = false;
  return *this;
}

OptionRef& OptionRef::runtime_only() {
  o_.runtime_only = true;
  return *this;
}

namespace {

template <class T>
struct Unopt {
  using type = T;
  static constexpr bool optional = false;
};
template <class T>
struct Unopt<std::optional<T>> {
  using type = T;
  static constexpr bool optional = true;
};

void check_range(const Option& o, double x, const std::string& text) {
  if (o.has_range && (x < o.lo || x > o.hi)) {
    std::string want = std::isinf(o.hi) ? fmt::format("at least {}", o.lo) : fmt::format("from {} to {}", o.lo, o.hi);
    throw UsageError(fmt::format("--{} must be {}, not {}", o.long_name, want, quote(text)));
  }
}

template <class V>
V parse_number(const Option& o, const std::string& s) {
  const char* b = s.c_str();
  char* end = nullptr;
  errno = 0;
  if constexpr (std::is_floating_point_v<V>) {
    double x = std::strtod(b, &end);
    if (s.empty() || *end || errno == ERANGE || !std::isfinite(x))
      throw UsageError(fmt::format("--{} must be a number, not {}", o.long_name, quote(s)));
    check_range(o, x, s);
    return static_cast<V>(x);
  } else {
    bool neg = s.find('-') != std::string::npos;
    if (std::is_unsigned_v<V> && neg)
      throw UsageError(fmt::format("--{} must be a whole number of 0 or more, not {}", o.long_name, quote(s)));
    long long sx = 0;
    unsigned long long ux = 0;
    if (neg) sx = std::strtoll(b, &end, 10);
    else ux = std::strtoull(b, &end, 10);
    bool fits = neg ? (sx >= static_cast<long long>(std::numeric_limits<V>::min()))
                    : (ux <= static_cast<unsigned long long>(std::numeric_limits<V>::max()));
    if (s.empty() || *end || errno == ERANGE || !fits || s.find_first_not_of(" \t") != 0)
      throw UsageError(fmt::format("--{} must be a whole number, not {}", o.long_name, quote(s)));
    V v = neg ? static_cast<V>(sx) : static_cast<V>(ux);
    check_range(o, static_cast<double>(v), s);
    return v;
  }
}

// The text --help shows for a value (nothing for "no value").
template <class T>
std::string shown(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return v;
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    std::string s;
    for (auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s;
  } else if constexpr (Unopt<T>::optional) {
    return v ? shown(*v) : std::string();
  } else {
    return fmt::format("{}", v);
  }
}

}  // namespace

template <class T>
OptionRef App::option(const std::string& names, std::string arg, T* target, std::string help,
                      std::string shown_default) {
  Option o;
  o.arg = std::move(arg);
  o.help = std::move(help);
  o.default_text = shown_default.empty() ? shown(*target) : std::move(shown_default);
  using V = typename Unopt<T>::type;
  if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    o.kind = Kind::kList;
    // The first value given replaces the default list; later ones add to it.
    auto fresh = std::make_shared<bool>(true);
    o.set = [target, fresh](const Option& opt, const std::string& v) {
      if (*fresh) target->clear(), *fresh = false;
      if (!opt.split_commas) target->push_back(v);
      else
        for (auto& item : split_list(v)) target->push_back(item);
    };
  } else if constexpr (std::is_same_v<V, std::string>) {
    o.kind = Kind::kString;
    o.set = [target](const Option&, const std::string& v) { *target = v; };
  } else {
    o.kind = std::is_floating_point_v<V> ? Kind::kFloat : Kind::kInt;
    o.set = [target](const Option& opt, const std::string& v) { *target = parse_number<V>(opt, v); };
  }
  return add(std::move(o), names);
}

#define PC_CLI_DEFINE(T) \
  template OptionRef App::option<T>(const std::string&, std::string, T*, std::string, std::string);
PC_CLI_TYPES(PC_CLI_DEFINE)
#undef PC_CLI_DEFINE

OptionRef App::choice(const std::string& names, std::string arg, std::string* target, std::vector<std::string> choices,
                      std::string help, std::string shown_default) {
  Option o;
  o.arg = std::move(arg);
  std::string alts;
  for (const auto& x : choices) alts += (alts.empty() ? "" : "|") + x;
  o.help = std::move(help) + " (" + alts + ")";
  o.default_text = shown_default.empty() ? *target : std::move(shown_default);
  o.kind = Kind::kChoice;
  o.choices = std::move(choices);
  o.set = [target](const Option& opt, const std::string& v) {
    if (std::find(opt.choices.begin(), opt.choices.end(), v) == opt.choices.end())
      throw UsageError(fmt::format("--{} must be {}, not {}", opt.long_name, one_of(opt.choices), quote(v)));
    *target = v;
  };
  return add(std::move(o), names);
}

OptionRef App::size(const std::string& names, std::string arg, uint64_t* target, std::string help,
                    std::string shown_default) {
  Option o;
  o.arg = std::move(arg);
  o.help = std::move(help);
  o.default_text = shown_default.empty() ? human_size(*target) : std::move(shown_default);
  o.kind = Kind::kSize;
  o.set = [target](const Option& opt, const std::string& v) {
    *target = parse_size(v, ("--" + opt.long_name).c_str(), true);
    check_range(opt, static_cast<double>(*target), v);
  };
  return add(std::move(o), names);
}

App::App(std::string tool, std::string about, std::string usage)
    : tool_(std::move(tool)), about_(std::move(about)), usage_(std::move(usage)) {}

App::~App() = default;

void App::group(std::string title) { current_group_ = std::move(title); }

OptionRef App::add(Option o, const std::string& names) {
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
  return OptionRef(table_.back());
}

void App::flag(const std::string& names, bool* target, std::string help) {
  Option o;
  o.help = std::move(help);
  o.kind = Kind::kFlag;
  o.flag = target;
  add(std::move(o), names);
}

App& App::subcommand(std::string name, std::string about, std::string usage) {
  auto sub = std::make_unique<App>(tool_, std::move(about), tool_ + " " + std::move(usage));
  sub->command_ = std::move(name);
  sub->parent_ = this;
  for (const auto& [k, v] : version_lines_) sub->version_line(k, v);
  subs_.push_back(std::move(sub));
  return *subs_.back();
}

App& App::subcommand(std::function<bool(const std::string&)> matches, std::string name, std::string about,
                     std::string usage) {
  App& sub = subcommand(std::move(name), std::move(about), std::move(usage));
  sub.matches_ = std::move(matches);
  return sub;
}

std::vector<const App*> App::owners_of(const std::string& name) const {
  const App* root = parent_ ? parent_ : this;
  std::vector<const App*> r;
  for (const auto& sub : root->subs_)
    for (const auto& o : sub->table_)
      if (o.long_name == name || (name.size() == 1 && o.short_name == name[0])) {
        r.push_back(sub.get());
        break;
      }
  return r;
}

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
  if (set & Common::kMaxLine)
    size("max-line", "SIZE", &c.max_line, "a longer input line is bad input, read past without being held whole")
        .at_least(1);
  if (set & Common::kThreads)
    option("j,threads", "N", &c.threads, "worker threads (oneTBB and OpenMP)",
           fmt::format("CPUs available: {}", threads::available_cpus()))
        .at_least(0)
        .runtime_only();
  if (set & Common::kSeed) option("seed", "N", &c.seed, "seed for every random choice");
  flag("q,quiet", &c.quiet, "no summary or information messages on stderr");
  table_.back().runtime_only = true;
  flag("v,verbose", &c.verbose, "more messages on stderr");
  table_.back().runtime_only = true;
  flag("progress", &c.progress, "show a progress bar (default when stderr is a terminal)");
  table_.back().runtime_only = true;
  flag("no-progress", &c.no_progress, "never show a progress bar");
  table_.back().runtime_only = true;
  option("meta", "FILE", &c.meta, "write provenance JSON (argv, version, counts, timings) to FILE").runtime_only();
  flag("h,help", &want_help_, "print this help and exit");
  flag("version", &want_version_, "print version, commit, compiler and SIMD level and exit");
  flag("help-table", &want_table_, "print the option table as TSV and exit (for scripts and man-page checks)");
  current_group_ = saved;
}

std::string App::help_text() const {
  std::string s = fmt::format("About:   {}\nUsage:   {}\n", about_, usage_);
  if (!subs_.empty()) {
    s += "\nCommands:\n";
    size_t w = 0;
    for (const auto& sub : subs_) w = std::max(w, sub->command_.size());
    for (const auto& sub : subs_)
      s += fmt::format("    {:<{}}  {}\n", sub->command_, w, sub->about_);
    s += fmt::format("\nEach command has its own options: {} COMMAND --help.\n", tool_);
  }
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
      if (o.has_range) line += " (" + o.range_text() + ")";
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
  std::string s = "short\tlong\targ\tgroup\tdefault\thelp\tcommand\n";
  auto rows = [&s](const App& a) {
    for (const auto& o : a.table_)
      s += fmt::format("{}\t--{}\t{}\t{}\t{}\t{}\t{}\n", o.short_name ? std::string("-") + o.short_name : "",
                       o.long_name, o.arg, o.group, o.default_text, o.help, a.command_);
  };
  rows(*this);
  for (const auto& sub : subs_) rows(*sub);
  return s;
}

std::string App::version_text() const {
  std::string s = fmt::format("{} (paracorp) {}\ncommit: {}\ncompiler: {}\nsimd: {}\nthreads: {}\n", tool_,
                              sysinfo::version(), sysinfo::git_commit(), sysinfo::compiler(), sysinfo::simd_level(),
                              sysinfo::threading());
  for (const auto& [name, value] : version_lines_) s += fmt::format("{}: {}\n", name, value);
  return s;
}

void App::version_line(std::string name, std::string value) {
  for (auto& sub : subs_) sub->version_line(name, value);
  version_lines_.emplace_back(std::move(name), std::move(value));
}

}  // namespace corpus::cli
