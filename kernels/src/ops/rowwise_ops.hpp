#pragma once
// The memory-bound ops of the fusion suite on f32 (and bf16, at the end) row-major data
// (rows x cols, contiguous, row stride cols), each in three forms:
//   *_reference  textbook scalar code accumulating in MathReal (long double on x86-64),
//                output in double: the yardstick the other two are validated against;
//   *_unfused    what an eager framework does: one OpenMP-parallel, vectorised pass through
//                memory per elementary step, every intermediate written to a full-size
//                scratch buffer the caller provides (*_unfused_scratch floats);
//   *_fused      one pass through memory (x read once, y written once per element; a row is
//                re-read while it is still in L1/L2), OpenMP over rows, AVX-512 or AVX2
//                intrinsics chosen at run time by CPUID.
// The unfused passes are compiled per ISA as well, and dispatched the same way, so that a
// fused/unfused comparison shows the cost of the extra passes and not a narrower vector.
// Sizes may be 0 (nothing is done); negative sizes, threads < 1 or a chain length outside
// 1..32 throw std::invalid_argument. x and y must not overlap.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ridgeline/core/ops/eltwise_chain.hpp"

namespace ridgeline {
struct CpuFeatures;
}

namespace ridgeline::ops {

// The instruction set a fused or unfused implementation is compiled for. `scalar` is the
// same algorithm over one-lane vectors, compiled for the library's baseline.
// neon and sve are AArch64's (sve vector-length agnostic: the width is the process's).
enum class Isa { scalar, avx2, avx512, neon, sve };

const char* to_string(Isa isa);
bool isa_available(Isa isa);      // built for this architecture, and the CPU runs it
Isa best_isa();                   // what the un-suffixed *_fused / *_unfused entries use
std::string rowwise_fused_isa();  // to_string(best_isa()), for a kernel's notes

// The fused softmax, layernorm and rmsnorm write y with non-temporal (streaming) stores when x
// and y together are larger than this many bytes, so y would not stay in cache anyway: a plain
// store first reads each line for ownership, one more pass over y's bytes. By default the L3
// as hwloc reports it, at most 96 MiB (no core's L3 is larger; in a VM hwloc can report the
// host's: 508 MiB on the Zen 5 VM). set_ returns the previous value: 0 streams every output,
// INT64_MAX none (tests, experiments).
std::int64_t streaming_threshold();
std::int64_t set_streaming_threshold(std::int64_t bytes);
bool streams_output(std::int64_t working_set_bytes);  // working set > threshold
// Whether the fused f32 softmax streams y where streams_output says so. Its exp values go to
// a per-thread row in L1 and the scaling streams them into y: on the Zen 4 VM that took
// 32768 x 4096 from 69 to 63 ms (AVX2) and 58 to 52 ms (AVX-512) on 1 thread. On Zen 5
// (AMD family 1Ah) with AVX-512, streaming measured slower (34.0 to 26.9 GFLOP/s on 2
// threads): there it keeps plain stores.
bool softmax_streams_y(Isa isa);
// The working set streams_output judges for a row-wise op: x and y, rows x cols elements of
// element_bytes each.
constexpr std::int64_t rows_in_out_bytes(std::int64_t rows, std::int64_t cols,
                                         std::int64_t element_bytes) {
  return 2 * element_bytes * rows * cols;
}

// Sets the threshold for its lifetime, then restores the previous one.
class ScopedStreamingThreshold {
 public:
  explicit ScopedStreamingThreshold(std::int64_t bytes)
      : previous_(set_streaming_threshold(bytes)) {}
  ~ScopedStreamingThreshold() { set_streaming_threshold(previous_); }
  ScopedStreamingThreshold(const ScopedStreamingThreshold&) = delete;
  ScopedStreamingThreshold& operator=(const ScopedStreamingThreshold&) = delete;

 private:
  std::int64_t previous_;
};

// ---- softmax: y[r][c] = exp(x[r][c] - max_r) / sum_c exp(x[r][c] - max_r) ----
// Inputs may hold +-1e30 and -inf (not a row that is all -inf: it has no softmax).
void softmax_reference(const float* x, double* y, std::int64_t rows, std::int64_t cols);
void softmax_fused(const float* x, float* y, std::int64_t rows, std::int64_t cols, int threads);
void softmax_unfused(const float* x, float* y, float* scratch, std::int64_t rows, std::int64_t cols,
                     int threads);
std::size_t softmax_unfused_scratch(std::int64_t rows, std::int64_t cols);

// ---- layernorm: y = (x - mean_r) / sqrt(var_r + eps) * gamma + beta (biased variance) ----
void layernorm_reference(const float* x, const float* gamma, const float* beta, double* y,
                         std::int64_t rows, std::int64_t cols, float eps);
void layernorm_fused(const float* x, const float* gamma, const float* beta, float* y,
                     std::int64_t rows, std::int64_t cols, float eps, int threads);
void layernorm_unfused(const float* x, const float* gamma, const float* beta, float* y,
                       float* scratch, std::int64_t rows, std::int64_t cols, float eps,
                       int threads);
std::size_t layernorm_unfused_scratch(std::int64_t rows, std::int64_t cols);

// ---- rmsnorm: y = x / sqrt(mean_r(x^2) + eps) * gamma ----
void rmsnorm_reference(const float* x, const float* gamma, double* y, std::int64_t rows,
                       std::int64_t cols, float eps);
void rmsnorm_fused(const float* x, const float* gamma, float* y, std::int64_t rows,
                   std::int64_t cols, float eps, int threads);
void rmsnorm_unfused(const float* x, const float* gamma, float* y, float* scratch,
                     std::int64_t rows, std::int64_t cols, float eps, int threads);
std::size_t rmsnorm_unfused_scratch(std::int64_t rows, std::int64_t cols);

// ---- eltwise_chain: n elements, L unary ops applied in order (1 <= L <= 32) ----
// The steps, their constants and FLOPs are the op's definition:
// core/ops/eltwise_chain.hpp. Any input with |x| < 3.4e38 stays finite.
void eltwise_chain_reference(const float* x, double* y, std::int64_t n, int L);
void eltwise_chain_fused(const float* x, float* y, std::int64_t n, int L, int threads);
// L passes, each reading and writing the whole array (pass 0 x -> y, then y in place): no
// scratch beyond y itself.
void eltwise_chain_unfused(const float* x, float* y, std::int64_t n, int L, int threads);

// ---- the same with the ISA forced (tests, experiments); an ISA the CPU lacks throws ----
void softmax_fused_isa(Isa isa, const float* x, float* y, std::int64_t rows, std::int64_t cols,
                       int threads);
void softmax_unfused_isa(Isa isa, const float* x, float* y, float* scratch, std::int64_t rows,
                         std::int64_t cols, int threads);
void layernorm_fused_isa(Isa isa, const float* x, const float* gamma, const float* beta, float* y,
                         std::int64_t rows, std::int64_t cols, float eps, int threads);
void layernorm_unfused_isa(Isa isa, const float* x, const float* gamma, const float* beta, float* y,
                           float* scratch, std::int64_t rows, std::int64_t cols, float eps,
                           int threads);
void rmsnorm_fused_isa(Isa isa, const float* x, const float* gamma, float* y, std::int64_t rows,
                       std::int64_t cols, float eps, int threads);
void rmsnorm_unfused_isa(Isa isa, const float* x, const float* gamma, float* y, float* scratch,
                         std::int64_t rows, std::int64_t cols, float eps, int threads);
void eltwise_chain_fused_isa(Isa isa, const float* x, float* y, std::int64_t n, int L, int threads);
void eltwise_chain_unfused_isa(Isa isa, const float* x, float* y, std::int64_t n, int L,
                               int threads);
// The vectorised exp the fused softmax uses, elementwise (single thread): within 2 ULP of
// exp for x in [-87.33, 88] (1.22 measured), 0 below ln(FLT_MIN) = -87.3365 and for -inf
// (the denormal range is flushed), exp(88) above 88.
void exp_isa(Isa isa, const float* x, float* y, std::int64_t n);

// ---- bf16: every operand (and the unfused intermediates) bf16 in memory, as its raw bits
// (std::uint16_t, as OperandBuffer holds it); f32 arithmetic; results rounded to nearest
// even. Only with AVX-512 and AVX512_BF16; elsewhere these throw with the reason below.
// The unfused scratch sizes are the *_unfused_scratch counts, in bf16 elements. ----
// Why a CPU with `cpu`'s features cannot run the bf16 forms; empty where it can.
std::string bf16_unsupported_reason(const CpuFeatures& cpu);
void softmax_fused(const std::uint16_t* x, std::uint16_t* y, std::int64_t rows, std::int64_t cols,
                   int threads);
void softmax_unfused(const std::uint16_t* x, std::uint16_t* y, std::uint16_t* scratch,
                     std::int64_t rows, std::int64_t cols, int threads);
void layernorm_fused(const std::uint16_t* x, const std::uint16_t* gamma, const std::uint16_t* beta,
                     std::uint16_t* y, std::int64_t rows, std::int64_t cols, float eps,
                     int threads);
void layernorm_unfused(const std::uint16_t* x, const std::uint16_t* gamma,
                       const std::uint16_t* beta, std::uint16_t* y, std::uint16_t* scratch,
                       std::int64_t rows, std::int64_t cols, float eps, int threads);
void rmsnorm_fused(const std::uint16_t* x, const std::uint16_t* gamma, std::uint16_t* y,
                   std::int64_t rows, std::int64_t cols, float eps, int threads);
void rmsnorm_unfused(const std::uint16_t* x, const std::uint16_t* gamma, std::uint16_t* y,
                     std::uint16_t* scratch, std::int64_t rows, std::int64_t cols, float eps,
                     int threads);
void eltwise_chain_fused(const std::uint16_t* x, std::uint16_t* y, std::int64_t n, int L,
                         int threads);
void eltwise_chain_unfused(const std::uint16_t* x, std::uint16_t* y, std::int64_t n, int L,
                           int threads);

}  // namespace ridgeline::ops
