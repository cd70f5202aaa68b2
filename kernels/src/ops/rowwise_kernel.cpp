// The CPU kernels of the memory-bound ops (softmax, layernorm, rmsnorm, eltwise_chain):
// backend cpu.fused (one pass, AVX-512 or AVX2 by CPUID) and cpu.unfused (one parallel,
// vectorised pass through memory per step, as an eager framework runs it). Both honour
// the thread count.
#include "rowwise_kernel.hpp"

#include <fmt/format.h>

#include "ridgeline/core/ops/rowwise.hpp"
#include "rowwise_ops.hpp"

namespace ridgeline {

namespace {

class RowwiseKernel : public Kernel {
 public:
  RowwiseKernel(std::string op, bool fused)
      : info_{op,
              fused ? "cpu.fused" : "cpu.unfused",
              "cpu",
              {DType::f32},
              true,
              fused ? fmt::format("one pass over memory, OpenMP over rows, {} by CPUID",
                                  ops::rowwise_fused_isa())
                    : "one OpenMP-parallel, vectorised pass through memory per step, each "
                      "intermediate written out"},
        fused_(fused) {}

  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    return check_common_support(info_, problem, threads);
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    problem_ = problem;
    threads_ = threads;
    x_ = operands.at("x").as<float>().data();
    y_ = operands.at("y").as<float>().data();
    const bool norm = problem.op == "layernorm" || problem.op == "rmsnorm";
    gamma_ = norm ? weight(operands, "gamma") : nullptr;
    beta_ = problem.op == "layernorm" ? weight(operands, "beta") : nullptr;
    std::size_t scratch = 0;
    if (!fused_ && problem.op != "eltwise_chain") {
      const RowShape s = row_shape(problem);
      scratch = problem.op == "softmax"     ? ops::softmax_unfused_scratch(s.rows, s.cols)
                : problem.op == "layernorm" ? ops::layernorm_unfused_scratch(s.rows, s.cols)
                                            : ops::rmsnorm_unfused_scratch(s.rows, s.cols);
    }
    if (scratch_.size() != scratch) scratch_ = OperandBuffer(DType::f32, scratch);
  }
  void run() override {
    if (problem_.op == "eltwise_chain") {
      const std::int64_t n = problem_.params.dim("n");
      const int length = static_cast<int>(problem_.params.dim("L"));
      if (fused_)
        ops::eltwise_chain_fused(x_, y_, n, length, threads_);
      else
        ops::eltwise_chain_unfused(x_, y_, n, length, threads_);
      return;
    }
    const RowShape s = row_shape(problem_);
    float* scratch = scratch_.size() ? scratch_.as<float>().data() : nullptr;
    if (problem_.op == "softmax") {
      if (fused_)
        ops::softmax_fused(x_, y_, s.rows, s.cols, threads_);
      else
        ops::softmax_unfused(x_, y_, scratch, s.rows, s.cols, threads_);
    } else if (problem_.op == "layernorm") {
      if (fused_)
        ops::layernorm_fused(x_, gamma_, beta_, y_, s.rows, s.cols, kNormEpsilon, threads_);
      else
        ops::layernorm_unfused(x_, gamma_, beta_, y_, scratch, s.rows, s.cols, kNormEpsilon,
                               threads_);
    } else {
      if (fused_)
        ops::rmsnorm_fused(x_, gamma_, y_, s.rows, s.cols, kNormEpsilon, threads_);
      else
        ops::rmsnorm_unfused(x_, gamma_, y_, scratch, s.rows, s.cols, kNormEpsilon, threads_);
    }
  }
  std::map<std::string, std::string> notes() const override {
    return {{"isa", ops::rowwise_fused_isa()},
            {"passes", fused_ ? "one" : "one per step, intermediates in memory"}};
  }

 private:
  static const float* weight(Operands& operands, const char* name) {
    return operands.at(name).as<float>().data();
  }
  KernelInfo info_;
  bool fused_;
  Problem problem_;
  int threads_ = 1;
  const float* x_ = nullptr;
  float* y_ = nullptr;
  const float* gamma_ = nullptr;
  const float* beta_ = nullptr;
  OperandBuffer scratch_;
};

}  // namespace

void add_rowwise_kernels(KernelCatalog& catalog) {
  for (const char* op : {"softmax", "layernorm", "rmsnorm", "eltwise_chain"})
    for (bool fused : {true, false})
      catalog.add([op, fused] { return std::make_unique<RowwiseKernel>(op, fused); });
}

}  // namespace ridgeline
