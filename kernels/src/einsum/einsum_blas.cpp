// einsum through a vendor BLAS, two ways per library:
//  - blas.<name>, without copies: the strided lowering's view (einsum_lowering.hpp) handed
//    to cblas_sgemm/cblas_dgemm once per batch, the leading dimensions and transposes as
//    BLAS takes them, so OpenBLAS, BLIS and the reference BLAS each run every contraction
//    the index order allows (elsewhere supports() names the operand that would need a copy);
//  - blas.<name>.ttgt, as a framework runs it: the TTGT kernel's permutes (einsum_ttgt.hpp)
//    around cblas_sgemm/cblas_dgemm per batch on the dense permuted operands.
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "../blas/blas_kernel.hpp"
#include "einsum_kernels.hpp"
#include "einsum_lowering.hpp"
#include "einsum_ttgt.hpp"

namespace ridgeline {

namespace {

// The first dimension beyond CBLAS's int, as `info`'s reason; yes where none is.
Support fits_cblas_int(const KernelInfo& info, std::initializer_list<std::int64_t> dims) {
  for (std::int64_t d : dims)
    if (d > INT_MAX)
      return Support::no(fmt::format("{}: a dimension of {} exceeds CBLAS's int", info.id(), d));
  return Support::yes();
}

// The GEMM of `v` once per batch through the library, each batch at its offsets in the left
// and right operands and C. BLAS asks a leading dimension of at least the row length even
// where a matrix has one row (an outer product's k = 1): there the stride is never used, so
// it is raised.
void cblas_products(const BlasLibrary& lib, bool f64, const StridedView& v, const void* left,
                    const void* right, void* c, const std::vector<BatchOffsets>& batches) {
  const int m = static_cast<int>(v.m), n = static_cast<int>(v.n), k = static_cast<int>(v.k);
  const int lda = static_cast<int>(std::max(v.lda, v.ta ? v.m : v.k));
  const int ldb = static_cast<int>(std::max(v.ldb, v.tb ? v.k : v.n));
  const int ta = v.ta ? kCblasTrans : kCblasNoTrans, tb = v.tb ? kCblasTrans : kCblasNoTrans;
  for (const BatchOffsets& o : batches) {
    if (f64)
      lib.dgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0, static_cast<const double*>(left) + o.a, lda,
                  static_cast<const double*>(right) + o.b, ldb, 0.0, static_cast<double*>(c) + o.c,
                  n);
    else
      lib.sgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0f, static_cast<const float*>(left) + o.a, lda,
                  static_cast<const float*>(right) + o.b, ldb, 0.0f, static_cast<float*>(c) + o.c,
                  n);
  }
}

class BlasEinsum final : public Kernel {
 public:
  explicit BlasEinsum(BlasLibrarySpec spec)
      : spec_(std::move(spec)),
        info_(declared_lowering(
            blas_kernel_info(
                spec_, "einsum",
                fmt::format("no copies: cblas_sgemm/cblas_dgemm per batch on the operands as "
                            "stored (leading dimensions, transposes), from {}",
                            spec_.path.string())),
            LoweringKind::strided)) {}
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (Support s = blas_threads_support(info_, spec_, threads); !s) return s;
    if (Support s = check_common_support(info_, problem, threads); !s) return s;
    StridedView v;
    if (Support s = strided_view(einsum_spec(problem), v); !s) return s;
    return fits_cblas_int(info_, {v.m, v.n, v.k, v.lda, v.ldb, v.ta ? v.m : v.k, v.tb ? v.k : v.n});
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    blas_with_threads(lib_, spec_, threads);
    call_ = strided_call(problem, operands);
    f64_ = problem.dtype == DType::f64;
  }
  void run() override {
    cblas_products(*lib_, f64_, call_.view, call_.left, call_.right, call_.c, call_.offsets);
  }
  std::map<std::string, std::string> notes() const override {
    std::map<std::string, std::string> n{{"library", spec_.path.string()},
                                         {"gemm", describe(call_.view)}};
    if (lib_ && !lib_->version().empty()) n["version"] = lib_->version();
    return n;
  }
  std::vector<LoweringStep> lowering_steps() const override {
    return {{StepKind::strided_view, "gemm", ""}};
  }

 private:
  BlasLibrarySpec spec_;
  KernelInfo info_;
  std::unique_ptr<BlasLibrary> lib_;
  StridedCall call_;
  bool f64_ = false;
};

// TTGT's GEMM step through the library: C[i] = A[i] B[i], each dense row-major.
class BlasTtgtGemm final : public TtgtGemm {
 public:
  explicit BlasTtgtGemm(BlasLibrarySpec spec) : spec_(std::move(spec)) {}
  Support supports(const KernelInfo& info, const Problem& problem, int threads) const override {
    if (Support s = blas_threads_support(info, spec_, threads); !s) return s;
    if (Support s = check_common_support(info, problem, threads); !s) return s;
    const EinsumSpec spec = einsum_spec(problem);
    if (Support s = gemm_lowering_support(spec); !s) return s;
    const TtgtPlan p = ttgt_plan(spec);
    return fits_cblas_int(info, {p.m, p.n, p.k});
  }
  void prepare(DType dtype, const TtgtPlan& plan, int threads) override {
    blas_with_threads(lib_, spec_, threads);
    gemm_ = dense_view(plan);
    batches_ = dense_batch_offsets(plan);
    f64_ = dtype == DType::f64;
  }
  void run(const void* a, const void* b, void* c) override {
    cblas_products(*lib_, f64_, gemm_, a, b, c, batches_);
  }
  std::string describe() const override {
    const std::string version = lib_ ? lib_->version() : "";
    return fmt::format("{} from {}{}", f64_ ? "cblas_dgemm" : "cblas_sgemm", spec_.path.string(),
                       version.empty() ? "" : " (" + version + ")");
  }

 private:
  BlasLibrarySpec spec_;
  std::unique_ptr<BlasLibrary> lib_;
  StridedView gemm_;  // dense_view of the plan
  std::vector<BatchOffsets> batches_;
  bool f64_ = false;
};

}  // namespace

std::unique_ptr<Kernel> make_blas_einsum(const BlasLibrarySpec& spec) {
  return std::make_unique<BlasEinsum>(spec);
}

std::unique_ptr<Kernel> make_blas_einsum_ttgt(const BlasLibrarySpec& spec) {
  KernelInfo info = blas_kernel_info(
      spec, "einsum",
      fmt::format("transpose-GEMM-transpose as a framework runs it: the own permutes around "
                  "cblas_sgemm/cblas_dgemm per batch, from {}",
                  spec.path.string()));
  std::string direct = info.backend;
  info.backend += ".ttgt";
  return make_einsum_ttgt_with(std::move(info), std::make_unique<BlasTtgtGemm>(spec),
                               std::move(direct));
}

}  // namespace ridgeline
