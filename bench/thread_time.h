// What the product benchmarks (gemm_block.cpp, gemm_few_rows.cpp) time with:
// the calling thread's CPU time, so the time a shared machine gives to other
// processes is not counted, and the median of the rounds.
#pragma once

#include <algorithm>
#include <ctime>
#include <vector>

inline double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

inline double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
