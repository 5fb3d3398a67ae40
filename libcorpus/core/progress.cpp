#include "libcorpus/core/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/format.h>

namespace corpus {

std::string human_bytes(double b) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (b >= 1000 && u < 4) {
    b /= 1000;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", b) : fmt::format("{:.1f} {}", b, units[u]);
}

std::string human_duration(double s) {
  auto t = static_cast<long>(s + 0.5);
  if (t >= 3600) return fmt::format("{}:{:02}:{:02}", t / 3600, (t / 60) % 60, t % 60);
  return fmt::format("{}:{:02}", t / 60, t % 60);
}

Progress::Progress(std::string label, bool enabled)
    : label_(std::move(label)), enabled_(enabled), start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() { clear(); }

std::string Progress::render(uint64_t bytes, uint64_t records, double secs, int width) const {
  const double rate = secs > 0 ? static_cast<double>(bytes) / secs : 0;
  std::string tail = fmt::format(" {} recs  {}/s", records, human_bytes(rate));
  if (!note_.empty()) tail += "  " + note_;
  if (total_ && *total_ > 0) {
    double frac = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(*total_));
    double eta = rate > 0 ? static_cast<double>(*total_ - std::min(bytes, *total_)) / rate : 0;
    std::string right = fmt::format(" {:3.0f}% {} / {}{}  ETA {}", frac * 100, human_bytes(static_cast<double>(bytes)),
                                    human_bytes(static_cast<double>(*total_)), tail, human_duration(eta));
    int bar = width - static_cast<int>(label_.size() + right.size()) - 4;
    if (bar < 10) return label_ + right;
    int fill = static_cast<int>(frac * bar);
    std::string line = label_ + " [";
    line.append(static_cast<size_t>(fill), '=');
    if (fill < bar) line.append(">").append(static_cast<size_t>(bar - fill - 1), ' ');
    return line.append("]").append(right);
  }
  return label_ + " " + human_bytes(static_cast<double>(bytes)) + tail + "  " + human_duration(secs);
}

void Progress::update(uint64_t bytes, uint64_t records) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  int width = 80;
  struct winsize ws;
  if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) width = ws.ws_col;
  std::string line(1, '\r');
  line.append(render(bytes, records, std::chrono::duration<double>(now - start_).count(), width - 1)).append("\033[K");
  (void)!::write(2, line.data(), line.size());
  drawn_ = true;
}

void Progress::clear() {
  if (!drawn_) return;
  const char* s = "\r\033[K";
  (void)!::write(2, s, 4);
  drawn_ = false;
}

}  // namespace corpus
