// Temporaries left by killed runs are removed by the next run that commits
// the same name; a live run's never are.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include "libcorpus/core/output.h"
#include "libcorpus/core/tempfiles.h"
#include "support/tmpdir.h"

using namespace corpus;

namespace {

// A PID that belonged to a process that has exited (and been reaped).
pid_t dead_pid() {
  pid_t p = ::fork();
  if (p == 0) ::_exit(0);
  ::waitpid(p, nullptr, 0);
  return p;
}

// The name a temporary of `base` made by `pid` on this host has.
std::string temp_name(const std::string& base, pid_t pid, const char* suffix) {
  std::string t = std::filesystem::path(tempfiles::template_for("", base)).filename().string();
  const std::string own = "-" + std::to_string(::getpid()) + "-XXXXXX";
  REQUIRE(t.size() > own.size());
  REQUIRE(t.substr(t.size() - own.size()) == own);
  return t.substr(0, t.size() - own.size()) + "-" + std::to_string(pid) + "-" + suffix;
}

std::set<std::string> names(const TmpDir& dir) {
  std::set<std::string> s;
  for (const auto& e : std::filesystem::directory_iterator(dir.dir)) s.insert(e.path().filename().string());
  return s;
}

}  // namespace

TEST_CASE("the temporary name carries the host and the PID") {
  std::string t = tempfiles::template_for("d/", "out.tsv");
  CHECK(t.rfind("d/.out.tsv.tmp-", 0) == 0);
  const std::string tail = "-" + std::to_string(::getpid()) + "-XXXXXX";
  CHECK(t.substr(t.size() - tail.size()) == tail);
}

TEST_CASE("a commit removes temporaries of its name whose owner is gone, and only those") {
  TmpDir dir;
  const std::string dead = temp_name("out.tmx", dead_pid(), "aB3xYz");
  const std::string live = temp_name("out.tmx", ::getppid(), "Qw12er");  // our parent is alive
  const std::string other_name = temp_name("other.tmx", dead_pid(), "zzzzzz");
  const std::string legacy = ".out.tmx.tmp-Ab12Cd";  // no owner recorded
  for (const auto& n : {dead, live, other_name, legacy}) write_file(dir.path(n), "stale\n");
  {
    Output out(dir.path("out.tmx"));
    out.write("new\n");
    out.commit();
  }
  CHECK(names(dir) == std::set<std::string>{"out.tmx", live, other_name, legacy});
  CHECK(raw_bytes(dir.path("out.tmx")) == "new\n");
}

TEST_CASE("a temporary whose name only looks like ours is left alone") {
  TmpDir dir;
  const std::string base_tmp = temp_name("out.txt", dead_pid(), "abcdef");
  const std::string odd = base_tmp.substr(0, base_tmp.size() - 7) + "x-abcdef";  // PID not all digits
  write_file(dir.path(odd), "x\n");
  CHECK(tempfiles::remove_stale(dir.dir + "/", "out.txt") == 0);
  CHECK(names(dir) == std::set<std::string>{odd});
}
