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
                      "intermediate written out",
              fused ? KernelRole::fused : KernelRole::unfused},
        fused_(fused) {}

  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    return check_common_support(info_, problem, threads);
  }
  // The unfused passes move the unfused bytes: its roofline point sits at that traffic's
  // intensity, left of the fused one, and its % of the memory roof is of what it moves.
  WorkModel work(const Problem& problem) const override {
    return fused_ ? op_work(problem) : op_unfused_work(problem);
  }
  // Everything run() needs is resolved here: run() is the timed call, so it holds no
  // string compares or params lookups.
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    threads_ = threads;
    x_ = operands.at("x").as<float>().data();
    y_ = operands.at("y").as<float>().data();
    op_ = problem.op == "softmax"     ? Op::softmax
          : problem.op == "layernorm" ? Op::layernorm
          : problem.op == "rmsnorm"   ? Op::rmsnorm
                                      : Op::eltwise_chain;
    gamma_ = op_ == Op::layernorm || op_ == Op::rmsnorm ? weight(operands, "gamma") : nullptr;
    beta_ = op_ == Op::layernorm ? weight(operands, "beta") : nullptr;
    std::size_t scratch = 0;
    if (op_ == Op::eltwise_chain) {
      rows_ = 1;
      cols_ = problem.params.dim("n");
      length_ = static_cast<int>(problem.params.dim("L"));
    } else {
      const RowShape s = row_shape(problem);
      rows_ = s.rows;
      cols_ = s.cols;
      if (!fused_)
        scratch = op_ == Op::softmax     ? ops::softmax_unfused_scratch(rows_, cols_)
                  : op_ == Op::layernorm ? ops::layernorm_unfused_scratch(rows_, cols_)
                                         : ops::rmsnorm_unfused_scratch(rows_, cols_);
    }
    if (scratch_.size() != scratch) scratch_ = OperandBuffer(DType::f32, scratch);
    scratch_ptr_ = scratch ? scratch_.as<float>().data() : nullptr;
  }
  void run() override {
    switch (op_) {
      case Op::eltwise_chain:
        if (fused_)
          ops::eltwise_chain_fused(x_, y_, cols_, length_, threads_);
        else
          ops::eltwise_chain_unfused(x_, y_, cols_, length_, threads_);
        return;
      case Op::softmax:
        if (fused_)
          ops::softmax_fused(x_, y_, rows_, cols_, threads_);
        else
          ops::softmax_unfused(x_, y_, scratch_ptr_, rows_, cols_, threads_);
        return;
      case Op::layernorm:
        if (fused_)
          ops::layernorm_fused(x_, gamma_, beta_, y_, rows_, cols_, kNormEpsilon, threads_);
        else
          ops::layernorm_unfused(x_, gamma_, beta_, y_, scratch_ptr_, rows_, cols_, kNormEpsilon,
                                 threads_);
        return;
      case Op::rmsnorm:
        if (fused_)
          ops::rmsnorm_fused(x_, gamma_, y_, rows_, cols_, kNormEpsilon, threads_);
        else
          ops::rmsnorm_unfused(x_, gamma_, y_, scratch_ptr_, rows_, cols_, kNormEpsilon, threads_);
        return;
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
  enum class Op { softmax, layernorm, rmsnorm, eltwise_chain };
  KernelInfo info_;
  bool fused_;
  Op op_ = Op::softmax;
  std::int64_t rows_ = 0, cols_ = 0;  // eltwise_chain: one row of n elements
  int length_ = 1;                    // eltwise_chain: L
  int threads_ = 1;
  const float* x_ = nullptr;
  float* y_ = nullptr;
  const float* gamma_ = nullptr;
  const float* beta_ = nullptr;
  OperandBuffer scratch_;
  float* scratch_ptr_ = nullptr;
};

}  // namespace

void add_rowwise_kernels(KernelCatalog& catalog) {
  for (const char* op : {"softmax", "layernorm", "rmsnorm", "eltwise_chain"})
    for (bool fused : {true, false})
      catalog.add([op, fused] { return std::make_unique<RowwiseKernel>(op, fused); });
}

}  // namespace ridgeline
