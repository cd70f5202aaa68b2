// einsum on the GPU as a framework lowers it (PyTorch's einsum: permute, bmm, permute):
// transpose-GEMM-transpose with the CPU's plan (einsum/einsum_lowering.hpp). A and B are
// permuted into [batch, m, k] and [batch, k, n] in device scratch by the CUDA permute
// (einsum_permute.cu), cuBLAS's strided batched GEMM multiplies them, and C is permuted back
// where its order differs; each step skipped where the operand is in order already. Where
// nothing needs a permute, cuda.cublas makes the same call: refused, naming it.
#include <fmt/format.h>

#include <climits>
#include <vector>

#include "../cuda_check.hpp"
#include "../gpu_kernels.hpp"
#include "../gpu_op_kernel.hpp"
#include "einsum_cublas.hpp"
#include "einsum_permute_launchers.hpp"
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

namespace {

// The permute from the operand's order `from` to `to`, the output dense in `to`'s order.
DevicePermute permute_of(const EinsumSpec& s, const std::string& from, const std::string& to,
                         const void* in, void* out, bool f64) {
  DevicePermute p;
  p.in = in;
  p.out = out;
  p.indices = static_cast<int>(to.size());
  for (std::size_t d = 0; d < to.size(); ++d) {
    p.extent[d] = s.extents.at(to[d]);
    std::int64_t stride = 1;  // the index's stride in `from` (row-major)
    for (auto it = from.rbegin(); it != from.rend() && *it != to[d]; ++it)
      stride *= s.extents.at(*it);
    p.in_stride[d] = stride;
  }
  p.element_bytes = f64 ? 8 : 4;
  return p;
}

class CudaTtgtEinsum final : public GpuOpKernel {
 public:
  CudaTtgtEinsum()
      : GpuOpKernel(declared_lowering(
            {"einsum",
             "cuda.cublas.ttgt",
             Device::gpu,
             {DType::f32, DType::f64},
             false,
             "transpose-GEMM-transpose as a framework lowers einsum on the GPU: the CUDA "
             "permute (32 x 32 tiles through shared memory) into [batch, m, k] and [batch, "
             "k, n], cublasGemmStridedBatchedEx, C permuted back",
             KernelRole::vendor},
            LoweringKind::ttgt)) {}
  // Its steps are not lapped: the device times the call as a whole.
  std::vector<LoweringStep> lowering_steps() const override { return ttgt_steps(plan_, false); }
  // The op's bytes and the copies': each permuted operand written and read back once.
  WorkModel work(const Problem& problem) const override { return ttgt_work(problem); }

 protected:
  Support supports_problem(const Problem& p) const override {
    const EinsumSpec s = einsum_spec(p);
    if (Support g = gemm_lowering_support(s); !g) return g;
    const TtgtPlan plan = ttgt_plan(s);
    if (!plan.permute_a && !plan.permute_b && !plan.permute_c)
      return Support::no(
          "nothing to permute (A, B and C are already [batch, m, k], [batch, k, n] and "
          "[batch, m, n]): cuda.cublas makes the same call");
    if (s.a.size() > kMostPermuteIndices || s.b.size() > kMostPermuteIndices ||
        s.c.size() > kMostPermuteIndices)
      return Support::no(fmt::format("{} permutes at most {} indices an operand", info().id(),
                                     kMostPermuteIndices));
    for (std::int64_t d : {plan.m, plan.n, plan.k, plan.batch})
      if (d > INT_MAX)
        return Support::no(
            fmt::format("{}: a dimension of {} exceeds cuBLAS's int", info().id(), d));
    return cublas_status();
  }
  void setup(const Problem& p, const std::vector<DeviceOperands>&, cudaStream_t s) override {
    spec_ = einsum_spec(p);
    plan_ = ttgt_plan(spec_);
    f64_ = p.dtype == DType::f64;
    const std::size_t size = f64_ ? sizeof(double) : sizeof(float);
    const auto scratch = [&](bool needed, std::int64_t elements) {
      return needed ? DeviceBuffer(static_cast<std::size_t>(elements) * size) : DeviceBuffer();
    };
    a_ = scratch(plan_.permute_a, plan_.batch * plan_.m * plan_.k);
    b_ = scratch(plan_.permute_b, plan_.batch * plan_.k * plan_.n);
    c_ = scratch(plan_.permute_c, plan_.batch * plan_.m * plan_.n);
    // The dense products as a strided view: one call, the batch walked by cuBLAS.
    view_ = dense_view(plan_);
    view_.batch_extent = {plan_.batch};
    view_.batch_a = {plan_.m * plan_.k};
    view_.batch_b = {plan_.k * plan_.n};
    view_.batch_c = {plan_.m * plan_.n};
    handle_.on(s);
    const auto step = [](bool permuted, const std::string& from, const std::string& to) {
      return permuted ? fmt::format("permuted {} -> {}", from, to) : std::string("used as stored");
    };
    notes_["A"] = step(plan_.permute_a, spec_.a, plan_.a);
    notes_["B"] = step(plan_.permute_b, spec_.b, plan_.b);
    notes_["C"] = step(plan_.permute_c, plan_.c, spec_.c);
    notes_["gemm"] = fmt::format("{}: cublasGemmStridedBatchedEx, {}", describe(view_),
                                 f64_ ? "64F compute 64F" : "32F compute 32F");
  }
  void launch(const DeviceOperands& o, cudaStream_t stream) override {
    const void* a = o.in("A");
    const void* b = o.in("B");
    if (plan_.permute_a) {
      launch_einsum_permute(permute_of(spec_, spec_.a, plan_.a, a, a_.get(), f64_), stream);
      a = a_.get();
    }
    if (plan_.permute_b) {
      launch_einsum_permute(permute_of(spec_, spec_.b, plan_.b, b, b_.get(), f64_), stream);
      b = b_.get();
    }
    void* c = plan_.permute_c ? c_.get() : o.out("C");
    cublas_strided_products(handle_.get(), view_, a, b, c, {BatchOffsets{}}, f64_);
    if (plan_.permute_c)
      launch_einsum_permute(permute_of(spec_, plan_.c, spec_.c, c, o.out("C"), f64_), stream);
  }

 private:
  CublasHandle handle_;
  EinsumSpec spec_;
  TtgtPlan plan_;
  StridedView view_;
  DeviceBuffer a_, b_, c_;
  bool f64_ = false;
};

}  // namespace

void add_cuda_ttgt_einsum_kernels(KernelCatalog& catalog) {
  catalog.add([] { return std::make_unique<CudaTtgtEinsum>(); });
}

}  // namespace ridgeline
