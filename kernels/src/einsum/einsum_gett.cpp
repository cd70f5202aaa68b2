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
    if (Support s = check_common_support(info_, problem, threads); !s) return s;
    if (Support s = einsum_gemm_support(); !s) return s;
    return gemm_lowering_support(einsum_spec(problem));
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    view_ = gett_view(einsum_spec(problem));
    left_ = operands.at(view_.swapped ? "B" : "A").raw();
    right_ = operands.at(view_.swapped ? "A" : "B").raw();
    c_ = operands.at("C").raw();
    f64_ = problem.dtype == DType::f64;
    if (f64_)
      g64_.prepare_gathered(view_.m, view_.n, view_.k, &view_.layout, threads);
    else
      g32_.prepare_gathered(view_.m, view_.n, view_.k, &view_.layout, threads);
  }
  void run() override {
    if (f64_)
      run_as(g64_);
    else
      run_as(g32_);
  }
  std::map<std::string, std::string> notes() const override {
    return {
        {"gemm", fmt::format("{} products of {}x{}x{} gathered{}: {}", view_.batches.size(),
                             view_.m, view_.n, view_.k, view_.swapped ? ", as C^T = B^T A^T" : "",
                             f64_ ? g64_.describe() : g32_.describe())}};
  }

 private:
  template <typename T>
  void run_as(EinsumGemm<T>& gemm) {
    const T* left = static_cast<const T*>(left_);
    const T* right = static_cast<const T*>(right_);
    T* c = static_cast<T*>(c_);
    for (const BatchOffsets& o : view_.batches) gemm.run(left + o.a, right + o.b, c + o.c);
  }

  KernelInfo info_{"einsum",
                   "cpu.gett",
                   Device::cpu,
                   {DType::f32, DType::f64},
                   true,
                   "GETT: the packed GEMM with panels gathered from the tensors' strides and "
                   "tiles stored into C where it lies; no transposes",
                   KernelRole::ladder};
  GettView view_;
  const void* left_ = nullptr;
  const void* right_ = nullptr;
  void* c_ = nullptr;
  bool f64_ = false;
  EinsumGemm<float> g32_;
  EinsumGemm<double> g64_;
};

}  // namespace

std::unique_ptr<Kernel> make_einsum_gett() {
  return std::make_unique<EinsumGett>();
}

}  // namespace ridgeline
