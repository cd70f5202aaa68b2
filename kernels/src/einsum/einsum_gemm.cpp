#include "einsum_gemm.hpp"

#include <fmt/format.h>

#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

// The widest ISA's micro-kernel; on AVX-512 its narrow form where n fits it, as a contraction's
// few output columns often do (a 1x1 convolution's 32 channels), which the 4-zmm tile would
// fill half with padding.
template <typename T>
packed::MicroKernel<T> microkernel_for(std::int64_t n) {
#if defined(__aarch64__)
  (void)n;
  if constexpr (std::is_same_v<T, float>)
    return packed::microkernel_f32_neon();
  else
    return packed::microkernel_f64_neon();
#else
  const bool avx512 = cpu_features().has_avx512();
  if constexpr (std::is_same_v<T, float>) {
    if (!avx512) return packed::microkernel_f32_avx2();
    const auto narrow = packed::microkernel_f32_avx512_narrow();
    return n <= narrow.nr ? narrow : packed::microkernel_f32_avx512();
  } else {
    if (!avx512) return packed::microkernel_f64_avx2();
    const auto narrow = packed::microkernel_f64_avx512_narrow();
    return n <= narrow.nr ? narrow : packed::microkernel_f64_avx512();
  }
#endif
}

}  // namespace

Support einsum_gemm_support(const KernelInfo& info, const Problem& problem, int threads) {
  if (Support s = check_common_support(info, problem, threads); !s) return s;
  const CpuFeatures& cpu = cpu_features();
#if defined(__aarch64__)
  if (!cpu.neon) return Support::no("the packed GEMM needs NEON, which this CPU lacks");
#else
  if (!cpu.has_avx512() && !cpu.has_avx2_fma())
    return Support::no("the packed GEMM needs AVX2 and FMA (or AVX-512), which this CPU lacks");
#endif
  return gemm_lowering_support(einsum_spec(problem));
}

template <typename T>
void EinsumGemm<T>::prepare(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t lda,
                            std::int64_t ldb, bool ta, bool tb, int threads) {
  uk_ = microkernel_for<T>(n);
  const cpu::GemmArgs<T> args{m, n, k, lda, ldb, ta, tb, nullptr, nullptr, nullptr};
  gemm_.prepare(args, uk_, packed::derive_blocking(cache_sizes(), uk_.mr, uk_.nr, sizeof(T)),
                threads);
}

template <typename T>
void EinsumGemm<T>::prepare_gathered(std::int64_t m, std::int64_t n, std::int64_t k,
                                     const packed::GatherLayout* layout, int threads) {
  uk_ = microkernel_for<T>(n);
  const cpu::GemmArgs<T> args{m, n, k, 1, 1, false, false, nullptr, nullptr, nullptr};
  gemm_.prepare(args, uk_, packed::derive_blocking(cache_sizes(), uk_.mr, uk_.nr, sizeof(T)),
                threads, std::nullopt, layout);
}

template <typename T>
std::string EinsumGemm<T>::describe() const {
  return fmt::format("{}, {}", uk_.name, gemm_.blocking().describe());
}

template class EinsumGemm<float>;
template class EinsumGemm<double>;

}  // namespace ridgeline
