// einsum on the GPU without copies: the strided view the CPU's copy-free lowerings use
// (einsum/einsum_lowering.hpp) handed to cuBLAS's strided batched GEMM on the operands as
// stored, one call per combination of the other batch indices, the batch index of the
// largest extent walked by cuBLAS's batch strides. Where the index order needs a copy, the view's
// reason is the refusal. cuBLAS is column-major: the row-major C = op(A) op(B) is computed as C^T =
// op(B)^T op(A)^T, the right operand first.
#include "einsum_cublas.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "../gpu_kernels.hpp"
#include "../gpu_op_kernel.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

namespace {

// The batch index of the largest extent moved last, for cuBLAS to walk: the fewest calls
// (the batches' offsets are the same whatever order their indices are walked in).
StridedView widest_batch_last(StridedView v) {
  if (v.batch_extent.size() < 2) return v;
  const auto widest = static_cast<std::size_t>(
      std::max_element(v.batch_extent.begin(), v.batch_extent.end()) - v.batch_extent.begin());
  for (auto* d : {&v.batch_extent, &v.batch_a, &v.batch_b, &v.batch_c})
    std::swap((*d)[widest], d->back());
  return v;
}

class CublasEinsum final : public GpuOpKernel {
 public:
  CublasEinsum()
      : GpuOpKernel(declared_lowering(
            {"einsum",
             "cuda.cublas",
             Device::gpu,
             {DType::f32, DType::f64},
             false,
             "no copies: cublasGemmStridedBatchedEx on the operands as stored (leading "
             "dimensions, transposes, the innermost batch index by its strides), one call "
             "per outer batch",
             KernelRole::vendor},
            LoweringKind::strided)) {}
  std::vector<LoweringStep> lowering_steps() const override {
    return {{StepKind::strided_view, "gemm", ""}};
  }

 protected:
  Support supports_problem(const Problem& p) const override {
    StridedView v;
    if (Support s = strided_view(einsum_spec(p), v); !s) return s;
    v = widest_batch_last(v);
    const std::int64_t inner = v.batch_extent.empty() ? 1 : v.batch_extent.back();
    for (std::int64_t d : {v.m, v.n, v.k, v.lda, v.ldb, inner})
      if (d > INT_MAX)
        return Support::no(
            fmt::format("{}: a dimension of {} exceeds cuBLAS's int", info().id(), d));
    return cublas_status();
  }
  void setup(const Problem& p, const std::vector<DeviceOperands>&, cudaStream_t s) override {
    strided_view(einsum_spec(p), view_);
    view_ = widest_batch_last(view_);
    outer_ = outer_batch_offsets(view_);
    f64_ = p.dtype == DType::f64;
    handle_.on(s);
    notes_["gemm"] = fmt::format("{}: {} call{} of cublasGemmStridedBatchedEx, {}", describe(view_),
                                 outer_.size(), outer_.size() == 1 ? "" : "s",
                                 f64_ ? "64F compute 64F" : "32F compute 32F");
  }
  void launch(const DeviceOperands& o, cudaStream_t) override {
    cublas_strided_products(handle_.get(), view_, o.in(view_.swapped ? "B" : "A"),
                            o.in(view_.swapped ? "A" : "B"), o.out("C"), outer_, f64_);
  }

 private:
  CublasHandle handle_;
  StridedView view_;
  std::vector<BatchOffsets> outer_;
  bool f64_ = false;
};

}  // namespace

std::vector<BatchOffsets> outer_batch_offsets(const StridedView& v) {
  StridedView outer = v;
  if (!outer.batch_extent.empty()) {
    outer.batches /= outer.batch_extent.back();
    for (auto* d : {&outer.batch_extent, &outer.batch_a, &outer.batch_b, &outer.batch_c})
      d->pop_back();
  }
  return batch_offsets(outer);
}

void cublas_strided_products(cublasHandle_t handle, const StridedView& v, const void* left_operand,
                             const void* right_operand, void* c_operand,
                             const std::vector<BatchOffsets>& outer, bool f64) {
  const char* left = static_cast<const char*>(left_operand);
  const char* right = static_cast<const char*>(right_operand);
  char* c = static_cast<char*>(c_operand);
  const std::size_t size = f64 ? sizeof(double) : sizeof(float);
  const cudaDataType type = f64 ? CUDA_R_64F : CUDA_R_32F;
  // As BLAS, a leading dimension at least the row length, where a matrix of one row never
  // uses it (an outer product's k = 1); then the column-major view every cuBLAS call uses.
  const ColumnMajorGemm g = column_major_view(v.m, v.n, v.k, std::max(v.lda, v.ta ? v.m : v.k),
                                              std::max(v.ldb, v.tb ? v.k : v.n), v.n, v.ta, v.tb);
  const bool batched = !v.batch_extent.empty();
  const int count = batched ? static_cast<int>(v.batch_extent.back()) : 1;
  const long long stride_a = batched ? v.batch_a.back() : 0;
  const long long stride_b = batched ? v.batch_b.back() : 0;
  const long long stride_c = batched ? v.batch_c.back() : 0;
  static const float one_f32 = 1.0f, zero_f32 = 0.0f;
  static const double one_f64 = 1.0, zero_f64 = 0.0;
  const void* one = f64 ? static_cast<const void*>(&one_f64) : &one_f32;
  const void* zero = f64 ? static_cast<const void*>(&zero_f64) : &zero_f32;
  const auto op = [](bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; };
  for (const BatchOffsets& b : outer)
    RIDGELINE_CUBLAS(cublas().cublasGemmStridedBatchedEx(
        handle, op(g.transpose_first), op(g.transpose_second), static_cast<int>(g.m),
        static_cast<int>(g.n), static_cast<int>(g.k), one,
        right + static_cast<std::size_t>(b.b) * size, type, static_cast<int>(g.ld_first), stride_b,
        left + static_cast<std::size_t>(b.a) * size, type, static_cast<int>(g.ld_second), stride_a,
        zero, c + static_cast<std::size_t>(b.c) * size, type, static_cast<int>(g.ld_out), stride_c,
        count, f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void add_cublas_einsum_kernels(KernelCatalog& catalog) {
  catalog.add([] { return std::make_unique<CublasEinsum>(); });
}

}  // namespace ridgeline
