// A registry of temporary output files that a signal handler can delete.
//
// SIGINT/SIGTERM handlers cannot take locks or allocate, so the paths live in
// fixed slots that the handler walks with async-signal-safe unlink(2).
#pragma once

namespace corpus::tempfiles {

// Records a path; returns its slot, or -1 if every slot is taken (the file then
// simply is not cleaned up by a signal; it is still never the final name).
int add(const char* path);
void remove(int slot);

// Unlinks every registered path. Async-signal-safe.
void unlink_all() noexcept;

}  // namespace corpus::tempfiles
