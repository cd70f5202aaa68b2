#include "fp_env_scope.hpp"

#include <fmt/format.h>
#include <omp.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define RIDGELINE_HAS_MXCSR 1
#define RIDGELINE_HAS_FPCR 0
#elif defined(__aarch64__)
#include <cstdint>
#define RIDGELINE_HAS_MXCSR 0
#define RIDGELINE_HAS_FPCR 1
#else
#define RIDGELINE_HAS_MXCSR 0
#define RIDGELINE_HAS_FPCR 0
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
#elif RIDGELINE_HAS_FPCR
// AArch64's FPCR.FZ flushes subnormal inputs and results of single and double precision alike:
// MXCSR's FTZ and DAZ in one bit.
constexpr std::uint64_t kFz = std::uint64_t{1} << 24;

std::uint64_t read_fpcr() {
  std::uint64_t fpcr = 0;
  asm volatile("mrs %0, fpcr" : "=r"(fpcr));
  return fpcr;
}

void set_this_thread(bool ftz_daz) {
  const std::uint64_t fpcr = read_fpcr();
  asm volatile("msr fpcr, %0" : : "r"(ftz_daz ? (fpcr | kFz) : (fpcr & ~kFz)));
}
#endif
}  // namespace

Support fp_env_support(FpEnv env, const KernelInfo& kernel, int threads) {
  if (env == FpEnv::ieee) return Support::yes();
  if (!RIDGELINE_HAS_MXCSR && !RIDGELINE_HAS_FPCR)
    return Support::no(
        "fp=ftz_daz sets x86 MXCSR bits or AArch64 FPCR.FZ; this build is for neither");
  if (kernel.device != Device::cpu)
    return Support::no(fmt::format("fp=ftz_daz sets the CPU's {}; {} runs on the {}",
                                   RIDGELINE_HAS_MXCSR ? "MXCSR" : "FPCR", kernel.id(),
                                   to_string(kernel.device)));
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
#if RIDGELINE_HAS_MXCSR || RIDGELINE_HAS_FPCR
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
#elif RIDGELINE_HAS_FPCR
  const bool fz = (read_fpcr() & kFz) != 0;
  return {fz, fz};
#else
  return {};
#endif
}

}  // namespace ridgeline
