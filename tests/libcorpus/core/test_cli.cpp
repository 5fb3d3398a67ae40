// The CLI module: option table, help layout, provenance, progress, threads.
#include <doctest/doctest.h>

#include <stdlib.h>

#include <string>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/cli_values.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/progress.h"
#include "libcorpus/core/threads.h"

using namespace corpus;

namespace {

struct Fixture {
  cli::App app{"pc-test", "Test tool.", "pc-test [options] [FILE]"};
  cli::Common c;
  std::string mode = "fast";
  int level = 3;
  Fixture() {
    app.group("Work");
    app.option("mode", "NAME", &mode, "how to work");
    app.option("l,level", "N", &level, "how hard");
    app.common(c, cli::Common::kAll);
  }
};

}  // namespace

TEST_CASE("help has About, Usage, groups and defaults in brackets") {
  Fixture f;
  std::string h = f.app.help_text();
  CHECK(h.rfind("About:   Test tool.\nUsage:   pc-test [options] [FILE]\n", 0) == 0);
  CHECK(h.find("\nWork:\n") != std::string::npos);
  CHECK(h.find("--mode NAME") != std::string::npos);
  CHECK(h.find("how to work [fast]") != std::string::npos);
  CHECK(h.find("-l, --level N") != std::string::npos);
  CHECK(h.find("[3]") != std::string::npos);
  CHECK(h.find("\nCommon options:\n") != std::string::npos);
  CHECK(h.find("-j, --threads N") != std::string::npos);
  CHECK(h.find("Work:") < h.find("Common options:"));
}

TEST_CASE("every option in the table has help text, and names are unique") {
  Fixture f;
  for (const auto& o : f.app.table()) {
    CAPTURE(o.long_name);
    CHECK_FALSE(o.help.empty());
  }
  int dummy = 0;
  CHECK_THROWS(f.app.option("mode", "X", &dummy, "again"));
  CHECK_THROWS(f.app.option("j,jobs", "X", &dummy, "short -j taken"));
}

TEST_CASE("--help-table lists every option once") {
  Fixture f;
  std::string t = f.app.table_tsv();
  CHECK(t.find("\t--mode\tNAME\tWork\tfast\thow to work\t\n") != std::string::npos);
  CHECK(t.find("-o\t--output\tFILE") != std::string::npos);
  size_t lines = 0;
  for (char ch : t) lines += ch == '\n';
  CHECK(lines == f.app.table().size() + 1);
}

TEST_CASE("provenance drops the options that cannot change the output") {
  Fixture f;
  cli::Context ctx(f.app, f.c,
                   {"/usr/bin/pc-test", "-j2", "--mode", "slow", "-q", "--threads", "4", "--meta", "m.json",
                    "--progress", "--threads=3", "-v", "it's.tsv"},
                   1);
  CHECK(ctx.provenance_command() == "pc-test --mode slow 'it'\\''s.tsv'");
}

TEST_CASE("counters keep first-use order and add up") {
  Fixture f;
  cli::Context ctx(f.app, f.c, {"pc-test"}, 1);
  ctx.count("rows in", 2);
  ctx.count("rows out");
  ctx.count("rows in", 3);
  REQUIRE(ctx.counts().size() == 2);
  CHECK(ctx.counts()[0].second == 5);
  CHECK(ctx.summary_line(1.5).rfind("pc-test: 5 rows in, 1 rows out; 1.50 s", 0) == 0);
  std::string meta = ctx.meta_json(1.5, 0);
  CHECK(meta.find("\"rows in\": 5") != std::string::npos);
  CHECK(meta.find("\"command\": \"pc-test\"") != std::string::npos);
}

TEST_CASE("progress bar rendering") {
  Progress p("pc-test", false);
  p.set_total(1'000'000);
  std::string line = p.render(500'000, 42, 2.0, 80);
  CHECK(line.find(" 50%") != std::string::npos);
  CHECK(line.find("500.0 kB / 1.0 MB") != std::string::npos);
  CHECK(line.find("42 recs") != std::string::npos);
  CHECK(line.find("ETA 0:02") != std::string::npos);
  CHECK(line.size() <= 80);
  Progress q("pc-test", false);
  CHECK(q.render(2'500'000, 1, 1.0, 80).find("2.5 MB") != std::string::npos);
  CHECK(q.render(1, 1, 1.0, 80).find("queued") == std::string::npos);
  q.set_note("17 queued");  // pc-crawl's queue size, after the rate
  std::string noted = q.render(2'500'000, 1, 1.0, 80);
  CHECK(noted.find("/s  17 queued") != std::string::npos);
  CHECK(human_duration(3725) == "1:02:05");
}

TEST_CASE("default threads follow SLURM_CPUS_PER_TASK when it is lower") {
  int all = threads::available_cpus();
  setenv("SLURM_CPUS_PER_TASK", "1", 1);
  CHECK(threads::available_cpus() == 1);
  setenv("SLURM_CPUS_PER_TASK", "100000", 1);
  CHECK(threads::available_cpus() == all);
  setenv("SLURM_CPUS_PER_TASK", "junk", 1);
  CHECK(threads::available_cpus() == all);
  unsetenv("SLURM_CPUS_PER_TASK");
  threads::Scope s(0);
  CHECK(s.count() == all);
}

TEST_CASE("error format: tool, file, line, message, hint") {
  Error e("bad thing (x)", "do this");
  e.at("f.tsv", 12);
  CHECK(e.format("pc-x") == "pc-x: f.tsv:12: bad thing (x) \u2014 do this");
  CHECK(cli::UsageError("wrong").exit_code() == 2);
  CHECK(Error("w").at("-").format("pc-x") == "pc-x: <stdin>: w");
  CHECK(quote("a\tb") == "'a\\tb'");  // a tab is written as \t (test_error.cpp has the rest)
}

TEST_CASE("shared option values: lists and sizes") {
  CHECK(cli::split_list("a,b,,c") == std::vector<std::string>{"a", "b", "c"});
  CHECK(cli::split_list("").empty());
  CHECK(cli::split_list("x y", ' ') == std::vector<std::string>{"x", "y"});
  CHECK(cli::parse_size("20M", "--max") == 20u << 20);
  CHECK(cli::parse_size("512k", "--max") == 512u << 10);
  CHECK(cli::parse_size("1G", "--max") == uint64_t{1} << 30);
  CHECK(cli::parse_size("1000", "--max") == 1000u);
  CHECK(cli::parse_size("0", "--max", true) == 0u);
  CHECK_THROWS_AS(cli::parse_size("0", "--max"), cli::UsageError);
  CHECK_THROWS_AS(cli::parse_size("12X", "--max"), cli::UsageError);
  CHECK_THROWS_AS(cli::parse_size("-1M", "--max", true), cli::UsageError);
  CHECK_THROWS_AS(cli::parse_size("M", "--max"), cli::UsageError);
}
