// Vendor BLAS rungs: the same problem through any CBLAS library loaded at run time; bf16 and
// int8 where the library exports a GEMM for them (MKL), found by name.
#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>

#include "blas_kernel.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {

// The row-major A that cblas_gemm_s8u8s32 reads as unsigned: each signed byte plus 128 (its
// sign bit flipped), which its offset of -128 takes back, so it computes the signed product.
constexpr std::int8_t kBlasI8Offset = -128;

std::string blas_gemm_description(const BlasLibrarySpec& spec) {
  std::string what = "cblas_sgemm/cblas_dgemm";
  if (has_low_precision_gemm(spec, DType::bf16)) what += ", " + *spec.bf16_gemm;
  if (has_low_precision_gemm(spec, DType::i8)) what += ", " + *spec.i8_gemm;
  return fmt::format("{} from {}", what, spec.path.string());
}

KernelInfo blas_gemm_info(const BlasLibrarySpec& spec) {
  KernelInfo info = blas_kernel_info(spec, "gemm", blas_gemm_description(spec));
  for (DType dtype : {DType::bf16, DType::i8})
    if (has_low_precision_gemm(spec, dtype)) info.dtypes.push_back(dtype);
  return info;
}

// Why a bf16 or int8 problem does not run on this library: which entry points it lacks.
Support blas_low_precision_support(const KernelInfo& info, const BlasLibrarySpec& spec,
                                   DType dtype) {
  if (dtype != DType::bf16 && dtype != DType::i8) return Support::yes();
  if (has_low_precision_gemm(spec, dtype)) return Support::yes();
  return Support::no(info.id() + ": " + describe_low_precision_gemm(spec, dtype));
}

class BlasGemmKernel : public Kernel {
 public:
  explicit BlasGemmKernel(BlasLibrarySpec spec)
      : spec_(std::move(spec)), info_(blas_gemm_info(spec_)) {}
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (Support s = blas_threads_support(info_, spec_, threads); !s) return s;
    if (problem.op == info_.op)
      if (Support s = blas_low_precision_support(info_, spec_, problem.dtype); !s) return s;
    return check_gemm_support(info_, problem, threads);
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    blas_with_threads(lib_, spec_, threads);
    if ((problem.dtype == DType::bf16 && !lib_->gemm_bf16()) ||
        (problem.dtype == DType::i8 && !lib_->gemm_s8u8s32()))
      throw std::runtime_error(fmt::format("{} has no {} GEMM (its probe said otherwise)",
                                           spec_.path.string(), to_string(problem.dtype)));
    problem_ = problem;
    ops_.emplace(gemm_view(operands));
    if (problem.dtype == DType::i8) {
      // Row-major, cblas_gemm_s8u8s32's A is unsigned: a copy of A with 128 added, made here,
      // untimed (notes() says so).
      const auto a = ops_->a.as<std::int8_t>();
      if (a_unsigned_.size() != a.size()) a_unsigned_ = OperandBuffer(DType::i8, a.size());
      auto* out = static_cast<std::uint8_t*>(a_unsigned_.raw());
      for (std::size_t i = 0; i < a.size(); ++i)
        out[i] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(a[i]) ^ 0x80u);
    }
  }
  void run() override {
    const Shape s = gemm_shape(problem_);
    const int ta = transposes_a(gemm_layout(problem_)) ? kCblasTrans : kCblasNoTrans;
    const int tb = transposes_b(gemm_layout(problem_)) ? kCblasTrans : kCblasNoTrans;
    const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
    const int lda = static_cast<int>(lda_of(problem_)), ldb = static_cast<int>(ldb_of(problem_));
    switch (problem_.dtype) {
      case DType::f32:
        lib_->sgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0f, ops_->a.as<float>().data(), lda,
                      ops_->b.as<float>().data(), ldb, 0.0f, ops_->c.as<float>().data(), n);
        break;
      case DType::bf16:
        lib_->gemm_bf16()(kCblasRowMajor, ta, tb, m, n, k, 1.0f, ops_->a.as<std::uint16_t>().data(),
                          lda, ops_->b.as<std::uint16_t>().data(), ldb, 0.0f,
                          ops_->c.as<float>().data(), n);
        break;
      case DType::i8: {
        const std::int32_t no_offset = 0;
        lib_->gemm_s8u8s32()(kCblasRowMajor, ta, tb, kCblasFixOffset, m, n, k, 1.0f,
                             a_unsigned_.raw(), lda, kBlasI8Offset, ops_->b.raw(), ldb, 0, 0.0f,
                             ops_->c.as<std::int32_t>().data(), n, &no_offset);
        break;
      }
      default:
        lib_->dgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0, ops_->a.as<double>().data(), lda,
                      ops_->b.as<double>().data(), ldb, 0.0, ops_->c.as<double>().data(), n);
    }
  }
  std::map<std::string, std::string> notes() const override {
    std::map<std::string, std::string> n{{"library", spec_.path.string()}};
    if (lib_) {
      if (!lib_->version().empty()) n["version"] = lib_->version();
      if (!lib_->kernel_set().empty())
        n["kernels"] = describe_kernel_set(lib_->version(), lib_->kernel_set());
      n["thread_setter"] = lib_->thread_setter().empty() ? "none" : lib_->thread_setter();
      if (!lib_->threading().empty()) n["threading"] = lib_->threading();
      if (problem_.dtype == DType::bf16) n["entry_point"] = lib_->gemm_bf16_symbol();
      if (problem_.dtype == DType::i8) {
        n["entry_point"] = lib_->gemm_s8u8s32_symbol();
        n["conversion"] = fmt::format(
            "A converted to unsigned (each byte + 128) in prepare(), untimed, into the kernel's "
            "own buffer: {} takes row-major A unsigned and B signed, and its A offset of -128 "
            "makes the product the signed one; one pass over m x k bytes not in the time, and "
            "cache=cold does not flush that copy",
            lib_->gemm_s8u8s32_symbol());
      }
    }
    return n;
  }

 private:
  BlasLibrarySpec spec_;
  KernelInfo info_;
  std::unique_ptr<BlasLibrary> lib_;
  Problem problem_;
  std::optional<GemmOperands> ops_;
  OperandBuffer a_unsigned_;  // int8 only: A + 128, read by the library as unsigned
};

}  // namespace

std::unique_ptr<Kernel> make_blas_gemm(const BlasLibrarySpec& spec) {
  return std::make_unique<BlasGemmKernel>(spec);
}

}  // namespace ridgeline
