// oneDNN as the vendor kernels of the fusion suite (backend vendor.onednn): the prepared
// objects of onednn_ops.hpp behind the kernel contract. Built with or without oneDNN; when
// it is absent every supports() gives the stub's reason.
#include "onednn_kernels.hpp"

#include <fmt/format.h>

#include <functional>
#include <stdexcept>

#include "onednn_ops.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/ops/rowwise.hpp"
#include "ridgeline/core/system_memory.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

constexpr const char* kBackend = "vendor.onednn";

std::string description(const std::string& op) {
  if (op == "softmax") return "oneDNN softmax_forward over each row";
  if (op == "layernorm") return "oneDNN layer_normalization_forward with scale and shift";
  if (op == "rmsnorm") return "oneDNN layer_normalization (oneDNN 2.6 has no RMS variant)";
  if (op == "gemm_bias_act") return "oneDNN matmul with bias and an eltwise post-op";
  return "oneDNN matmul -> softmax -> matmul, the score tensor in memory";
}

// The attention chain keeps batch*heads*seq^2 scores in the problem's dtype (and a seq^2
// f32 mask when causal) beside the operands; at most half the memory available now, so the
// run keeps room to breathe.
std::uint64_t attention_workspace(const Problem& p) {
  const double seq = static_cast<double>(p.params.dim("seq"));
  const double heads = static_cast<double>(p.params.dim("batch") * p.params.dim("heads"));
  const double elem = static_cast<double>(size_of(p.dtype));
  return static_cast<std::uint64_t>(seq * seq * (elem * heads + 4.0));
}

class OnednnKernel : public Kernel {
 public:
  explicit OnednnKernel(std::string op)
      : info_{op,   kBackend,        Device::cpu,       {DType::f32, DType::bf16},
              true, description(op), KernelRole::vendor} {}

  const KernelInfo& info() const override { return info_; }

  Support supports(const Problem& problem, int threads) const override {
    if (std::string why = ops::onednn_unavailable_reason(); !why.empty()) return Support::no(why);
    if (problem.op == "rmsnorm")
      return Support::no(
          "oneDNN 2.6's layer_normalization always subtracts the mean; RMSNorm came with "
          "oneDNN 3.x");
    if (problem.op == "attention") {
      const std::uint64_t need = attention_workspace(problem);
      const std::uint64_t budget = available_memory_bytes() / 2;
      if (need > budget)
        return Support::no(fmt::format(
            "vendor.onednn attention keeps the {:.1f} GiB score tensor in memory; half of "
            "the {:.1f} GiB available now is the limit",
            static_cast<double>(need) / (1 << 30),
            static_cast<double>(available_memory_bytes()) / (1 << 30)));
    }
    // oneDNN 2.6 runs bf16 from avx512_core on (emulated without AVX512_BF16); on older
    // ISAs its primitive descriptors refuse, which prepare() would report less plainly.
    if (problem.dtype == DType::bf16 && !cpu_features().has_avx512())
      return Support::no(
          "oneDNN 2.6 runs bf16 only on AVX-512 (avx512_core), which this CPU lacks");
    return check_common_support(info_, problem, threads);
  }

  // oneDNN 2.6 runs attention as separate primitives with the scores in memory: the
  // traffic of the unfused chain. Its other ops are one primitive each.
  WorkModel work(const Problem& problem) const override {
    return problem.op == "attention" ? op_unfused_work(problem) : op_work(problem);
  }

  void prepare(const Problem& problem, Operands& operands, int threads) override {
    // Raw pointers: f32 or bf16 bits, as the problem's dtype says (C is f32 either way).
    const auto data = [&](const char* name) -> void* { return operands.at(name).raw(); };
    const auto f32 = [&](const char* name) { return operands.at(name).as<float>().data(); };
    const DType dtype = problem.dtype;
    if (problem.op == "softmax") {
      const RowShape s = row_shape(problem);
      take(softmax_, ops::OnednnSoftmax::create(s.rows, s.cols, threads, dtype));
      run_ = [this, x = data("x"), y = data("y")] { softmax_->execute(x, y); };
    } else if (problem.op == "layernorm") {
      const RowShape s = row_shape(problem);
      take(layernorm_,
           ops::OnednnLayerNorm::create(s.rows, s.cols, kNormEpsilon, false, threads, dtype));
      run_ = [this, x = data("x"), g = data("gamma"), b = data("beta"), y = data("y")] {
        layernorm_->execute(x, g, b, y);
      };
    } else if (problem.op == "gemm_bias_act") {
      const Shape s = gemm_shape(problem);
      const auto act =
          problem.params.attr("act") == "relu" ? ops::Activation::relu : ops::Activation::gelu_tanh;
      take(matmul_, ops::OnednnMatmulBiasAct::create(s.m, s.n, s.k, act, threads, dtype));
      run_ = [this, a = data("A"), b = data("B"), bias = data("bias"), c = f32("C")] {
        matmul_->execute(a, b, bias, c);
      };
    } else if (problem.op == "attention") {
      const auto& p = problem.params;
      take(attention_, ops::OnednnAttention::create(p.dim("batch"), p.dim("heads"), p.dim("seq"),
                                                    p.dim("head_dim"), p.attr("causal") == "1",
                                                    available_memory_bytes() / 2, threads, dtype));
      run_ = [this, q = data("Q"), k = data("K"), v = data("V"), o = data("O")] {
        attention_->execute(q, k, v, o);
      };
    } else {
      throw std::runtime_error(fmt::format("{} cannot run {}", info_.id(), problem.op));
    }
  }

  void run() override { run_(); }

  std::map<std::string, std::string> notes() const override {
    std::map<std::string, std::string> n{{"library", ops::onednn_version()}};
    if (softmax_) n["implementation"] = softmax_->implementation();
    if (layernorm_) n["implementation"] = layernorm_->implementation();
    if (matmul_) n["implementation"] = matmul_->implementation();
    if (attention_) n["implementation"] = attention_->implementation();
    return n;
  }

 private:
  // create() refuses only what supports() let through by mistake (or oneDNN's own limits);
  // the case then fails with oneDNN's reason.
  template <class Op>
  static void take(std::unique_ptr<Op>& slot, ops::Prepared<Op> prepared) {
    if (!prepared) throw std::runtime_error(prepared.support.reason);
    slot = std::move(prepared.op);
  }

  KernelInfo info_;
  std::unique_ptr<ops::OnednnSoftmax> softmax_;
  std::unique_ptr<ops::OnednnLayerNorm> layernorm_;
  std::unique_ptr<ops::OnednnMatmulBiasAct> matmul_;
  std::unique_ptr<ops::OnednnAttention> attention_;
  std::function<void()> run_;
};

}  // namespace

void add_onednn_kernels(KernelCatalog& catalog) {
  for (const char* op : {"softmax", "layernorm", "rmsnorm", "gemm_bias_act", "attention"})
    catalog.add([op] { return std::make_unique<OnednnKernel>(op); });
}

}  // namespace ridgeline
