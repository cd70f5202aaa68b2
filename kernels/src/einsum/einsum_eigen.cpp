// einsum through Eigen's Tensor module, written as a C++ user writes it: per batch, A and B
// mapped as rank-2 tensors (TensorMap, no copy), A.contract(B, pair) assigned straight into
// C's batch, on Eigen's thread pool. Eigen's ranks are compile-time, each (rank of A, rank of
// B, contracted indices) its own instantiation of a large template: this build has the
// rank-2 one, which applies where each batch's A, B and C are dense matrices (the strided
// view with each operand's row length as its leading dimension). Elsewhere supports() says
// which operand is not one. Padding the ranks with extent-1 indices would serve every
// equation from one instantiation, but Eigen's index arithmetic then runs over the padding:
// on a 512^3 matmul (Zen 3, f32, 1 thread) that ran at 0.4x the rank-2 form, a number about
// our wrapper rather than Eigen, so it is not offered. No added bytes.
#define EIGEN_USE_THREADS
#include <fmt/format.h>

#include <array>
#include <optional>
#include <unsupported/Eigen/CXX11/Tensor>

#include "../cpu/eigen_isa.hpp"
#include "einsum_kernels.hpp"
#include "einsum_lowering.hpp"

namespace ridgeline {

namespace {

// Per batch: C (m x n) = A (m x k, or k x m with ta) times B (k x n, or n x k with tb),
// contracted over k; the strided call's operands (B first where the product is swapped).
template <typename T>
void eigen_matrices(const StridedCall& call, const Eigen::ThreadPoolDevice& device) {
  const StridedView& v = call.view;
  using Matrix = Eigen::TensorMap<const Eigen::Tensor<T, 2, Eigen::RowMajor>>;
  using Pair = Eigen::IndexPair<Eigen::Index>;
  const std::array<Pair, 1> pair{Pair(v.ta ? 0 : 1, v.tb ? 1 : 0)};
  const T* left = static_cast<const T*>(call.left);
  const T* right = static_cast<const T*>(call.right);
  T* c = static_cast<T*>(call.c);
  for (const BatchOffsets& o : call.offsets) {
    Matrix a(left + o.a, v.ta ? v.k : v.m, v.ta ? v.m : v.k);
    Matrix b(right + o.b, v.tb ? v.n : v.k, v.tb ? v.k : v.n);
    Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor>>(c + o.c, v.m, v.n).device(device) =
        a.contract(b, pair);
  }
}

// A matrix of `rows` rows of `length` elements stored `ld` apart is dense where `ld` is the
// length or there is only one row.
bool dense(std::int64_t rows, std::int64_t length, std::int64_t ld) {
  return ld == length || rows == 1;
}

// The rank-2 form's view, or why an operand is not a dense matrix per batch.
Support matrices_view(const EinsumSpec& s, StridedView& v) {
  if (Support st = strided_view(s, v); !st) return st;
  const std::string& left = v.swapped ? s.b : s.a;
  const std::string& right = v.swapped ? s.a : s.b;
  const auto not_dense = [](const char* which, const std::string& indices) {
    return Support::no(
        fmt::format("{} ({}) is not a dense matrix per batch: Eigen's rank-2 "
                    "contraction (the one this build compiles) needs it",
                    which, indices));
  };
  if (!dense(v.ta ? v.k : v.m, v.ta ? v.m : v.k, v.lda))
    return not_dense(v.swapped ? "B" : "A", left);
  if (!dense(v.tb ? v.n : v.k, v.tb ? v.k : v.n, v.ldb))
    return not_dense(v.swapped ? "A" : "B", right);
  return Support::yes();
}

class EinsumEigen final : public Kernel {
 public:
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (Support s = check_common_support(info_, problem, threads); !s) return s;
    const EinsumSpec spec = einsum_spec(problem);
    if (Support s = gemm_lowering_support(spec); !s) return s;
    StridedView v;
    return matrices_view(spec, v);
  }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    call_ = strided_call(problem, operands);
    f64_ = problem.dtype == DType::f64;
    device_.reset();
    pool_.emplace(threads);
    device_.emplace(&*pool_, threads);
  }
  void run() override {
    if (f64_)
      eigen_matrices<double>(call_, *device_);
    else
      eigen_matrices<float>(call_, *device_);
  }
  std::map<std::string, std::string> notes() const override {
    return {{"isa", eigen_isa()}, {"contraction", describe(call_.view)}};
  }

 private:
  KernelInfo info_{
      "einsum",
      "cpu.eigen",
      Device::cpu,
      {DType::f32, DType::f64},
      true,
      fmt::format("Eigen {}.{}.{} Tensor contraction ({}): rank 2 per batch on "
                  "the operands as stored, on Eigen's thread pool",
                  EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION, eigen_isa()),
      KernelRole::vendor};
  StridedCall call_;
  bool f64_ = false;
  std::optional<Eigen::ThreadPool> pool_;
  std::optional<Eigen::ThreadPoolDevice> device_;
};

}  // namespace

std::unique_ptr<Kernel> make_einsum_eigen() {
  return std::make_unique<EinsumEigen>();
}

}  // namespace ridgeline
