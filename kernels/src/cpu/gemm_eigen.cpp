// Rung 6: Eigen 3.4's own GEMM (compiled in, header-only), for reference against a
// well-known C++ library. Threads via Eigen's OpenMP support.
#include <fmt/format.h>

#include <Eigen/Core>

#include "eigen_isa.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {

template <typename T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
void eigen_gemm(const Problem& p, GemmOperands& ops) {
  const Shape s = gemm_shape(p);
  const bool ta = transposes_a(gemm_layout(p)), tb = transposes_b(gemm_layout(p));
  Eigen::Map<const RowMajor<T>> a(ops.a.as<T>().data(), ta ? s.k : s.m, ta ? s.m : s.k);
  Eigen::Map<const RowMajor<T>> b(ops.b.as<T>().data(), tb ? s.n : s.k, tb ? s.k : s.n);
  Eigen::Map<RowMajor<T>> c(ops.c.as<T>().data(), s.m, s.n);
  if (!ta && !tb)
    c.noalias() = a * b;
  else if (!ta && tb)
    c.noalias() = a * b.transpose();
  else if (ta && !tb)
    c.noalias() = a.transpose() * b;
  else
    c.noalias() = a.transpose() * b.transpose();
}

class EigenGemmKernel : public Kernel {
 public:
  EigenGemmKernel()
      : info_{"gemm",
              "cpu.eigen",
              Device::cpu,
              {DType::f32, DType::f64},
              true,
              fmt::format("Eigen {}.{}.{} GEMM ({}), every layout", EIGEN_WORLD_VERSION,
                          EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION, eigen_isa()),
              KernelRole::vendor} {}
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    return check_gemm_support(info_, problem, threads);
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    problem_ = problem;
    ops_.emplace(gemm_view(operands));
    Eigen::setNbThreads(threads);
  }
  void run() override {
    if (problem_.dtype == DType::f32)
      eigen_gemm<float>(problem_, *ops_);
    else
      eigen_gemm<double>(problem_, *ops_);
  }
  std::map<std::string, std::string> notes() const override { return {{"isa", eigen_isa()}}; }

 private:
  KernelInfo info_;
  Problem problem_;
  std::optional<GemmOperands> ops_;
};

}  // namespace

std::unique_ptr<Kernel> make_eigen_gemm() {
  return std::make_unique<EigenGemmKernel>();
}

}  // namespace ridgeline
