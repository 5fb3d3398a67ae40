#include "libcorpus/core/sysinfo.h"

#include <oneapi/tbb/version.h>
#include <sys/resource.h>

#include <ctime>

#include <fmt/format.h>

namespace corpus::build_info {
extern const char* const kVersion;
extern const char* const kCommit;
}  // namespace corpus::build_info

namespace corpus::sysinfo {

std::string version() { return build_info::kVersion; }
std::string git_commit() { return build_info::kCommit; }

std::string compiler() {
#if defined(__clang__)
  return fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown compiler";
#endif
}

std::string simd_level() {
  std::string built;
#if defined(__AVX512F__)
  built = "AVX-512F";
#elif defined(__AVX2__)
  built = "AVX2";
#elif defined(__AVX__)
  built = "AVX";
#elif defined(__SSE4_2__)
  built = "SSE4.2";
#elif defined(__SSE2__)
  built = "SSE2";
#elif defined(__ARM_NEON)
  built = "NEON";
#else
  built = "scalar";
#endif
  std::string s = "built for " + built;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  std::string cpu;
  auto has = [&](bool ok, const char* name) {
    if (ok) cpu += std::string(cpu.empty() ? "" : " ") + name;
  };
  has(__builtin_cpu_supports("sse4.2"), "SSE4.2");
  has(__builtin_cpu_supports("avx"), "AVX");
  has(__builtin_cpu_supports("avx2"), "AVX2");
  has(__builtin_cpu_supports("fma"), "FMA");
  has(__builtin_cpu_supports("avx512f"), "AVX-512F");
  s += "; CPU offers " + (cpu.empty() ? std::string("SSE2") : cpu);
#endif
  return s;
}

std::string threading() {
#ifdef _OPENMP
  return fmt::format("oneTBB {}, OpenMP {}", TBB_VERSION_STRING, _OPENMP);
#else
  return fmt::format("oneTBB {}", TBB_VERSION_STRING);
#endif
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

uint64_t peak_rss_bytes() {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

double cpu_seconds() {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return secs(ru.ru_utime) + secs(ru.ru_stime);
}

}  // namespace corpus::sysinfo
