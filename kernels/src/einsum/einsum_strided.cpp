// einsum with no copies: the packed GEMM per batch on the operands where they lie, each
// read through its leading dimension (and transposed where its stride-1 index is the other
// one), the batch indices walked by their strides. It applies where every group of indices
// (batch, A's, B's, contracted) is adjacent in each operand that has it and C ends in A's
// group then B's (or B's then A's: the product transposed); elsewhere supports() names the
// operand that would need a copy. Compulsory bytes only: its work model is the op's.
#include <fmt/format.h>

#include <vector>

#include "einsum_gemm.hpp"
#include "einsum_kernels.hpp"
#include "einsum_lowering.hpp"

namespace ridgeline {

namespace {

class EinsumStrided final : public Kernel {
 public:
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (Support s = einsum_gemm_support(info_, problem, threads); !s) return s;
    StridedView v;
    return strided_view(einsum_spec(problem), v);
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    call_ = strided_call(problem, operands);
    const StridedView& v = call_.view;
    gemm_.prepare(problem.dtype,
                  [&](auto& g) { g.prepare(v.m, v.n, v.k, v.lda, v.ldb, v.ta, v.tb, threads); });
  }
  void run() override { gemm_.run(call_.left, call_.right, call_.c, call_.offsets); }
  std::map<std::string, std::string> notes() const override {
    return {{"gemm", fmt::format("{}: {}", describe(call_.view), gemm_.describe())}};
  }
  std::vector<LoweringStep> lowering_steps() const override {
    return {{StepKind::strided_view, "gemm", ""}};
  }

 private:
  KernelInfo info_ = declared_lowering({"einsum",
                                        "cpu.strided",
                                        Device::cpu,
                                        {DType::f32, DType::f64},
                                        true,
                                        "no copies: the packed GEMM per batch on the operands as "
                                        "stored (leading dimensions, transposed reads), where the "
                                        "index order allows",
                                        KernelRole::ladder},
                                       LoweringKind::strided);
  StridedCall call_;
  PackedGemmPerBatch gemm_;
};

}  // namespace

std::unique_ptr<Kernel> make_einsum_strided() {
  return std::make_unique<EinsumStrided>();
}

}  // namespace ridgeline
