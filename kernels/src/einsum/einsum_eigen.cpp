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
//
// Every other equation reaches Eigen as TensorFlow's Eigen path runs einsum on the CPU: the
// operands permuted to [batch, m, k] and [batch, k, n], the same rank-2 contraction per batch, the
// result permuted back (cpu.eigen.ttgt: the TTGT kernel's permutes, einsum_ttgt.hpp).
#define EIGEN_USE_THREADS
#include <fmt/format.h>

#include <array>
#include <optional>
#include <unsupported/Eigen/CXX11/Tensor>

#include "../cpu/eigen_isa.hpp"
#include "einsum_kernels.hpp"
#include "einsum_lowering.hpp"
#include "einsum_ttgt.hpp"

namespace ridgeline {

namespace {

// Eigen's thread pool and the device that runs a contraction on it.
class EigenThreads {
 public:
  void start(int threads) {
    device_.reset();
    pool_.emplace(threads);
    device_.emplace(&*pool_, threads);
  }
  const Eigen::ThreadPoolDevice& device() const { return *device_; }

 private:
  std::optional<Eigen::ThreadPool> pool_;
  std::optional<Eigen::ThreadPoolDevice> device_;
};

// Per batch: C (m x n) = A (m x k, or k x m with ta) times B (k x n, or n x k with tb),
// contracted over k; `left` and `right` are the view's operands (B first where the product
// is swapped).
template <typename T>
void eigen_matrices(const StridedView& v, const std::vector<BatchOffsets>& offsets,
                    const void* left_operand, const void* right_operand, void* c_operand,
                    const Eigen::ThreadPoolDevice& device) {
  using Matrix = Eigen::TensorMap<const Eigen::Tensor<T, 2, Eigen::RowMajor>>;
  using Pair = Eigen::IndexPair<Eigen::Index>;
  const std::array<Pair, 1> pair{Pair(v.ta ? 0 : 1, v.tb ? 1 : 0)};
  const T* left = static_cast<const T*>(left_operand);
  const T* right = static_cast<const T*>(right_operand);
  T* c = static_cast<T*>(c_operand);
  for (const BatchOffsets& o : offsets) {
    Matrix a(left + o.a, v.ta ? v.k : v.m, v.ta ? v.m : v.k);
    Matrix b(right + o.b, v.tb ? v.n : v.k, v.tb ? v.k : v.n);
    Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor>>(c + o.c, v.m, v.n).device(device) =
        a.contract(b, pair);
  }
}

void eigen_products(bool f64, const StridedView& v, const std::vector<BatchOffsets>& offsets,
                    const void* left, const void* right, void* c, const EigenThreads& threads) {
  if (f64)
    eigen_matrices<double>(v, offsets, left, right, c, threads.device());
  else
    eigen_matrices<float>(v, offsets, left, right, c, threads.device());
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
                    "contraction (the one this build compiles) needs it; cpu.eigen.ttgt "
                    "permutes it first",
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
    threads_.start(threads);
  }
  void run() override {
    eigen_products(f64_, call_.view, call_.offsets, call_.left, call_.right, call_.c, threads_);
  }
  std::map<std::string, std::string> notes() const override {
    return {{"isa", eigen_isa()}, {"contraction", describe(call_.view)}};
  }
  std::vector<LoweringStep> lowering_steps() const override {
    return {{StepKind::strided_view, "contraction", ""}};
  }

 private:
  KernelInfo info_ = declared_lowering(
      {"einsum",
       "cpu.eigen",
       Device::cpu,
       {DType::f32, DType::f64},
       true,
       fmt::format("Eigen {}.{}.{} Tensor contraction ({}): rank 2 per batch on "
                   "the operands as stored, on Eigen's thread pool",
                   EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION, eigen_isa()),
       KernelRole::vendor},
      LoweringKind::strided);
  StridedCall call_;
  bool f64_ = false;
  EigenThreads threads_;
};

// TTGT's GEMM step as Eigen's rank-2 contraction per batch of the dense permuted operands.
class EigenTtgtGemm final : public TtgtGemm {
 public:
  Support supports(const KernelInfo& info, const Problem& problem, int threads) const override {
    if (Support s = check_common_support(info, problem, threads); !s) return s;
    return gemm_lowering_support(einsum_spec(problem));
  }
  void prepare(DType dtype, const TtgtPlan& plan, int threads) override {
    view_ = dense_view(plan);
    batches_ = dense_batch_offsets(plan);
    f64_ = dtype == DType::f64;
    threads_.start(threads);
  }
  void run(const void* a, const void* b, void* c) override {
    eigen_products(f64_, view_, batches_, a, b, c, threads_);
  }
  std::string describe() const override {
    return fmt::format("Eigen {}.{}.{} rank-2 contraction per batch ({})", EIGEN_WORLD_VERSION,
                       EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION, eigen_isa());
  }

 private:
  StridedView view_;
  std::vector<BatchOffsets> batches_;
  bool f64_ = false;
  EigenThreads threads_;
};

}  // namespace

std::unique_ptr<Kernel> make_einsum_eigen() {
  return std::make_unique<EinsumEigen>();
}

std::unique_ptr<Kernel> make_einsum_eigen_ttgt() {
  return make_einsum_ttgt_with(
      {"einsum",
       "cpu.eigen.ttgt",
       Device::cpu,
       {DType::f32, DType::f64},
       true,
       fmt::format("transpose-GEMM-transpose as TensorFlow's Eigen path runs einsum: the own "
                   "permutes around Eigen {}.{}.{}'s rank-2 Tensor contraction per batch ({}), "
                   "on Eigen's thread pool",
                   EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION, eigen_isa()),
       KernelRole::vendor},
      std::make_unique<EigenTtgtGemm>(), "cpu.eigen");
}

}  // namespace ridgeline
