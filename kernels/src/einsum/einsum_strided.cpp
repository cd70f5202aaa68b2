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
    call_ = strided_call(problem, operands);
    f64_ = problem.dtype == DType::f64;
    const StridedView& v = call_.view;
    if (f64_)
      g64_.prepare(v.m, v.n, v.k, v.lda, v.ldb, v.ta, v.tb, threads);
    else
      g32_.prepare(v.m, v.n, v.k, v.lda, v.ldb, v.ta, v.tb, threads);
  }
  void run() override {
    if (f64_)
      run_as(g64_);
    else
      run_as(g32_);
  }
  std::map<std::string, std::string> notes() const override {
    return {{"gemm", fmt::format("{}: {}", describe(call_.view),
                                 f64_ ? g64_.describe() : g32_.describe())}};
  }

 private:
  template <typename T>
  void run_as(EinsumGemm<T>& gemm) {
    const T* left = static_cast<const T*>(call_.left);
    const T* right = static_cast<const T*>(call_.right);
    T* c = static_cast<T*>(call_.c);
    for (const BatchOffsets& o : call_.offsets) gemm.run(left + o.a, right + o.b, c + o.c);
  }

  KernelInfo info_{"einsum",
                   "cpu.strided",
                   Device::cpu,
                   {DType::f32, DType::f64},
                   true,
                   "no copies: the packed GEMM per batch on the operands as stored (leading "
                   "dimensions, transposed reads), where the index order allows",
                   KernelRole::ladder};
  StridedCall call_;
  bool f64_ = false;
  EinsumGemm<float> g32_;
  EinsumGemm<double> g64_;
};

}  // namespace

std::unique_ptr<Kernel> make_einsum_strided() {
  return std::make_unique<EinsumStrided>();
}

}  // namespace ridgeline
