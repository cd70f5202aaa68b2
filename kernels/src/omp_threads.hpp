#pragma once
// omp_set_num_threads(threads) for the lifetime of the guard, then the caller's value back:
// for a vendor library that runs on this process's GNU OpenMP and takes its thread count from
// the calling thread when its work is created and when it runs (oneDNN 2 and 3).
#include <omp.h>

namespace ridgeline {

class OmpThreads {
 public:
  explicit OmpThreads(int threads) : saved_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~OmpThreads() { omp_set_num_threads(saved_); }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;

 private:
  int saved_;
};

}  // namespace ridgeline
