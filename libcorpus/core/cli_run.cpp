// App::run and Context: the process conventions around a tool's body.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/sysinfo.h"
#include "libcorpus/core/tempfiles.h"
#include "libcorpus/core/threads.h"

namespace po = boost::program_options;

namespace corpus::cli {

namespace {

extern "C" void on_fatal_signal(int sig) {
  tempfiles::unlink_all();
  if (isatty(2)) (void)!::write(2, "\n", 1);
  ::_exit(128 + sig);
}

void install_signal_handlers() {
  ::signal(SIGPIPE, SIG_IGN);  // EPIPE is handled where we write
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

// Writes text to stdout, checking for errors (help and version output).
int print_stdout(const std::string& s, const std::string& tool) {
  if (std::fwrite(s.data(), 1, s.size(), stdout) != s.size() || std::fflush(stdout) != 0) {
    if (errno == EPIPE) return 0;
    std::fprintf(stderr, "%s: error writing to stdout (%s)\n", tool.c_str(), errno_text(errno).c_str());
    return kExitData;
  }
  return 0;
}

void say(const std::string& line) {
  std::string s = line + "\n";
  (void)!::write(2, s.data(), s.size());
}

}  // namespace

int App::run(int argc, char** argv, const std::function<void(Context&)>& body) {
  install_signal_handlers();
  std::vector<std::string> args(argv, argv + argc);
  if (subs_.empty()) return run_args(args, 1, body);
  // A tool with subcommands: argv[1] is the command, or a request for help.
  std::vector<std::string> names;
  for (const auto& sub : subs_) names.push_back(sub->command_);
  const std::string first = args.size() > 1 ? args[1] : "";
  if (first == "-h" || first == "--help") return print_stdout(help_text(), tool_);
  if (first == "--version") return print_stdout(version_text(), tool_);
  if (first == "--help-table") return print_stdout(table_tsv(), tool_);
  for (const auto& sub : subs_)
    if (sub->matches_ ? sub->matches_(first) : sub->command_ == first) {
      sub->invoked_ = first;
      return sub->run_args(args, 2, body);
    }
  if (first.empty() || first[0] == '-')
    say(fmt::format("{}: no command given \u2014 use {} (see '{} --help')", tool_, one_of(names), tool_));
  else
    say(fmt::format("{}: unknown command {} \u2014 use {} (see '{} --help')", tool_, quote(first), one_of(names),
                    tool_));
  return kExitUsage;
}

int App::run_args(const std::vector<std::string>& args, size_t first, const std::function<void(Context&)>& body) {
  const std::string me = command_.empty() ? tool_ : tool_ + " " + command_;
  po::options_description desc;
  for (const auto& o : table_) {
    std::string spec = o.long_name + (o.short_name ? std::string(",") + o.short_name : "");
    if (o.kind == Kind::kFlag)
      desc.add_options()(spec.c_str(), po::bool_switch(o.flag), "");
    else if (o.kind == Kind::kList)
      desc.add_options()(spec.c_str(), po::value<std::vector<std::string>>()->composing(), "");
    else
      desc.add_options()(spec.c_str(), po::value<std::string>(), "");
  }
  po::positional_options_description pos;
  if (common_ && (common_set_ & Common::kInputs)) {
    desc.add_options()("input", po::value<std::vector<std::string>>(&common_->inputs), "");
    pos.add("input", -1);
  }
  try {
    po::variables_map vm;
    const int style = po::command_line_style::unix_style & ~po::command_line_style::allow_guessing;
    std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(std::min(first, args.size())), args.end());
    po::store(po::command_line_parser(rest).options(desc).positional(pos).style(style).run(), vm);
    po::notify(vm);
    // Each value is parsed once, here, into its final type.
    for (const auto& o : table_) {
      if (o.kind == Kind::kFlag || !vm.count(o.long_name)) continue;
      if (o.kind == Kind::kList)
        for (const auto& v : vm[o.long_name].as<std::vector<std::string>>()) o.set(o, v);
      else
        o.set(o, vm[o.long_name].as<std::string>());
    }
  } catch (const po::unknown_option& e) {
    std::string name = e.get_option_name();
    std::string bare = name.substr(name.find_first_not_of('-'));
    std::string owners;  // "'pc-x train'", "'pc-x train', 'pc-x align' and 'pc-x score'"
    if (parent_) {
      std::vector<const App*> found = owners_of(bare);
      for (size_t i = 0; i < found.size(); ++i)
        owners += (i == 0 ? "" : i + 1 == found.size() ? " and " : ", ") + ("'" + tool_ + " " + found[i]->command_ + "'");
    }
    if (!owners.empty())
      say(fmt::format("{}: {} is an option of {}, not of '{}' \u2014 see '{} --help'", tool_, name, owners, me, me));
    else
      say(fmt::format("{}: {} \u2014 see '{} --help'", tool_, e.what(), me));
    return kExitUsage;
  } catch (const po::error& e) {
    say(fmt::format("{}: {} \u2014 see '{} --help'", tool_, e.what(), me));
    return kExitUsage;
  } catch (const Error& e) {
    say(e.format(tool_));
    return kExitUsage;
  }
  if (want_help_) return print_stdout(help_text(), tool_);
  if (want_version_) return print_stdout(version_text(), tool_);
  if (want_table_) return print_stdout(table_tsv(), tool_);

  Common fallback;
  const Common& c = common_ ? *common_ : fallback;
  if (c.progress && c.no_progress) {
    say(fmt::format("{}: --progress and --no-progress cannot both be given", tool_));
    return kExitUsage;
  }

  threads::Scope scope(c.threads);
  Context ctx(*this, c, args, scope.count());
  const auto t0 = std::chrono::steady_clock::now();
  int code = kExitOk;
  bool pipe_closed = false;
  try {
    body(ctx);
  } catch (const BrokenPipe&) {
    pipe_closed = true;  // downstream closed the pipe (`| head`): end quietly with 0
  } catch (const Error& e) {
    ctx.progress().clear();
    say(e.format(tool_));
    code = e.exit_code();
  } catch (const std::bad_alloc&) {
    ctx.progress().clear();
    say(tool_ + ": out of memory");
    code = kExitData;
  } catch (const std::exception& e) {
    ctx.progress().clear();
    say(fmt::format("{}: internal error: {} \u2014 please report this", tool_, e.what()));
    code = kExitData;
  }
  ctx.progress().clear();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (code == kExitOk && !c.quiet && !pipe_closed) say(ctx.summary_line(wall));
  if (!c.meta.empty()) {
    try {
      Output meta(c.meta);
      meta.write(ctx.meta_json(wall, code));
      meta.commit();
    } catch (const Error& e) {
      say(e.format(tool_));
      if (code == kExitOk) code = e.exit_code();
    }
  }
  return code;
}

Context::Context(const App& app, const Common& common, std::vector<std::string> argv, int threads)
    : app_(app), common_(common), argv_(std::move(argv)), threads_(threads), started_(sysinfo::utc_now()) {
  bool show = common.progress || (!common.no_progress && !common.quiet && isatty(2));
  progress_ = std::make_unique<Progress>(app.tool(), show);
}

Context::~Context() = default;

void Context::count(const std::string& key, uint64_t n) { counts_.add(key, n); }

void Context::set_count(const std::string& key, uint64_t n) { counts_.set(key, n); }

void Context::note_input(const std::string& path) {
  struct stat st;
  int64_t size = -1;
  if (path != "-" && !path.empty() && ::stat(path.c_str(), &st) == 0) size = st.st_size;
  inputs_.emplace_back(path.empty() ? "-" : path, size);
}

void Context::info(const std::string& msg) {
  if (common_.quiet) return;
  progress_->clear();
  say(tool() + ": " + msg);
}

void Context::debug(const std::string& msg) {
  if (!common_.verbose) return;
  progress_->clear();
  say(tool() + ": " + msg);
}

void Context::warn(const std::string& msg) {
  progress_->clear();
  say(tool() + ": warning: " + msg);
}

std::string Context::single_input(const std::vector<std::string>& files, const std::string& usage) {
  if (files.size() > 1) throw UsageError("one input file at a time", "concatenate them first, or run once per file");
  std::string path = files.empty() ? "-" : files[0];
  if (path == "-") check_stdin_not_terminal(usage);
  note_input(path);
  return path;
}

void Context::check_stdin_not_terminal(const std::string& usage) const {
  if (isatty(0)) throw UsageError("no input given and stdin is a terminal", "Usage: " + usage);
}

std::string Context::provenance_command() const {
  std::string s;
  for (size_t i = 0; i < argv_.size(); ++i) {
    const std::string& a = argv_[i];
    if (i > 0) {
      const Option* hit = nullptr;
      bool attached = false;
      for (const auto& o : app_.table()) {
        if (!o.runtime_only) continue;
        std::string l = "--" + o.long_name;
        if (a == l) hit = &o;
        else if (a.rfind(l + "=", 0) == 0) hit = &o, attached = true;
        else if (o.short_name && a.size() >= 2 && a[0] == '-' && a[1] == o.short_name)
          hit = &o, attached = a.size() > 2;
        if (hit) break;
      }
      if (hit) {
        if (!hit->arg.empty() && !attached) ++i;  // skip its value too
        continue;
      }
    }
    std::string base = i == 0 ? a.substr(a.rfind('/') + 1) : a;
    if (!s.empty()) s += ' ';
    bool plain = !base.empty() && base.find_first_of(" \t\n'\"\\$`*?;&|<>()") == std::string::npos;
    if (plain) {
      s += base;
    } else {
      s += '\'';
      for (char ch : base) s += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
      s += '\'';
    }
  }
  return s;
}

std::string Context::summary_line(double wall) const {
  std::string s = tool() + ":";
  bool first = true;
  for (const auto& [k, v] : counts_.entries()) {
    s += fmt::format("{} {} {}", first ? "" : ",", v, k);
    first = false;
  }
  s += fmt::format("{} {:.2f} s, CPU {:.2f} s, peak RSS {}", first ? "" : ";", wall, sysinfo::cpu_seconds(),
                   human_bytes(static_cast<double>(sysinfo::peak_rss_bytes())));
  return s;
}

std::string Context::meta_json(double wall, int exit_code) const {
  nlohmann::ordered_json j;
  j["tool"] = tool();
  j["version"] = sysinfo::version();
  j["commit"] = sysinfo::git_commit();
  j["compiler"] = sysinfo::compiler();
  j["simd"] = sysinfo::simd_level();
  j["argv"] = argv_;
  j["command"] = provenance_command();
  j["seed"] = common_.seed;
  j["threads"] = threads_;
  auto inputs = nlohmann::ordered_json::array();
  for (const auto& [p, n] : inputs_) {
    nlohmann::ordered_json in;
    in["path"] = p;
    in["bytes"] = n >= 0 ? nlohmann::ordered_json(n) : nlohmann::ordered_json(nullptr);
    inputs.push_back(in);
  }
  j["inputs"] = inputs;
  j["output"] = common_.output;
  nlohmann::ordered_json counts = nlohmann::ordered_json::object();
  for (const auto& [k, v] : counts_.entries()) counts[k] = v;
  j["counts"] = counts;
  j["started"] = started_;
  j["wall_seconds"] = wall;
  j["cpu_seconds"] = sysinfo::cpu_seconds();
  j["peak_rss_bytes"] = sysinfo::peak_rss_bytes();
  j["exit_code"] = exit_code;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace corpus::cli
