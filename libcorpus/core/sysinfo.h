// Facts about the build and the running process, for --version, summaries
// and provenance.
#pragma once

#include <cstdint>
#include <string>

namespace corpus::sysinfo {

std::string version();     // "0.1.0"
std::string git_commit();  // short hash, "-dirty" if the tree had changes
std::string compiler();    // "GCC 12.2.0"
// SIMD the binary was built for, and what this CPU offers at run time:
// "built for x86-64 baseline (SSE2); CPU: SSE4.2 AVX AVX2 FMA AVX-512F".
std::string simd_level();
std::string threading();   // "oneTBB 2021.8.0, OpenMP 201511"

// The current UTC time as 2026-11-30T12:34:56Z (provenance, WARC-Date).
std::string utc_now();

uint64_t peak_rss_bytes();
double cpu_seconds();       // user + system time of this process so far

}  // namespace corpus::sysinfo
