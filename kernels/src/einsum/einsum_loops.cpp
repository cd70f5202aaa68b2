// einsum's bottom rung: the direct loop nest a user writes first. Over the output's
// elements (OpenMP, static), each a sum over the contracted indices by their strides, the
// last contracted index innermost: a vectorised dot product where both operands have it
// at stride 1, a strided one otherwise. With nothing contracted (an outer or elementwise
// product), over C's rows instead, each a vectorised product along C's last index. No
// copy, no blocking: what "just loops" cost.
#include <omp.h>

#include <vector>

#include "einsum_kernels.hpp"
#include "einsum_lowering.hpp"
#include "einsum_strides.hpp"
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

namespace {

class EinsumLoops final : public Kernel {
 public:
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    return check_common_support(info_, problem, threads);
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    strides_ = einsum_strides(einsum_spec(problem));
    threads_ = threads;
    f64_ = problem.dtype == DType::f64;
    a_ = operands.at("A").raw();
    b_ = operands.at("B").raw();
    c_ = operands.at("C").raw();
  }
  void run() override {
    if (f64_)
      run_as<double>();
    else
      run_as<float>();
  }
  std::map<std::string, std::string> notes() const override {
    const bool unit =
        !strides_.sum_a.empty() && strides_.sum_a.back() == 1 && strides_.sum_b.back() == 1;
    return {{"inner loop", strides_.sum_a.empty()
                               ? "nothing contracted: a product along C's last index, "
                                 "vectorised"
                           : unit ? "stride 1 in A and B: vectorised dot product"
                                  : "strided"}};
  }
  std::vector<LoweringStep> lowering_steps() const override {
    return {{StepKind::loop_nest, "inner loop", ""}};
  }

 private:
  template <typename T>
  void run_as() const {
    const T* a = static_cast<const T*>(a_);
    const T* b = static_cast<const T*>(b_);
    T* c = static_cast<T*>(c_);
    const EinsumStrides& st = strides_;
    if (st.sum_extent.empty()) return products_along_rows(a, b, c);
#pragma omp parallel num_threads(threads_)
    {
      std::vector<std::int64_t> at;
#pragma omp for schedule(static)
      for (std::int64_t o = 0; o < st.outputs; ++o) {
        std::int64_t a0 = 0, b0 = 0;
        output_offsets(st, o, a0, b0);
        T acc = 0;
        for_each_run(st, a0, b0, at,
                     [&](std::int64_t ia, std::int64_t ib, std::int64_t n, std::int64_t sa,
                         std::int64_t sb) {
                       if (sa == 1 && sb == 1) {
                         const T* x = a + ia;
                         const T* y = b + ib;
#pragma omp simd reduction(+ : acc)
                         for (std::int64_t j = 0; j < n; ++j) acc += x[j] * y[j];
                       } else {
                         for (std::int64_t j = 0; j < n; ++j)
                           acc += a[ia + j * sa] * b[ib + j * sb];
                       }
                     });
        c[o] = acc;
      }
    }
  }

  // Nothing contracted: each row of C (its last index) is A's and B's elements along that
  // index multiplied, one of them usually fixed (stride 0: an outer product's row).
  template <typename T>
  void products_along_rows(const T* a, const T* b, T* c) const {
    const EinsumStrides& st = strides_;
    const std::int64_t n = st.out_extent.empty() ? 1 : st.out_extent.back();
    const std::int64_t sa = st.out_extent.empty() ? 0 : st.out_a.back();
    const std::int64_t sb = st.out_extent.empty() ? 0 : st.out_b.back();
    const std::int64_t rows = st.outputs / n;
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (std::int64_t r = 0; r < rows; ++r) {
      std::int64_t a0 = 0, b0 = 0;
      output_offsets(st, r * n, a0, b0);
      T* out = c + r * n;
      const T* x = a + a0;
      const T* y = b + b0;
      if (sa == 0 && sb == 1) {
#pragma omp simd
        for (std::int64_t j = 0; j < n; ++j) out[j] = x[0] * y[j];
      } else if (sa == 1 && sb == 0) {
#pragma omp simd
        for (std::int64_t j = 0; j < n; ++j) out[j] = x[j] * y[0];
      } else if (sa == 1 && sb == 1) {
#pragma omp simd
        for (std::int64_t j = 0; j < n; ++j) out[j] = x[j] * y[j];
      } else {
        for (std::int64_t j = 0; j < n; ++j) out[j] = x[j * sa] * y[j * sb];
      }
    }
  }

  KernelInfo info_ = declared_lowering(
      {"einsum",
       "cpu.loops",
       Device::cpu,
       {DType::f32, DType::f64},
       true,
       "direct loop nest over the output, the contracted indices by their strides "
       "(innermost: the last contracted index, vectorised where stride 1 in both); "
       "OpenMP over outputs",
       KernelRole::ladder},
      LoweringKind::loop_nest);
  EinsumStrides strides_;
  int threads_ = 1;
  bool f64_ = false;
  const void* a_ = nullptr;
  const void* b_ = nullptr;
  void* c_ = nullptr;
};

}  // namespace

std::unique_ptr<Kernel> make_einsum_loops() {
  return std::make_unique<EinsumLoops>();
}

}  // namespace ridgeline
