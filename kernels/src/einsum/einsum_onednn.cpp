// einsum through oneDNN's matmul with strided memory descriptors, as a framework hands
// oneDNN a strided view: the strided lowering's view (leading dimensions, transposed reads)
// with every batch index as a dimension of its own at each operand's stride, one primitive
// for all batches, no copies. Where the view does not exist supports() says which operand
// would need a copy. f32 only: oneDNN 2.6 has no f64 matmul. The implementation oneDNN chose
// is in the notes (its reference loop, ref:any, where no optimised path takes the strides).
#include <fmt/format.h>

#include "../onednn/onednn_kernel.hpp"
#include "einsum_kernels.hpp"
#include "einsum_lowering.hpp"

namespace ridgeline {

namespace {

// One operand of the view: rows x cols at leading dimension ld, stored transposed with t.
ops::StridedMatrix matrix(const std::vector<std::int64_t>& batch_strides, std::int64_t ld, bool t) {
  return {batch_strides, t ? 1 : ld, t ? ld : 1};
}

class EinsumOnednn final : public OnednnKernel {
 public:
  EinsumOnednn()
      : OnednnKernel("einsum",
                     "oneDNN matmul on strided memory descriptors: every batch index a "
                     "dimension, the operands as stored (f32; oneDNN 2.6 has no f64 matmul)",
                     {DType::f32}, "vendor.onednn", LoweringKind::strided) {}
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    call_ = strided_call(problem, operands);
    const StridedView& v = call_.view;
    take(op_, ops::OnednnStridedMatmul::create(
                  v.batch_extent, v.m, v.n, v.k, matrix(v.batch_a, v.lda, v.ta),
                  matrix(v.batch_b, v.ldb, v.tb), matrix(v.batch_c, v.n, false), threads,
                  problem.dtype));
    run_ = [this] { op_->execute(call_.left, call_.right, call_.c); };
  }
  std::map<std::string, std::string> notes() const override {
    auto n = OnednnKernel::notes();
    n["contraction"] = describe(call_.view);
    return n;
  }
  std::vector<LoweringStep> lowering_steps() const override {
    return {{StepKind::strided_view, "contraction", ""}};
  }

 protected:
  Support supports_problem(const Problem& problem) const override {
    const EinsumSpec spec = einsum_spec(problem);
    StridedView v;
    if (Support s = strided_view(spec, v); !s) return s;
    if (v.batch_extent.size() > ops::kOnednnMaxBatchIndices)
      return Support::no(fmt::format("{} batch indices ({}): oneDNN's matmul takes at most {}",
                                     v.batch_extent.size(), einsum_groups(spec).batch,
                                     ops::kOnednnMaxBatchIndices));
    return Support::yes();
  }

 private:
  StridedCall call_;
  std::unique_ptr<ops::OnednnStridedMatmul> op_;
};

}  // namespace

std::unique_ptr<Kernel> make_einsum_onednn() {
  return std::make_unique<EinsumOnednn>();
}

}  // namespace ridgeline
