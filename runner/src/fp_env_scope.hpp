#pragma once
// Puts a case's floating-point environment (core/fp_env.hpp) in place for its timed runs
// and restores the previous one after. MXCSR is per thread: the scope sets it on the
// calling thread and on each thread of an OpenMP team of the case's size, the team the
// kernels' own parallel regions reuse (libgomp keeps its pool). Threads a library starts
// itself (OpenBLAS's, BLIS's) are out of reach, so fp_env_support() refuses those.
#include <cstdint>
#include <vector>

#include "ridgeline/core/fp_env.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

// Whether `env` can be put in place for this kernel at this thread count, or why not.
Support fp_env_support(FpEnv env, const KernelInfo& kernel, int threads);

class FpEnvScope {
 public:
  FpEnvScope(FpEnv env, int threads);
  ~FpEnvScope();
  FpEnvScope(const FpEnvScope&) = delete;
  FpEnvScope& operator=(const FpEnvScope&) = delete;

 private:
  void set_everywhere(bool ftz_daz);
  int threads_;
  bool active_ = false;
};

// The FTZ and DAZ bits of the calling thread's MXCSR, as {ftz, daz}; {false, false} off x86.
struct FlushBits {
  bool ftz = false;
  bool daz = false;
};
FlushBits current_flush_bits();

}  // namespace ridgeline
