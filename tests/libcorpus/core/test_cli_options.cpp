// The typed option table: each kind parses once into its final type, checks
// its choices and ranges, shows its default from the value; subcommands have
// tables of their own and name the owner of a misplaced option.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "libcorpus/core/cli.h"

using namespace corpus;

namespace {

// Runs `app` on `args` with stderr captured; returns {exit code, stderr}.
std::pair<int, std::string> run(cli::App& app, std::vector<std::string> args,
                                const std::function<void(cli::Context&)>& body = [](cli::Context&) {}) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  char path[] = "/tmp/pc-cli-test-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  int code = app.run(static_cast<int>(args.size()), argv.data(), body);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string err;
  lseek(fd, 0, SEEK_SET);
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) err.append(buf, static_cast<size_t>(n));
  close(fd);
  unlink(path);
  return {code, err};
}

struct Typed {
  cli::App app{"pc-test", "Test tool.", "pc-test [options]"};
  cli::Common c;
  std::string mode = "fast";
  int level = 3;
  int64_t offset = -5;
  double ratio = 0.5;
  float gain = 1.5f;
  uint64_t budget = 20ull << 20;
  std::optional<int> dim;
  std::vector<std::string> mimes{"text/html", "text/plain"};
  Typed() {
    app.choice("mode", "NAME", &mode, {"fast", "slow", "exact"}, "how to work");
    app.option("level", "N", &level, "how hard").range(1, 9);
    app.option("offset", "N", &offset, "shift");
    app.option("ratio", "X", &ratio, "a ratio").range(0, 1);
    app.option("gain", "X", &gain, "a gain");
    app.size("budget", "BYTES", &budget, "memory budget").at_least(1);
    app.option("dim", "N", &dim, "channels", "from --arch");
    app.option("mime", "TYPES", &mimes, "MIME types");
    app.common(c, cli::Common::kOutput);
  }
};

}  // namespace

TEST_CASE("each kind parses into its final type") {
  Typed t;
  auto [code, err] = run(t.app, {"pc-test", "--mode", "exact", "--level", "9", "--offset", "-7", "--ratio", "0.25",
                                 "--gain", "2", "--budget", "512k", "--dim", "64", "--mime", "a/b,c/d", "--mime", "e/f"});
  CHECK(code == 0);
  CHECK(err.find("pc-test:") != std::string::npos);  // the summary line
  CHECK(t.mode == "exact");
  CHECK(t.level == 9);
  CHECK(t.offset == -7);
  CHECK(t.ratio == 0.25);
  CHECK(t.gain == 2.0f);
  CHECK(t.budget == 512 * 1024);
  REQUIRE(t.dim.has_value());
  CHECK(*t.dim == 64);
  CHECK(t.mimes == std::vector<std::string>{"a/b", "c/d", "e/f"});  // given values replace the default list
}

TEST_CASE("defaults in help come from the values") {
  Typed t;
  std::string h = t.app.help_text();
  CHECK(h.find("how to work (fast|slow|exact) [fast]") != std::string::npos);
  CHECK(h.find("how hard (1..9) [3]") != std::string::npos);
  CHECK(h.find("memory budget (1..) [20M]") != std::string::npos);
  CHECK(h.find("channels [from --arch]") != std::string::npos);
  CHECK(h.find("MIME types [text/html,text/plain]") != std::string::npos);
  Typed u;
  auto [code, err] = run(u.app, {"pc-test"});
  CHECK(code == 0);
  CHECK_FALSE(u.dim.has_value());  // an optional stays empty when not given
}

TEST_CASE("bad values are usage errors naming the option, on one line") {
  struct Case {
    std::vector<std::string> args;
    const char* message;
  };
  for (const Case& k : std::vector<Case>{
           {{"--mode", "quick"}, "--mode must be fast, slow or exact, not 'quick'"},
           {{"--level", "10"}, "--level must be from 1 to 9, not '10'"},
           {{"--level", "3x"}, "--level must be a whole number, not '3x'"},
           {{"--level", "99999999999"}, "--level must be a whole number, not '99999999999'"},
           {{"--ratio", "nan"}, "--ratio must be a number, not 'nan'"},
           {{"--ratio", "1.5"}, "--ratio must be from 0 to 1, not '1.5'"},
           {{"--budget", "lots"}, "--budget must be a size such as 20M"},
           {{"--budget", "0"}, "--budget must be at least 1, not '0'"},
           {{"--dim", "-1x"}, "--dim must be a whole number"},
           {{"--bogus"}, "unrecognised option '--bogus'"},
       }) {
    Typed t;
    std::vector<std::string> args{"pc-test"};
    args.insert(args.end(), k.args.begin(), k.args.end());
    bool ran = false;
    const auto result = run(t.app, args, [&](cli::Context&) { ran = true; });
    const int code = result.first;
    const std::string& err = result.second;
    CAPTURE(k.message);
    CAPTURE(err);
    CHECK(code == 2);
    CHECK_FALSE(ran);
    CHECK(err.find(k.message) != std::string::npos);
    CHECK(err.rfind("pc-test: ", 0) == 0);
    CHECK(std::count(err.begin(), err.end(), '\n') == 1);
  }
}

TEST_CASE("subcommands have their own tables, and a misplaced option names its owner") {
  cli::App app{"pc-test", "Test tool.", "pc-test COMMAND [options]"};
  cli::Common c1, c2;
  int dim = 8;
  std::string model;
  auto& train = app.subcommand("train", "train a model", "train [options] DATA");
  train.option("dim", "N", &dim, "channels");
  train.common(c1, cli::Common::kOutput | cli::Common::kInputs);
  auto& tr = app.subcommand("translate", "translate text", "translate -m MODEL [FILE]");
  tr.option("m,model", "FILE", &model, "model file");
  tr.common(c2, cli::Common::kOutput | cli::Common::kInputs);

  std::string seen;
  auto body = [&](cli::Context& ctx) { seen = ctx.command(); };
  auto [code, err] = run(app, {"pc-test", "translate", "--dim", "999"}, body);
  CHECK(code == 2);
  CHECK(err == "pc-test: --dim is an option of 'pc-test train', not of 'pc-test translate' \u2014 see "
               "'pc-test translate --help'\n");
  CHECK(seen.empty());

  auto [code2, err2] = run(app, {"pc-test", "translate", "-m", "x.st", "in.txt"}, body);
  CHECK(code2 == 0);
  CHECK(seen == "translate");
  CHECK(model == "x.st");
  CHECK(c2.inputs == std::vector<std::string>{"in.txt"});

  auto [code3, err3] = run(app, {"pc-test", "fly"}, body);
  CHECK(code3 == 2);
  CHECK(err3.find("unknown command 'fly' \u2014 use train or translate") != std::string::npos);
  auto [code4, err4] = run(app, {"pc-test"}, body);
  CHECK(code4 == 2);
  CHECK(err4.find("no command given") != std::string::npos);

  // Help of a subcommand shows only its options; the tool's help lists the commands.
  CHECK(train.help_text().find("--dim") != std::string::npos);
  CHECK(train.help_text().find("--model") == std::string::npos);
  CHECK(tr.help_text().find("--dim") == std::string::npos);
  std::string top = app.help_text();
  CHECK(top.find("Commands:\n    train      train a model\n    translate  translate text\n") != std::string::npos);
  // --help-table lists every subcommand's options with its command.
  std::string table = app.table_tsv();
  CHECK(table.find("\t--dim\tN\tOptions\t8\tchannels\ttrain\n") != std::string::npos);
  CHECK(table.find("-m\t--model\tFILE\tOptions\t\tmodel file\ttranslate\n") != std::string::npos);
}
