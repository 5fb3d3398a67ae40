#include "libcorpus/core/tempfiles.h"

#include <unistd.h>

#include <atomic>
#include <cstring>

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

}  // namespace corpus::tempfiles
