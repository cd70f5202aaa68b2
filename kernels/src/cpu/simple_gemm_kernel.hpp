#pragma once
// Shared plumbing of the single-buffer CPU rungs (naive, reordered, tiled): they keep the
// operands and call one typed routine per dtype.
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline::cpu {

// A and B of T, C of Out (f32 for bf16 inputs, held as std::uint16_t bits).
template <typename T, typename Out = T>
struct GemmArgs {
  std::int64_t m, n, k, lda, ldb;
  bool ta, tb;
  const T* a;
  const T* b;
  Out* c;
  T at_a(std::int64_t i, std::int64_t p) const { return ta ? a[p * lda + i] : a[i * lda + p]; }
  T at_b(std::int64_t p, std::int64_t j) const { return tb ? b[j * ldb + p] : b[p * ldb + j]; }
};

template <typename T, typename Out = T>
GemmArgs<T, Out> gemm_args(const Problem& p, GemmOperands ops) {
  return {gemm_shape(p).m,
          gemm_shape(p).n,
          gemm_shape(p).k,
          lda_of(p),
          ldb_of(p),
          transposes_a(gemm_layout(p)),
          transposes_b(gemm_layout(p)),
          ops.a.as<T>().data(),
          ops.b.as<T>().data(),
          ops.c.as<Out>().data()};
}

// A kernel defined by two routines, one per dtype.
class SimpleGemmKernel : public Kernel {
 public:
  using F32 = void (*)(const GemmArgs<float>&);
  using F64 = void (*)(const GemmArgs<double>&);
  SimpleGemmKernel(KernelInfo info, F32 f32, F64 f64, bool needs_plain_b, std::string isa_note)
      : info_(std::move(info)),
        f32_(f32),
        f64_(f64),
        needs_plain_b_(needs_plain_b),
        isa_note_(std::move(isa_note)) {}

  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    Support s = check_gemm_support(info_, problem, threads);
    if (s && needs_plain_b_ && transposes_b(gemm_layout(problem)))
      return Support::no(info_.id() + " streams rows of B and handles only NN and TN layouts");
    return s;
  }
  void prepare(const Problem& problem, Operands& operands, int) override {
    if (problem.dtype == DType::f32)
      a32_ = gemm_args<float>(problem, gemm_view(operands));
    else
      a64_ = gemm_args<double>(problem, gemm_view(operands));
    dtype_ = problem.dtype;
  }
  void run() override {
    if (dtype_ == DType::f32)
      f32_(a32_);
    else
      f64_(a64_);
  }
  std::map<std::string, std::string> notes() const override { return {{"isa", isa_note_}}; }

 private:
  KernelInfo info_;
  F32 f32_;
  F64 f64_;
  bool needs_plain_b_;
  std::string isa_note_;
  DType dtype_ = DType::f32;
  GemmArgs<float> a32_{};
  GemmArgs<double> a64_{};
};

// Which target_clones variant the loader picked for this CPU.
std::string autovectorised_isa_note();

// The compiler-vectorised rungs: on x86-64 an AVX-512 clone beside the baseline's, the loader
// picking the one the CPU runs; on AArch64 the baseline's (NEON) alone (GCC 12 has no
// target_clones there).
#if defined(__x86_64__)
#define RIDGELINE_AUTOVECTORISED_CLONES [[gnu::target_clones("arch=x86-64-v4", "default")]]
#else
#define RIDGELINE_AUTOVECTORISED_CLONES
#endif

}  // namespace ridgeline::cpu
