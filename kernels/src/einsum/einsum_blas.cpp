// einsum through a vendor BLAS without copies: the strided lowering's view
// (einsum_lowering.hpp) handed to cblas_sgemm/cblas_dgemm once per batch, the leading
// dimensions and transposes as BLAS takes them, so OpenBLAS, BLIS and the reference BLAS
// each run every contraction the index order allows (elsewhere supports() names the
// operand that would need a copy).
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "einsum_kernels.hpp"
#include "einsum_lowering.hpp"
#include "ridgeline/kernels/blas_provider.hpp"

namespace ridgeline {

namespace {

class BlasEinsum final : public Kernel {
 public:
  explicit BlasEinsum(BlasLibrarySpec spec) : spec_(std::move(spec)) {
    info_ = {"einsum",
             "blas." + spec_.name,
             Device::cpu,
             {DType::f32, DType::f64},
             spec_.has_thread_setter.value_or(spec_.name != "refblas"),
             fmt::format("no copies: cblas_sgemm/cblas_dgemm per batch on the operands as "
                         "stored (leading dimensions, transposes), from {}",
                         spec_.path.string()),
             KernelRole::vendor,
             std::string(kBlasFamily)};
  }
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (threads > 1 && !info_.threaded)
      return Support::no(fmt::format("{} ({}) has no thread-count setter Ridgeline knows",
                                     info_.id(), spec_.path.string()));
    if (Support s = check_common_support(info_, problem, threads); !s) return s;
    StridedView v;
    if (Support s = strided_view(einsum_spec(problem), v); !s) return s;
    for (std::int64_t d : {v.m, v.n, v.k, v.lda, v.ldb, v.ta ? v.m : v.k, v.tb ? v.k : v.n})
      if (d > INT_MAX)
        return Support::no(fmt::format("{}: a dimension of {} exceeds CBLAS's int", info_.id(), d));
    return Support::yes();
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    if (!lib_) lib_ = load_blas_library(spec_);
    if (!lib_->set_threads(threads) && threads > 1)
      throw std::runtime_error(fmt::format("{} has no thread-count setter; cannot run {} threads",
                                           spec_.path.string(), threads));
    strided_view(einsum_spec(problem), view_);
    f64_ = problem.dtype == DType::f64;
    left_ = operands.at(view_.swapped ? "B" : "A").raw();
    right_ = operands.at(view_.swapped ? "A" : "B").raw();
    c_ = operands.at("C").raw();
    offsets_ = batch_offsets(view_);
  }
  void run() override {
    // BLAS asks a leading dimension of at least the row length even where a matrix has one
    // row (an outer product's k = 1): there the stride is never used, so it is raised.
    const int m = static_cast<int>(view_.m), n = static_cast<int>(view_.n),
              k = static_cast<int>(view_.k);
    const int lda = static_cast<int>(std::max(view_.lda, view_.ta ? view_.m : view_.k));
    const int ldb = static_cast<int>(std::max(view_.ldb, view_.tb ? view_.k : view_.n));
    const int ta = view_.ta ? kCblasTrans : kCblasNoTrans,
              tb = view_.tb ? kCblasTrans : kCblasNoTrans;
    for (const BatchOffsets& o : offsets_) {
      if (f64_)
        lib_->dgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0, static_cast<const double*>(left_) + o.a,
                      lda, static_cast<const double*>(right_) + o.b, ldb, 0.0,
                      static_cast<double*>(c_) + o.c, n);
      else
        lib_->sgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0f, static_cast<const float*>(left_) + o.a,
                      lda, static_cast<const float*>(right_) + o.b, ldb, 0.0f,
                      static_cast<float*>(c_) + o.c, n);
    }
  }
  std::map<std::string, std::string> notes() const override {
    std::map<std::string, std::string> n{{"library", spec_.path.string()},
                                         {"gemm", describe(view_)}};
    if (lib_ && !lib_->version().empty()) n["version"] = lib_->version();
    return n;
  }

 private:
  BlasLibrarySpec spec_;
  KernelInfo info_;
  std::unique_ptr<BlasLibrary> lib_;
  StridedView view_;
  bool f64_ = false;
  const void* left_ = nullptr;
  const void* right_ = nullptr;
  void* c_ = nullptr;
  std::vector<BatchOffsets> offsets_;
};

}  // namespace

std::unique_ptr<Kernel> make_blas_einsum(const BlasLibrarySpec& spec) {
  return std::make_unique<BlasEinsum>(spec);
}

}  // namespace ridgeline
