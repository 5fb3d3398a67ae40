// Thread control: one number for oneTBB and OpenMP together.
#pragma once

#include <memory>

namespace corpus::threads {

// CPUs this process may use: its affinity mask, further limited by
// SLURM_CPUS_PER_TASK when that is set. Never the machine's full count when
// the process is confined to fewer.
int available_cpus();

// While alive, oneTBB uses at most `n` threads and OpenMP regions (FAISS) use
// `n`. n <= 0 means available_cpus().
class Scope {
 public:
  explicit Scope(int n);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  int count() const { return n_; }

 private:
  int n_;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace corpus::threads
