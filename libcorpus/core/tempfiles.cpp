#include "libcorpus/core/tempfiles.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

#include "libcorpus/core/error.h"

namespace corpus::tempfiles {
namespace {

constexpr int kSlots = 64;
constexpr int kPathMax = 4096;
char g_paths[kSlots][kPathMax];
std::atomic<bool> g_used[kSlots];

}  // namespace

int add(const char* path) {
  if (std::strlen(path) >= kPathMax) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (g_used[i].load() || !g_used[i].compare_exchange_strong(expected, true)) continue;
    // Slot taken but path not yet visible: mark the path empty first.
    g_paths[i][0] = '\0';
    std::strcpy(g_paths[i], path);
    return i;
  }
  return -1;
}

void remove(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  g_paths[slot][0] = '\0';
  g_used[slot].store(false);
}

void unlink_all() noexcept {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load() && g_paths[i][0] != '\0') ::unlink(g_paths[i]);
}

namespace {

// This host's name as it goes into a file name: letters, digits, '.', '_' and
// '-' only, at most 64 bytes.
const std::string& host_tag() {
  static const std::string tag = [] {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0 || !buf[0]) return std::string("localhost");
    std::string t;
    for (const char* p = buf; *p && t.size() < 64; ++p) {
      const char c = *p;
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '-' || c == '_';
      t += ok ? c : '_';
    }
    return t;
  }();
  return tag;
}

std::string prefix_for(const std::string& base) { return "." + base + ".tmp-"; }

}  // namespace

std::string template_for(const std::string& dir, const std::string& base) {
  return dir + prefix_for(base) + host_tag() + "-" + std::to_string(::getpid()) + "-XXXXXX";
}

int remove_stale(const std::string& dir, const std::string& base) {
  const std::string prefix = prefix_for(base) + host_tag() + "-";
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.empty() ? "." : dir.c_str()), ::closedir);
  if (!d) return 0;
  int removed = 0;
  while (const dirent* e = ::readdir(d.get())) {
    std::string_view name(e->d_name);
    // PREFIX PID "-" six characters from mkostemp
    if (name.size() < prefix.size() + 8 || name.substr(0, prefix.size()) != prefix) continue;
    std::string_view rest = name.substr(prefix.size(), name.size() - prefix.size() - 7);
    if (name[name.size() - 7] != '-' || rest.empty() || rest.size() > 9) continue;
    long pid = 0;
    bool digits = true;
    for (char c : rest) {
      digits = digits && c >= '0' && c <= '9';
      pid = pid * 10 + (c - '0');
    }
    if (!digits || pid <= 0 || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to know
    if (::unlink((dir + std::string(name)).c_str()) == 0) ++removed;
  }
  return removed;
}

Target open_target(const std::string& path) {
  Target t;
  const size_t slash = path.rfind('/');
  t.dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  t.base = slash == std::string::npos ? path : path.substr(slash + 1);
  struct stat st;
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw Error("is a directory", "give a file name for -o").at(path);
  if (exists && !S_ISREG(st.st_mode)) {
    t.fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (t.fd < 0) throw Error("cannot open output (" + errno_text(errno) + ")").at(path);
    t.direct = true;
    return t;
  }
  t.tmp_path = template_for(t.dir, t.base);
  t.fd = ::mkostemp(t.tmp_path.data(), O_CLOEXEC);
  if (t.fd < 0) {
    const int e = errno;
    throw Error("cannot create output file (" + errno_text(e) + ")",
                e == ENOENT ? "create the folder first" : "choose a writable location for -o")
        .at(path);
  }
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(t.fd, 0666 & ~mask);
  t.slot = add(t.tmp_path.c_str());
  return t;
}

std::FILE* open_unnamed(const std::string& tag) {
  const char* env = std::getenv("TMPDIR");
  const std::string dir = env && *env ? env : "/tmp";
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::string name = dir + "/" + tag + ".XXXXXX";
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0)
      throw Error("cannot create a temporary file in " + dir + ": " + errno_text(errno),
                  "set TMPDIR to a writable folder");
    ::unlink(name.c_str());
  }
  std::FILE* f = ::fdopen(fd, "w+b");
  if (!f) {
    const int err = errno;
    ::close(fd);
    throw Error("cannot open a temporary file: " + errno_text(err));
  }
  return f;
}

}  // namespace corpus::tempfiles
