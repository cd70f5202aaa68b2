// einsum on the GPU without copies: the strided view the CPU's copy-free lowerings use
// (einsum/einsum_lowering.hpp) handed to cuBLAS's strided batched GEMM on the operands as
// stored, one call per combination of the outer batch indices, the innermost batch index
// walked by cuBLAS's batch strides. Where the index order needs a copy, the view's reason
// is the refusal. cuBLAS is column-major: the row-major C = op(A) op(B) is computed as
// C^T = op(B)^T op(A)^T, the right operand first.
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "../einsum/einsum_lowering.hpp"
#include "cublas_library.hpp"
#include "gpu_kernels.hpp"
#include "gpu_op_kernel.hpp"
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

namespace {

// The element offsets of each combination of the batch indices but the innermost, which
// cuBLAS walks by its strides (none: one call).
std::vector<BatchOffsets> outer_batch_offsets(const StridedView& v) {
  StridedView outer = v;
  if (!outer.batch_extent.empty()) {
    outer.batches /= outer.batch_extent.back();
    for (auto* d : {&outer.batch_extent, &outer.batch_a, &outer.batch_b, &outer.batch_c})
      d->pop_back();
  }
  return batch_offsets(outer);
}

class CublasEinsum final : public GpuOpKernel {
 public:
  CublasEinsum()
      : GpuOpKernel({"einsum",
                     "cuda.cublas",
                     Device::gpu,
                     {DType::f32, DType::f64},
                     false,
                     "no copies: cublasGemmStridedBatchedEx on the operands as stored (leading "
                     "dimensions, transposes, the innermost batch index by its strides), one call "
                     "per outer batch",
                     KernelRole::vendor}) {}
  ~CublasEinsum() override {
    if (handle_) cublas().cublasDestroy(handle_);
  }

 protected:
  Support supports_problem(const Problem& p) const override {
    StridedView v;
    if (Support s = strided_view(einsum_spec(p), v); !s) return s;
    const std::int64_t inner = v.batch_extent.empty() ? 1 : v.batch_extent.back();
    for (std::int64_t d : {v.m, v.n, v.k, v.lda, v.ldb, inner})
      if (d > INT_MAX)
        return Support::no(
            fmt::format("{}: a dimension of {} exceeds cuBLAS's int", info().id(), d));
    return cublas_status();
  }
  void setup(const Problem& p, const std::vector<DeviceOperands>&, cudaStream_t s) override {
    strided_view(einsum_spec(p), view_);
    outer_ = outer_batch_offsets(view_);
    f64_ = p.dtype == DType::f64;
    if (!handle_) RIDGELINE_CUBLAS(cublas().cublasCreate(&handle_));
    RIDGELINE_CUBLAS(cublas().cublasSetStream(handle_, s));
    notes_["gemm"] = fmt::format("{}: {} call{} of cublasGemmStridedBatchedEx, {}", describe(view_),
                                 outer_.size(), outer_.size() == 1 ? "" : "s",
                                 f64_ ? "64F compute 64F" : "32F compute 32F");
  }
  void launch(const DeviceOperands& o, cudaStream_t) override {
    const StridedView& v = view_;
    const char* left = static_cast<const char*>(o.in(v.swapped ? "B" : "A"));
    const char* right = static_cast<const char*>(o.in(v.swapped ? "A" : "B"));
    char* c = static_cast<char*>(o.out("C"));
    const std::size_t size = f64_ ? sizeof(double) : sizeof(float);
    const cudaDataType type = f64_ ? CUDA_R_64F : CUDA_R_32F;
    const int m = static_cast<int>(v.m), n = static_cast<int>(v.n), k = static_cast<int>(v.k);
    // As BLAS, a leading dimension at least the row length, where a matrix of one row never
    // uses it (an outer product's k = 1).
    const int lda = static_cast<int>(std::max(v.lda, v.ta ? v.m : v.k));
    const int ldb = static_cast<int>(std::max(v.ldb, v.tb ? v.k : v.n));
    const bool batched = !v.batch_extent.empty();
    const int count = batched ? static_cast<int>(v.batch_extent.back()) : 1;
    const long long stride_a = batched ? v.batch_a.back() : 0;
    const long long stride_b = batched ? v.batch_b.back() : 0;
    const long long stride_c = batched ? v.batch_c.back() : 0;
    const void* one = f64_ ? static_cast<const void*>(&one_f64_) : &one_f32_;
    const void* zero = f64_ ? static_cast<const void*>(&zero_f64_) : &zero_f32_;
    for (const BatchOffsets& b : outer_)
      RIDGELINE_CUBLAS(cublas().cublasGemmStridedBatchedEx(
          handle_, v.tb ? CUBLAS_OP_T : CUBLAS_OP_N, v.ta ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k, one,
          right + static_cast<std::size_t>(b.b) * size, type, ldb, stride_b,
          left + static_cast<std::size_t>(b.a) * size, type, lda, stride_a, zero,
          c + static_cast<std::size_t>(b.c) * size, type, n, stride_c, count,
          f64_ ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }

 private:
  cublasHandle_t handle_ = nullptr;
  StridedView view_;
  std::vector<BatchOffsets> outer_;
  bool f64_ = false;
  const float one_f32_ = 1.0f, zero_f32_ = 0.0f;
  const double one_f64_ = 1.0, zero_f64_ = 0.0;
};

}  // namespace

void add_cublas_einsum_kernels(KernelCatalog& catalog) {
  catalog.add([] { return std::make_unique<CublasEinsum>(); });
}

}  // namespace ridgeline
