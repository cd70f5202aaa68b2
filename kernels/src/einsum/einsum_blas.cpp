// einsum through a vendor BLAS without copies: the strided lowering's view
// (einsum_lowering.hpp) handed to cblas_sgemm/cblas_dgemm once per batch, the leading
// dimensions and transposes as BLAS takes them, so OpenBLAS, BLIS and the reference BLAS
// each run every contraction the index order allows (elsewhere supports() names the
// operand that would need a copy).
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "../blas/blas_kernel.hpp"
#include "einsum_kernels.hpp"
#include "einsum_lowering.hpp"

namespace ridgeline {

namespace {

class BlasEinsum final : public Kernel {
 public:
  explicit BlasEinsum(BlasLibrarySpec spec)
      : spec_(std::move(spec)),
        info_(blas_kernel_info(
            spec_, "einsum",
            fmt::format("no copies: cblas_sgemm/cblas_dgemm per batch on the operands as stored "
                        "(leading dimensions, transposes), from {}",
                        spec_.path.string()))) {}
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (Support s = blas_threads_support(info_, spec_, threads); !s) return s;
    if (Support s = check_common_support(info_, problem, threads); !s) return s;
    StridedView v;
    if (Support s = strided_view(einsum_spec(problem), v); !s) return s;
    for (std::int64_t d : {v.m, v.n, v.k, v.lda, v.ldb, v.ta ? v.m : v.k, v.tb ? v.k : v.n})
      if (d > INT_MAX)
        return Support::no(fmt::format("{}: a dimension of {} exceeds CBLAS's int", info_.id(), d));
    return Support::yes();
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    blas_with_threads(lib_, spec_, threads);
    call_ = strided_call(problem, operands);
    f64_ = problem.dtype == DType::f64;
  }
  void run() override {
    // BLAS asks a leading dimension of at least the row length even where a matrix has one
    // row (an outer product's k = 1): there the stride is never used, so it is raised.
    const StridedView& v = call_.view;
    const int m = static_cast<int>(v.m), n = static_cast<int>(v.n), k = static_cast<int>(v.k);
    const int lda = static_cast<int>(std::max(v.lda, v.ta ? v.m : v.k));
    const int ldb = static_cast<int>(std::max(v.ldb, v.tb ? v.k : v.n));
    const int ta = v.ta ? kCblasTrans : kCblasNoTrans, tb = v.tb ? kCblasTrans : kCblasNoTrans;
    for (const BatchOffsets& o : call_.offsets) {
      if (f64_)
        lib_->dgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0,
                      static_cast<const double*>(call_.left) + o.a, lda,
                      static_cast<const double*>(call_.right) + o.b, ldb, 0.0,
                      static_cast<double*>(call_.c) + o.c, n);
      else
        lib_->sgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0f,
                      static_cast<const float*>(call_.left) + o.a, lda,
                      static_cast<const float*>(call_.right) + o.b, ldb, 0.0f,
                      static_cast<float*>(call_.c) + o.c, n);
    }
  }
  std::map<std::string, std::string> notes() const override {
    std::map<std::string, std::string> n{{"library", spec_.path.string()},
                                         {"gemm", describe(call_.view)}};
    if (lib_ && !lib_->version().empty()) n["version"] = lib_->version();
    return n;
  }

 private:
  BlasLibrarySpec spec_;
  KernelInfo info_;
  std::unique_ptr<BlasLibrary> lib_;
  StridedCall call_;
  bool f64_ = false;
};

}  // namespace

std::unique_ptr<Kernel> make_blas_einsum(const BlasLibrarySpec& spec) {
  return std::make_unique<BlasEinsum>(spec);
}

}  // namespace ridgeline
