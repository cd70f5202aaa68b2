#include "fp_env_scope.hpp"

#include <fmt/format.h>
#include <omp.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define RIDGELINE_HAS_MXCSR 1
#else
#define RIDGELINE_HAS_MXCSR 0
#endif

namespace ridgeline {

namespace {
#if RIDGELINE_HAS_MXCSR
constexpr unsigned kFtz = 1u << 15;  // flush-to-zero: subnormal results become 0
constexpr unsigned kDaz = 1u << 6;   // denormals-are-zero: subnormal inputs read as 0

void set_this_thread(bool ftz_daz) {
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(ftz_daz ? (csr | kFtz | kDaz) : (csr & ~(kFtz | kDaz)));
}
#endif
}  // namespace

Support fp_env_support(FpEnv env, const KernelInfo& kernel, int threads) {
  if (env == FpEnv::ieee) return Support::yes();
  if (!RIDGELINE_HAS_MXCSR)
    return Support::no("fp=ftz_daz sets x86 MXCSR bits; this build is not for x86");
  if (kernel.device != Device::cpu)
    return Support::no(fmt::format("fp=ftz_daz sets the CPU's MXCSR; {} runs on the {}",
                                   kernel.id(), to_string(kernel.device)));
  if (threads > 1 && kernel.family == kBlasFamily)
    return Support::no(fmt::format(
        "fp=ftz_daz reaches OpenMP threads only; {} runs on threads of its own", kernel.id()));
  return Support::yes();
}

FpEnvScope::FpEnvScope(FpEnv env, int threads) : threads_(threads) {
  if (env == FpEnv::ieee) return;
  active_ = true;
  set_everywhere(true);
}

FpEnvScope::~FpEnvScope() {
  if (active_) set_everywhere(false);
}

void FpEnvScope::set_everywhere([[maybe_unused]] bool ftz_daz) {
#if RIDGELINE_HAS_MXCSR
  set_this_thread(ftz_daz);
  if (threads_ > 1) {
#pragma omp parallel num_threads(threads_)
    set_this_thread(ftz_daz);
  }
#endif
}

FlushBits current_flush_bits() {
#if RIDGELINE_HAS_MXCSR
  const unsigned csr = _mm_getcsr();
  return {(csr & kFtz) != 0, (csr & kDaz) != 0};
#else
  return {};
#endif
}

}  // namespace ridgeline
