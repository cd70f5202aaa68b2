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
    if (Support s = check_common_support(info_, problem, threads); !s) return s;
    if (Support s = einsum_gemm_support(); !s) return s;
    StridedView v;
    return strided_view(einsum_spec(problem), v);
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    strided_view(einsum_spec(problem), view_);
    f64_ = problem.dtype == DType::f64;
    // The operands in the GEMM's roles: B first where the product is transposed.
    left_ = operands.at(view_.swapped ? "B" : "A").raw();
    right_ = operands.at(view_.swapped ? "A" : "B").raw();
    c_ = operands.at("C").raw();
    offsets_ = batch_offsets(view_);
    if (f64_)
      g64_.prepare(view_.m, view_.n, view_.k, view_.lda, view_.ldb, view_.ta, view_.tb, threads);
    else
      g32_.prepare(view_.m, view_.n, view_.k, view_.lda, view_.ldb, view_.ta, view_.tb, threads);
  }
  void run() override {
    if (f64_)
      run_as(g64_);
    else
      run_as(g32_);
  }
  std::map<std::string, std::string> notes() const override {
    return {
        {"gemm", fmt::format("{}: {}", describe(view_), f64_ ? g64_.describe() : g32_.describe())}};
  }

 private:
  template <typename T>
  void run_as(EinsumGemm<T>& gemm) {
    const T* left = static_cast<const T*>(left_);
    const T* right = static_cast<const T*>(right_);
    T* c = static_cast<T*>(c_);
    for (const BatchOffsets& o : offsets_) gemm.run(left + o.a, right + o.b, c + o.c);
  }

  KernelInfo info_{"einsum",
                   "cpu.strided",
                   Device::cpu,
                   {DType::f32, DType::f64},
                   true,
                   "no copies: the packed GEMM per batch on the operands as stored (leading "
                   "dimensions, transposed reads), where the index order allows",
                   KernelRole::ladder};
  StridedView view_;
  bool f64_ = false;
  const void* left_ = nullptr;
  const void* right_ = nullptr;
  void* c_ = nullptr;
  std::vector<BatchOffsets> offsets_;
  EinsumGemm<float> g32_;
  EinsumGemm<double> g64_;
};

}  // namespace

std::unique_ptr<Kernel> make_einsum_strided() {
  return std::make_unique<EinsumStrided>();
}

}  // namespace ridgeline
