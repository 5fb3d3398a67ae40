// A progress bar on stderr, drawn only when enabled (by default: stderr is a
// terminal). At most five redraws a second; cheap to call per batch.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace corpus {

class Progress {
 public:
  Progress(std::string label, bool enabled);
  ~Progress();

  bool enabled() const { return enabled_; }
  // Total input bytes when known (regular files); enables percent and ETA.
  void set_total(std::optional<uint64_t> bytes) { total_ = bytes; }
  void update(uint64_t bytes, uint64_t records);
  // Extra text drawn at the end of the bar (e.g. pc-crawl's "1234 queued");
  // empty by default.
  void set_note(std::string note) { note_ = std::move(note); }
  // Clears the bar; call before printing other messages or at the end.
  void clear();

  // The line that would be drawn (for tests).
  std::string render(uint64_t bytes, uint64_t records, double seconds, int width) const;

 private:
  std::string label_;
  std::string note_;
  bool enabled_;
  bool drawn_ = false;
  std::optional<uint64_t> total_;
  std::chrono::steady_clock::time_point start_, last_;
};

// "12.3 MB", "1.02 GB" (decimal units, as `ls -lh --si`).
std::string human_bytes(double bytes);
// "1:02:03" or "2:03".
std::string human_duration(double seconds);

}  // namespace corpus
