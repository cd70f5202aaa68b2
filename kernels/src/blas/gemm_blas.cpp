// Vendor BLAS rungs: the same problem through any CBLAS library loaded at run time.
#include <fmt/format.h>

#include "blas_kernel.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {

class BlasGemmKernel : public Kernel {
 public:
  explicit BlasGemmKernel(BlasLibrarySpec spec)
      : spec_(std::move(spec)),
        info_(blas_kernel_info(
            spec_, "gemm", fmt::format("cblas_sgemm/cblas_dgemm from {}", spec_.path.string()))) {}
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (Support s = blas_threads_support(info_, spec_, threads); !s) return s;
    return check_gemm_support(info_, problem, threads);
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    blas_with_threads(lib_, spec_, threads);
    problem_ = problem;
    ops_.emplace(gemm_view(operands));
  }
  void run() override {
    const Shape s = gemm_shape(problem_);
    const int ta = transposes_a(gemm_layout(problem_)) ? kCblasTrans : kCblasNoTrans;
    const int tb = transposes_b(gemm_layout(problem_)) ? kCblasTrans : kCblasNoTrans;
    const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
    const int lda = static_cast<int>(lda_of(problem_)), ldb = static_cast<int>(ldb_of(problem_));
    if (problem_.dtype == DType::f32)
      lib_->sgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0f, ops_->a.as<float>().data(), lda,
                    ops_->b.as<float>().data(), ldb, 0.0f, ops_->c.as<float>().data(), n);
    else
      lib_->dgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0, ops_->a.as<double>().data(), lda,
                    ops_->b.as<double>().data(), ldb, 0.0, ops_->c.as<double>().data(), n);
  }
  std::map<std::string, std::string> notes() const override {
    std::map<std::string, std::string> n{{"library", spec_.path.string()}};
    if (lib_) {
      if (!lib_->version().empty()) n["version"] = lib_->version();
      if (!lib_->kernel_set().empty())
        n["kernels"] = describe_kernel_set(lib_->version(), lib_->kernel_set());
      n["thread_setter"] = lib_->thread_setter().empty() ? "none" : lib_->thread_setter();
    }
    return n;
  }

 private:
  BlasLibrarySpec spec_;
  KernelInfo info_;
  std::unique_ptr<BlasLibrary> lib_;
  Problem problem_;
  std::optional<GemmOperands> ops_;
};

}  // namespace

std::unique_ptr<Kernel> make_blas_gemm(const BlasLibrarySpec& spec) {
  return std::make_unique<BlasGemmKernel>(spec);
}

}  // namespace ridgeline
