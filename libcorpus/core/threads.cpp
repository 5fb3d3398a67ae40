#include "libcorpus/core/threads.h"

#include <oneapi/tbb/global_control.h>
#include <sched.h>

#include <cstdlib>
#include <string>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace corpus::threads {

int available_cpus() {
  int n = 1;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
  if (const char* s = std::getenv("SLURM_CPUS_PER_TASK")) {
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (end != s && *end == '\0' && v > 0 && v < n) n = static_cast<int>(v);
  }
  return n < 1 ? 1 : n;
}

struct Scope::Impl {
  explicit Impl(int n) : gc(oneapi::tbb::global_control::max_allowed_parallelism, static_cast<size_t>(n)) {}
  oneapi::tbb::global_control gc;
};

Scope::Scope(int n) : n_(n > 0 ? n : available_cpus()), impl_(std::make_unique<Impl>(n_)) {
#ifdef _OPENMP
  omp_set_num_threads(n_);
#endif
}

Scope::~Scope() = default;

}  // namespace corpus::threads
