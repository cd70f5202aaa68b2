// Vendor BLAS rungs: the same problem through any CBLAS library loaded at run time; bf16 and
// int8 where the library exports a GEMM for them (MKL), found by name.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "blas_kernel.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {

// Signed A times signed B through cblas_gemm_s8u8s32, whose row-major A is unsigned: A + 128
// (each byte's sign bit flipped) times B is A B plus 128 times each column's sum of B, which
// its row offset co (one value per column of C) takes back: co[j] = -128 sum_k op(B)[k][j].
// Its own A offset (ao = -128) would do the same inside the call, at about half the speed
// (MKL 2025.3 on the Emerald Rapids VM, n = 2048; docs/adding-a-blas-provider.md).
constexpr std::int64_t kBlasI8Shift = 128;

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
    if (problem.dtype == DType::i8) {  // the buffers run() fills on every call
      a_unsigned_ = OperandBuffer(DType::i8, ops_->a.size());
      column_sums_.assign(static_cast<std::size_t>(gemm_shape(problem).n), 0);
      column_offsets_.assign(column_sums_.size(), 0);
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
      case DType::i8:
        signed_to_unsigned_operands();
        lib_->gemm_s8u8s32()(kCblasRowMajor, ta, tb, kCblasRowOffset, m, n, k, 1.0f,
                             a_unsigned_.raw(), lda, 0, ops_->b.raw(), ldb, 0, 0.0f,
                             ops_->c.as<std::int32_t>().data(), n, column_offsets_.data());
        break;
      default:
        lib_->dgemm()(kCblasRowMajor, ta, tb, m, n, k, 1.0, ops_->a.as<double>().data(), lda,
                      ops_->b.as<double>().data(), ldb, 0.0, ops_->c.as<double>().data(), n);
    }
  }
  // A BLAS does not say which unit one call ran on; MKL names the instructions it dispatches
  // to on this CPU, and where those include AMX its bf16 and int8 GEMMs are taken to run on
  // the tiles (the notes say it is inferred).
  ComputeUnit compute_unit(const Problem& problem) const override {
    return runs_on_amx(problem.dtype) ? ComputeUnit::matrix : ComputeUnit::vector;
  }
  std::map<std::string, std::string> notes() const override {
    std::map<std::string, std::string> n{{"library", spec_.path.string()}};
    if (runs_on_amx(problem_.dtype))
      n["compute_unit"] =
          "matrix (inferred: the library dispatches to AMX on this CPU; it does not say which "
          "unit a call ran on)";
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
            "in every call, timed: A + 128 into the kernel's own buffer ({} takes row-major A "
            "unsigned, B signed) and -128 x each column's sum of B as its row offset, which "
            "makes the product the signed one; one pass over A and one over B besides MKL's",
            lib_->gemm_s8u8s32_symbol());
      }
    }
    return n;
  }

 private:
  bool runs_on_amx(DType dtype) const {
    return (dtype == DType::bf16 || dtype == DType::i8) && lib_ &&
           lib_->kernel_set().find("AMX") != std::string::npos;
  }
  // int8: A + 128 into a_unsigned_, and -128 times each column's sum of op(B) into
  // column_offsets_, from the case's operands (timed: a user with signed A and B does this).
  void signed_to_unsigned_operands() {
    const auto a = ops_->a.as<std::int8_t>();
    auto* shifted = static_cast<std::uint8_t*>(a_unsigned_.raw());
    for (std::size_t i = 0; i < a.size(); ++i)
      shifted[i] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(a[i]) ^ 0x80u);
    const Shape s = gemm_shape(problem_);
    const std::int8_t* b = ops_->b.as<std::int8_t>().data();
    const std::int64_t ldb = ldb_of(problem_);
    // In 64 bits, stored modulo 2^32 as MKL's own int32 sums wrap: exact wherever C fits.
    std::vector<std::int64_t>& sums = column_sums_;
    if (transposes_b(gemm_layout(problem_))) {  // B is n x k: a sum along each row
      for (std::int64_t j = 0; j < s.n; ++j) {
        std::int64_t sum = 0;
        for (std::int64_t p = 0; p < s.k; ++p) sum += b[j * ldb + p];
        sums[static_cast<std::size_t>(j)] = sum;
      }
    } else {  // B is k x n: its rows added, n wide
      std::fill(sums.begin(), sums.end(), 0);
      for (std::int64_t p = 0; p < s.k; ++p)
        for (std::int64_t j = 0; j < s.n; ++j) sums[static_cast<std::size_t>(j)] += b[p * ldb + j];
    }
    for (std::size_t j = 0; j < sums.size(); ++j)
      column_offsets_[j] = static_cast<std::int32_t>(-kBlasI8Shift * sums[j]);
  }

  BlasLibrarySpec spec_;
  KernelInfo info_;
  std::unique_ptr<BlasLibrary> lib_;
  Problem problem_;
  std::optional<GemmOperands> ops_;
  OperandBuffer a_unsigned_;                  // int8: A + 128, read as unsigned
  std::vector<std::int64_t> column_sums_;     // int8: each column's sum of op(B)
  std::vector<std::int32_t> column_offsets_;  // int8: -128 x those, MKL's row offset
};

}  // namespace

std::unique_ptr<Kernel> make_blas_gemm(const BlasLibrarySpec& spec) {
  return std::make_unique<BlasGemmKernel>(spec);
}

}  // namespace ridgeline
