// einsum as a GEMM-like tensor-tensor multiply (GETT, as TBLIS runs it): the packed GEMM's
// blocking and micro-kernel, its panels packed straight from the tensors through offset
// tables (einsum_lowering.hpp: GettView) and its tiles stored straight into C, so no
// operand is ever permuted in memory. It applies wherever a GEMM lowering does; a panel whose
// offsets run at one stride is packed as the strided GEMM packs it, others are gathered, and
// a tile whose rows in C are irregular goes through a scratch tile. Compulsory bytes only:
// its work model is the op's.
#include <fmt/format.h>

#include "einsum_gemm.hpp"
#include "einsum_kernels.hpp"
#include "einsum_lowering.hpp"

namespace ridgeline {

namespace {

class EinsumGett final : public Kernel {
 public:
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    return einsum_gemm_support(info_, problem, threads);
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    view_ = gett_view(einsum_spec(problem));
    left_ = operands.at(view_.swapped ? "B" : "A").raw();
    right_ = operands.at(view_.swapped ? "A" : "B").raw();
    c_ = operands.at("C").raw();
    gemm_.prepare(problem.dtype, [&](auto& g) {
      g.prepare_gathered(view_.m, view_.n, view_.k, &view_.layout, threads);
    });
  }
  void run() override { gemm_.run(left_, right_, c_, view_.batches); }
  std::map<std::string, std::string> notes() const override {
    return {{"gemm", fmt::format("{} products of {}x{}x{} gathered{}: {}", view_.batches.size(),
                                 view_.m, view_.n, view_.k,
                                 view_.swapped ? ", as C^T = B^T A^T" : "", gemm_.describe())}};
  }
  std::vector<LoweringStep> lowering_steps() const override {
    return {{StepKind::gathered, "gemm", ""}};
  }

 private:
  KernelInfo info_ = declared_lowering({"einsum",
                                        "cpu.gett",
                                        Device::cpu,
                                        {DType::f32, DType::f64},
                                        true,
                                        "GETT: the packed GEMM with panels gathered from the "
                                        "tensors' strides and tiles stored into C where it lies; "
                                        "no transposes",
                                        KernelRole::ladder},
                                       LoweringKind::gett);
  GettView view_;
  const void* left_ = nullptr;
  const void* right_ = nullptr;
  void* c_ = nullptr;
  PackedGemmPerBatch gemm_;
};

}  // namespace

std::unique_ptr<Kernel> make_einsum_gett() {
  return std::make_unique<EinsumGett>();
}

}  // namespace ridgeline
