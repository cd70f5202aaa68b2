// oneDNN as the vendor kernels of the fusion suite (backend vendor.onednn): the prepared
// objects of onednn_ops.hpp behind the kernel contract, one small class per op. Built with or
// without oneDNN; when it is absent every supports() says why oneDNN is off.
#include "onednn_kernels.hpp"

#include <fmt/format.h>

#include <functional>
#include <stdexcept>

#include "onednn_kernel.hpp"
#include "onednn_ops.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/ops/rowwise.hpp"
#include "ridgeline/core/system_memory.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

namespace {

// The attention chain keeps batch*heads*seq^2 scores in the problem's dtype (and a seq^2
// f32 mask when causal) beside the operands; at most half the memory available now, so the
// run keeps room to breathe.
std::uint64_t attention_workspace(const Problem& p) {
  const double seq = static_cast<double>(p.params.dim("seq"));
  const double heads = static_cast<double>(p.params.dim("batch") * p.params.dim("heads"));
  const double elem = static_cast<double>(size_of(p.dtype));
  return static_cast<std::uint64_t>(seq * seq * (elem * heads + 4.0));
}

class OnednnSoftmaxKernel final : public OnednnKernel {
 public:
  OnednnSoftmaxKernel() : OnednnKernel("softmax", "oneDNN softmax_forward over each row") {}
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    const RowShape s = row_shape(problem);
    take(op_, ops::OnednnSoftmax::create(s.rows, s.cols, threads, problem.dtype));
    run_ = [this, x = operands.at("x").raw(), y = operands.at("y").raw()] { op_->execute(x, y); };
  }

 private:
  std::unique_ptr<ops::OnednnSoftmax> op_;
};

class OnednnLayerNormKernel final : public OnednnKernel {
 public:
  OnednnLayerNormKernel()
      : OnednnKernel("layernorm", "oneDNN layer_normalization_forward with scale and shift") {}
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    const RowShape s = row_shape(problem);
    take(op_,
         ops::OnednnLayerNorm::create(s.rows, s.cols, kNormEpsilon, false, threads, problem.dtype));
    run_ = [this, x = operands.at("x").raw(), g = operands.at("gamma").raw(),
            b = operands.at("beta").raw(),
            y = operands.at("y").raw()] { op_->execute(x, g, b, y); };
  }

 private:
  std::unique_ptr<ops::OnednnLayerNorm> op_;
};

class OnednnGemmBiasActKernel final : public OnednnKernel {
 public:
  OnednnGemmBiasActKernel()
      : OnednnKernel("gemm_bias_act", "oneDNN matmul with bias and an eltwise post-op") {}
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    const Shape s = gemm_shape(problem);
    const auto act =
        problem.params.attr("act") == "relu" ? ops::Activation::relu : ops::Activation::gelu_tanh;
    take(op_, ops::OnednnMatmulBiasAct::create(s.m, s.n, s.k, act, threads, problem.dtype));
    // A and B in the problem's dtype, C f32 either way.
    run_ = [this, a = operands.at("A").raw(), b = operands.at("B").raw(),
            bias = operands.at("bias").raw(),
            c = operands.at("C").as<float>().data()] { op_->execute(a, b, bias, c); };
  }

 private:
  std::unique_ptr<ops::OnednnMatmulBiasAct> op_;
};

// The GEMM itself (gemm.vendor.onednn): oneDNN's matmul on the operands as laid out, f32, bf16
// (C f32) and int8 (C i32); on an AMX core its brgemm kernels run on the tiles. The capped
// twin (gemm.vendor.onednn_avx512) runs the same matmul with oneDNN's ISA capped below AMX, so
// the engine's effect is one comparison of two rows.
class OnednnGemmKernel final : public OnednnKernel {
 public:
  explicit OnednnGemmKernel(bool capped)
      : OnednnKernel("gemm",
                     capped ? "oneDNN matmul with its ISA capped at avx512_core_bf16 "
                              "(dnnl::set_max_cpu_isa): the vector units, no AMX"
                            : "oneDNN matmul on the operands as laid out (f32, bf16 and int8)",
                     {DType::f32, DType::bf16, DType::i8},
                     capped ? "vendor.onednn_avx512" : "vendor.onednn"),
        capped_(capped) {}
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    if (capped_)
      if (std::string why = ops::onednn_cap_isa_below_amx(); !why.empty())
        throw std::runtime_error(why);
    const Shape s = gemm_shape(problem);
    const Layout layout = gemm_layout(problem);
    const std::int64_t lda = lda_of(problem), ldb = ldb_of(problem);
    const auto matrix = [](bool transposed, std::int64_t ld) {
      ops::StridedMatrix m;
      m.row_stride = transposed ? 1 : ld;
      m.col_stride = transposed ? ld : 1;
      return m;
    };
    const GemmOperands g = gemm_view(operands);
    take(op_, ops::OnednnStridedMatmul::create({}, s.m, s.n, s.k, matrix(transposes_a(layout), lda),
                                               matrix(transposes_b(layout), ldb),
                                               matrix(false, s.n), threads, problem.dtype));
    // The cap is process-wide and fixed at oneDNN's first use: a capped row that still ran
    // on the tiles would be a false comparison.
    if (capped_ && op_->implementation().find("amx") != std::string::npos)
      throw std::runtime_error("oneDNN chose " + op_->implementation() +
                               " although its ISA was capped below AMX");
    run_ = [this, a = g.a.raw(), b = g.b.raw(), c = g.c.raw()] { op_->execute(a, b, c); };
  }

 protected:
  Support supports_problem(const Problem& problem) const override {
    return check_gemm_batch(info(), problem);
  }
  bool capped_isa() const override { return capped_; }

 private:
  bool capped_;
  std::unique_ptr<ops::OnednnStridedMatmul> op_;
};

class OnednnAttentionKernel final : public OnednnKernel {
 public:
  OnednnAttentionKernel()
      : OnednnKernel("attention",
                     "oneDNN matmul -> softmax -> matmul, the score tensor in memory") {}
  // oneDNN 2.6 runs attention as separate primitives with the scores in memory: the
  // traffic of the unfused chain.
  WorkModel work(const Problem& problem) const override { return op_unfused_work(problem); }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    const auto& p = problem.params;
    take(op_, ops::OnednnAttention::create(p.dim("batch"), p.dim("heads"), p.dim("seq"),
                                           p.dim("head_dim"), p.attr("causal") == "1",
                                           available_memory_bytes() / 2, threads, problem.dtype));
    run_ = [this, q = operands.at("Q").raw(), k = operands.at("K").raw(),
            v = operands.at("V").raw(), o = operands.at("O").raw()] { op_->execute(q, k, v, o); };
  }

 protected:
  Support supports_problem(const Problem& problem) const override {
    const std::uint64_t need = attention_workspace(problem);
    const std::uint64_t budget = available_memory_bytes() / 2;
    if (need <= budget) return Support::yes();
    return Support::no(
        fmt::format("vendor.onednn attention keeps the {:.1f} GiB score tensor in memory; half of "
                    "the {:.1f} GiB available now is the limit",
                    static_cast<double>(need) / (1 << 30),
                    static_cast<double>(available_memory_bytes()) / (1 << 30)));
  }

 private:
  std::unique_ptr<ops::OnednnAttention> op_;
};

}  // namespace

// No rmsnorm: oneDNN 2.6's layer_normalization always subtracts the mean (RMSNorm came with
// oneDNN 3.x), so the op has no vendor kernel here.
void add_onednn_kernels(KernelCatalog& catalog) {
  for (bool capped : {false, true})
    catalog.add([capped] { return std::make_unique<OnednnGemmKernel>(capped); });
  catalog.add([] { return std::make_unique<OnednnSoftmaxKernel>(); });
  catalog.add([] { return std::make_unique<OnednnLayerNormKernel>(); });
  catalog.add([] { return std::make_unique<OnednnGemmBiasActKernel>(); });
  catalog.add([] { return std::make_unique<OnednnAttentionKernel>(); });
}

}  // namespace ridgeline
