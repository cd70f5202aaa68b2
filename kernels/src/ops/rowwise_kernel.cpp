// The CPU kernels of the memory-bound ops (softmax, layernorm, rmsnorm, eltwise_chain):
// backend cpu.fused (one pass, AVX-512 or AVX2 by CPUID; NEON on AArch64) and cpu.unfused (one
// parallel, vectorised pass through memory per step, as an eager framework runs it);
// cpu.avx2_fused and cpu.avx2_unfused the same with AVX2 forced (x86-64 builds only). Both
// honour the thread count. f32 everywhere; bf16 (bf16 in memory, f32 arithmetic) where the CPU
// has AVX-512 and AVX512_BF16.
#include "rowwise_kernel.hpp"

#include <fmt/format.h>

#include <optional>
#include <type_traits>
#include <vector>

#include "forced_isa.hpp"
#include "ridgeline/core/ops/rowwise.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "rowwise_op.hpp"
#include "rowwise_ops.hpp"

namespace ridgeline {

namespace {

// cpu.fused / cpu.unfused take the widest ISA by CPUID; cpu.avx2_fused / cpu.avx2_unfused
// force AVX2 (f32), so that an AVX-512 machine measures the code an AVX2-only CPU runs.
class RowwiseKernel : public Kernel {
 public:
  RowwiseKernel(RowwiseOpName op, bool fused, std::optional<ops::Isa> forced = std::nullopt)
      : info_{std::string(op.name),
              ops::forced_backend(forced, fused ? "fused" : "unfused"),
              Device::cpu,
              ops::forced_dtypes(forced),
              true,
              fused
                  ? fmt::format("one pass over memory, OpenMP over rows, {}", ops::isa_said(forced))
                  : fmt::format("one OpenMP-parallel, vectorised pass through memory per step, "
                                "each intermediate written out{}",
                                forced ? ", " + ops::isa_said(forced) : std::string()),
              fused ? KernelRole::fused : KernelRole::unfused,
              ops::forced_family(forced)},
        op_(op.op),
        fused_(fused),
        forced_(forced) {}

  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (Support s = check_common_support(info_, problem, threads); !s) return s;
    if (Support s = ops::forced_support(forced_); !s) return s;
    if (problem.dtype == DType::bf16)
      if (std::string why = ops::bf16_unsupported_reason(cpu_features()); !why.empty())
        return Support::no(std::move(why));
    return Support::yes();
  }
  // Everything run() needs is resolved here: run() is the timed call, so it holds no
  // string compares or params lookups.
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    threads_ = threads;
    bf16_ = problem.dtype == DType::bf16;
    x_ = data(operands, "x");
    y_ = data(operands, "y");
    gamma_ = has_gamma(op_) ? data(operands, "gamma") : nullptr;
    beta_ = has_beta(op_) ? data(operands, "beta") : nullptr;
    std::size_t scratch = 0;
    if (op_ == RowwiseOp::eltwise_chain) {
      rows_ = 1;
      cols_ = problem.params.dim("n");
      length_ = static_cast<int>(problem.params.dim("L"));
    } else {
      const RowShape s = row_shape(problem);
      rows_ = s.rows;
      cols_ = s.cols;
      if (!fused_)
        scratch = op_ == RowwiseOp::softmax     ? ops::softmax_unfused_scratch(rows_, cols_)
                  : op_ == RowwiseOp::layernorm ? ops::layernorm_unfused_scratch(rows_, cols_)
                                                : ops::rmsnorm_unfused_scratch(rows_, cols_);
    }
    // The unfused intermediates are in the problem's dtype, like an eager framework's.
    if (scratch_.size() != scratch || scratch_.dtype() != problem.dtype)
      scratch_ = OperandBuffer(problem.dtype, scratch);
    scratch_ptr_ = scratch ? scratch_.raw() : nullptr;
  }
  void run() override {
    std::optional<PassClock::Lap> lap;
    if (!fused_) lap.emplace(passes_);
    if (bf16_)
      run_as<std::uint16_t>();
    else
      run_as<float>();
  }
  PassClock* pass_clock() override { return fused_ ? nullptr : &passes_; }
  std::map<std::string, std::string> notes() const override {
    std::map<std::string, std::string> notes{
        {"isa", forced_ ? std::string(ops::to_string(*forced_)) : ops::rowwise_fused_isa()},
        {"passes", fused_ ? "one" : "one per step, intermediates in memory"}};
    if (fused_ && op_ != RowwiseOp::eltwise_chain && !(op_ == RowwiseOp::softmax && bf16_)) {
      const std::int64_t bytes = ops::rows_in_out_bytes(rows_, cols_, bf16_ ? 2 : 4);
      const bool softmax_plain =
          op_ == RowwiseOp::softmax && !ops::softmax_streams_y(forced_.value_or(ops::best_isa()));
      const bool streams = ops::streams_output(bytes) && !softmax_plain;
      notes["y stores"] = fmt::format(
          "{} (x and y {:.1f} MiB, streamed past {} MiB{})", streams ? "non-temporal" : "plain",
          static_cast<double>(bytes) / (1 << 20), ops::streaming_threshold() >> 20,
          softmax_plain ? "; not softmax with AVX-512 on Zen 5, where plain stores are faster"
                        : "");
    }
    return notes;
  }

 private:
  // An operand's storage, typed access so that a buffer of the wrong dtype throws.
  void* data(Operands& operands, const char* name) const {
    OperandBuffer& b = operands.at(name);
    if (bf16_) return b.as<std::uint16_t>().data();
    return b.as<float>().data();
  }
  // The element type T is resolved once per run(), outside the ops' loops.
  template <typename T>
  void run_as() const {
    const T* x = static_cast<const T*>(x_);
    T* y = static_cast<T*>(y_);
    const T* gamma = static_cast<const T*>(gamma_);
    T* scratch = static_cast<T*>(scratch_ptr_);
    if constexpr (std::is_same_v<T, float>)
      if (forced_) return run_forced(*forced_, x, y, gamma, static_cast<const T*>(beta_), scratch);
    switch (op_) {
      case RowwiseOp::eltwise_chain:
        if (fused_)
          ops::eltwise_chain_fused(x, y, cols_, length_, threads_);
        else
          ops::eltwise_chain_unfused(x, y, cols_, length_, threads_);
        return;
      case RowwiseOp::softmax:
        if (fused_)
          ops::softmax_fused(x, y, rows_, cols_, threads_);
        else
          ops::softmax_unfused(x, y, scratch, rows_, cols_, threads_);
        return;
      case RowwiseOp::layernorm: {
        const T* beta = static_cast<const T*>(beta_);
        if (fused_)
          ops::layernorm_fused(x, gamma, beta, y, rows_, cols_, kNormEpsilon, threads_);
        else
          ops::layernorm_unfused(x, gamma, beta, y, scratch, rows_, cols_, kNormEpsilon, threads_);
        return;
      }
      case RowwiseOp::rmsnorm:
        if (fused_)
          ops::rmsnorm_fused(x, gamma, y, rows_, cols_, kNormEpsilon, threads_);
        else
          ops::rmsnorm_unfused(x, gamma, y, scratch, rows_, cols_, kNormEpsilon, threads_);
        return;
    }
  }
  // The same ops at a forced ISA (f32 only).
  void run_forced(ops::Isa isa, const float* x, float* y, const float* gamma, const float* beta,
                  float* scratch) const {
    switch (op_) {
      case RowwiseOp::eltwise_chain:
        if (fused_)
          ops::eltwise_chain_fused_isa(isa, x, y, cols_, length_, threads_);
        else
          ops::eltwise_chain_unfused_isa(isa, x, y, cols_, length_, threads_);
        return;
      case RowwiseOp::softmax:
        if (fused_)
          ops::softmax_fused_isa(isa, x, y, rows_, cols_, threads_);
        else
          ops::softmax_unfused_isa(isa, x, y, scratch, rows_, cols_, threads_);
        return;
      case RowwiseOp::layernorm:
        if (fused_)
          ops::layernorm_fused_isa(isa, x, gamma, beta, y, rows_, cols_, kNormEpsilon, threads_);
        else
          ops::layernorm_unfused_isa(isa, x, gamma, beta, y, scratch, rows_, cols_, kNormEpsilon,
                                     threads_);
        return;
      case RowwiseOp::rmsnorm:
        if (fused_)
          ops::rmsnorm_fused_isa(isa, x, gamma, y, rows_, cols_, kNormEpsilon, threads_);
        else
          ops::rmsnorm_unfused_isa(isa, x, gamma, y, scratch, rows_, cols_, kNormEpsilon, threads_);
        return;
    }
  }
  KernelInfo info_;
  RowwiseOp op_;
  bool fused_;
  std::optional<ops::Isa> forced_;
  bool bf16_ = false;
  std::int64_t rows_ = 0, cols_ = 0;  // eltwise_chain: one row of n elements
  int length_ = 1;                    // eltwise_chain: L
  int threads_ = 1;
  // The operands' storage, f32 or bf16 bits (run_as casts to the element type).
  const void* x_ = nullptr;
  void* y_ = nullptr;
  const void* gamma_ = nullptr;
  const void* beta_ = nullptr;
  OperandBuffer scratch_;
  void* scratch_ptr_ = nullptr;
  PassClock passes_;  // unfused: lapped by each pass
};

}  // namespace

void add_rowwise_kernels(KernelCatalog& catalog) {
  for (RowwiseOpName op : kRowwiseOps)
    for (bool fused : {true, false}) {
      catalog.add([op, fused] { return std::make_unique<RowwiseKernel>(op, fused); });
#if defined(__x86_64__)
      // AVX2 forced: what an AVX2-only x86 CPU runs. AArch64 has one vector ISA built (NEON),
      // which cpu.fused and cpu.unfused take.
      catalog.add(
          [op, fused] { return std::make_unique<RowwiseKernel>(op, fused, ops::Isa::avx2); });
#endif
    }
}

}  // namespace ridgeline
