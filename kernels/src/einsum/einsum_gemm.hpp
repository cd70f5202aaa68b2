#pragma once
// The packed GEMM (cpu/packed_gemm.hpp) as the einsum lowerings call it: one shape with its
// leading dimensions and transposed reads, prepared once, run per batch on other pointers.
// The micro-kernel of the CPU's widest ISA: AVX-512 where present, else AVX2.
#include <cstdint>
#include <string>
#include <vector>

#include "../cpu/packed_gemm.hpp"
#include "einsum_lowering.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

// What every packed-GEMM lowering of einsum asks (TTGT, strided, GETT): the common checks,
// a CPU with AVX2 and FMA or AVX-512, and an einsum a GEMM can lower (gemm_lowering_support);
// the first reason that fails.
Support einsum_gemm_support(const KernelInfo& info, const Problem& problem, int threads);

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

// The packed GEMM as the GEMM lowerings run it (strided, GETT, TTGT): both dtypes', the
// problem's in use, run once per batch at each batch's offsets.
class PackedGemmPerBatch {
 public:
  // Calls prepare(gemm) on the GEMM of `dtype` (f32 or f64), which is used from then on.
  template <typename Prepare>
  void prepare(DType dtype, Prepare&& prepare) {
    f64_ = dtype == DType::f64;
    if (f64_)
      prepare(g64_);
    else
      prepare(g32_);
  }
  void run(const void* left, const void* right, void* c, const std::vector<BatchOffsets>& batches) {
    if (f64_)
      run_as(g64_, left, right, c, batches);
    else
      run_as(g32_, left, right, c, batches);
  }
  std::string describe() const { return f64_ ? g64_.describe() : g32_.describe(); }

 private:
  template <typename T>
  static void run_as(EinsumGemm<T>& gemm, const void* left, const void* right, void* c,
                     const std::vector<BatchOffsets>& batches) {
    for (const BatchOffsets& o : batches)
      gemm.run(static_cast<const T*>(left) + o.a, static_cast<const T*>(right) + o.b,
               static_cast<T*>(c) + o.c);
  }

  bool f64_ = false;
  EinsumGemm<float> g32_;
  EinsumGemm<double> g64_;
};

}  // namespace ridgeline
