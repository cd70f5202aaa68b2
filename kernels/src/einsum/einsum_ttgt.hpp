#pragma once
// Transpose-GEMM-transpose with its GEMM step chosen: the permutes, buffers, laps and work
// model are one kernel (einsum_ttgt.cpp); the GEMM between them is the packed GEMM
// (`cpu.ttgt`) or a CBLAS library (`blas.<name>.ttgt`, einsum_blas.cpp), as a framework
// calls its BLAS between its copies.
#include <cstdint>
#include <memory>
#include <string>

#include "einsum_lowering.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

// TTGT's GEMM step: plan.batch products of dense row-major matrices, [batch, m, k] times
// [batch, k, n] into [batch, m, n].
class TtgtGemm {
 public:
  virtual ~TtgtGemm() = default;
  // Everything the kernel asks of a problem: the first reason it cannot run, as `info`.
  virtual Support supports(const KernelInfo& info, const Problem& problem, int threads) const = 0;
  virtual void prepare(DType dtype, const TtgtPlan& plan, int threads) = 0;
  virtual void run(const void* a, const void* b, void* c) = 0;
  // How the products ran, for the kernel's notes ("gemm_f32_avx2_6x16, mc=...").
  virtual std::string describe() const = 0;
};

// The TTGT kernel of `info` around `gemm`. `direct`, where the same library also runs
// einsum on the operands as stored (`blas.openblas` beside `blas.openblas.ttgt`): the
// backend that makes the same calls where TTGT would permute nothing, which this kernel
// then leaves to it (a second run of the same calls is not a second lowering).
std::unique_ptr<Kernel> make_einsum_ttgt_with(KernelInfo info, std::unique_ptr<TtgtGemm> gemm,
                                              std::string direct = "");

}  // namespace ridgeline
