#pragma once
// The packed GEMM (cpu/packed_gemm.hpp) as the einsum lowerings call it: one shape with its
// leading dimensions and transposed reads, prepared once, run per batch on other pointers.
// The micro-kernel of the CPU's widest ISA: AVX-512 where present, else AVX2.
#include <cstdint>
#include <string>

#include "../cpu/packed_gemm.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

// Support::no with the reason where the CPU has neither ISA.
Support einsum_gemm_support();

template <typename T>
class EinsumGemm {
 public:
  // C (m x n, dense) = op(A) op(B): A[i * lda + p] (ta: A[p * lda + i]), B[p * ldb + j]
  // (tb: B[j * ldb + p]).
  void prepare(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t lda, std::int64_t ldb,
               bool ta, bool tb, int threads);
  // The same over tensors as they lie (GETT): `layout` (outliving this) says where each
  // element of the m x k, k x n and m x n operands is.
  void prepare_gathered(std::int64_t m, std::int64_t n, std::int64_t k,
                        const packed::GatherLayout* layout, int threads);
  void run(const T* a, const T* b, T* c) {
    gemm_.bind(a, b, c);
    gemm_.run();
  }
  std::string describe() const;  // micro-kernel and blocking

 private:
  packed::MicroKernel<T> uk_{};
  packed::PackedGemm<T> gemm_;
};

extern template class EinsumGemm<float>;
extern template class EinsumGemm<double>;

}  // namespace ridgeline
