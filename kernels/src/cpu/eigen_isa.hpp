#pragma once
// The SIMD sets Eigen compiled in, for the Eigen kernels' descriptions: Eigen's own list omits
// AVX2 and FMA when AVX-512 is off, so they are named from its macros.
#include <Eigen/Core>
#include <string>

namespace ridgeline {

inline std::string eigen_isa() {
  std::string isa = Eigen::SimdInstructionSetsInUse();
#if defined(EIGEN_VECTORIZE_AVX2) && !defined(EIGEN_VECTORIZE_AVX512)
  isa = "AVX2, " + isa;
#endif
#if defined(EIGEN_VECTORIZE_FMA) && !defined(EIGEN_VECTORIZE_AVX512)
  isa = "FMA, " + isa;
#endif
  return isa;
}

}  // namespace ridgeline
