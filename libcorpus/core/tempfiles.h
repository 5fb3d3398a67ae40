// A registry of temporary output files that a signal handler can delete.
//
// SIGINT/SIGTERM handlers cannot take locks or allocate, so the paths live in
// fixed slots that the handler walks with async-signal-safe unlink(2).
//
// Temporary names also carry the host and process that own them
// (".NAME.tmp-HOST-PID-XXXXXX" beside NAME), so that a later run that writes
// NAME can remove what a killed run (SIGKILL, a crash, a lost node) left.
#pragma once

#include <cstdio>
#include <string>

namespace corpus::tempfiles {

// The mkostemp(3) template for a temporary file of the final name dir + base
// (dir empty or ending in '/').
std::string template_for(const std::string& dir, const std::string& base);

// Removes the temporaries of dir + base whose owner is gone: made on this host
// by a process that no longer exists (kill(pid, 0) says ESRCH), and not by
// this process. A live run's temporary, one from another host (a shared
// folder on a cluster) and one without an owner (made by older versions) are
// left alone. Returns how many were removed; errors are ignored.
int remove_stale(const std::string& dir, const std::string& base);

// Records a path; returns its slot, or -1 if every slot is taken (the file then
// simply is not cleaned up by a signal; it is still never the final name).
int add(const char* path);
void remove(int slot);

// Unlinks every registered path. Async-signal-safe.
void unlink_all() noexcept;

// Where an output's bytes go until it is committed: an existing device or
// FIFO (/dev/null, a pipe) is opened and written directly; anything else
// gets a new temporary beside `path` (template_for, mode 0666 less the
// umask), registered with add(). Throws corpus::Error naming `path` for a
// folder or a place it cannot create the file. corpus::Output and the .npy
// writer both open their files this way.
struct Target {
  std::string dir, base;  // "dir/" (or "") and the file name
  std::string tmp_path;   // the temporary; empty when direct
  int fd = -1;
  int slot = -1;  // add()'s slot of the temporary
  bool direct = false;
};
Target open_target(const std::string& path);

// An unnamed temporary file, read and write, in TMPDIR (else /tmp), for data
// that waits during a run (pc-ingest's and pc-clean's spools): tmpfile(3)
// ignores TMPDIR, and a large corpus may not fit in /tmp. O_TMPFILE has no
// name at all; where the file system lacks it, a mkstemp(3) name beginning
// with `tag` is removed at once, so nothing is left on disk after a crash.
// Throws corpus::Error naming the folder when it cannot.
std::FILE* open_unnamed(const std::string& tag);

}  // namespace corpus::tempfiles
