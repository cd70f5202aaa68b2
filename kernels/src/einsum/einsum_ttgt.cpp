// einsum as a framework lowers it: transpose-GEMM-transpose. A permuted to [batch, m, k],
// B to [batch, k, n] (own cache-blocked permute, einsum_permute.hpp), one GEMM per batch
// into [batch, m, n] (the packed GEMM, or a BLAS: einsum_ttgt.hpp), that permuted to C; an
// operand already in its order is used where it lies. The permutes are part of each call, and their
// bytes part of the kernel's work model (each permuted operand written and read back once more);
// each step is lapped, so the report shows the permutes as memory-bound passes of their own.
#include "einsum_ttgt.hpp"

#include <fmt/format.h>

#include "../cpu/packed_gemm.hpp"
#include "einsum_gemm.hpp"
#include "einsum_kernels.hpp"
#include "einsum_permute.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

namespace {

template <typename T>
struct TtgtBuffers {
  packed::AlignedArray<T> a, b, c;
};

// The packed GEMM (the micro-kernel of the CPU's widest ISA) per batch.
class PackedTtgtGemm final : public TtgtGemm {
 public:
  Support supports(const KernelInfo& info, const Problem& problem, int threads) const override {
    return einsum_gemm_support(info, problem, threads);
  }
  void prepare(DType dtype, const TtgtPlan& p, int threads) override {
    batches_ = dense_batch_offsets(p);
    gemm_.prepare(dtype,
                  [&](auto& g) { g.prepare(p.m, p.n, p.k, p.k, p.n, false, false, threads); });
  }
  void run(const void* a, const void* b, void* c) override { gemm_.run(a, b, c, batches_); }
  std::string describe() const override { return gemm_.describe(); }

 private:
  PackedGemmPerBatch gemm_;
  std::vector<BatchOffsets> batches_;
};

class EinsumTtgt final : public Kernel {
 public:
  EinsumTtgt(KernelInfo info, std::unique_ptr<TtgtGemm> gemm, std::string direct)
      : info_(declared_lowering(std::move(info), LoweringKind::ttgt)),
        gemm_(std::move(gemm)),
        direct_(std::move(direct)) {}
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override {
    if (Support s = gemm_->supports(info_, problem, threads); !s) return s;
    if (direct_.empty()) return Support::yes();
    const TtgtPlan p = ttgt_plan(einsum_spec(problem));
    if (p.permute_a || p.permute_b || p.permute_c) return Support::yes();
    return Support::no(
        fmt::format("nothing to permute (A, B and C are already [batch, m, k], [batch, k, n] and "
                    "[batch, m, n]): {} makes the same calls",
                    direct_));
  }
  WorkModel work(const Problem& problem) const override { return ttgt_work(problem); }
  void prepare(const Problem& problem, Operands& operands, int threads) override {
    spec_ = einsum_spec(problem);
    plan_ = ttgt_plan(spec_);
    threads_ = threads;
    f64_ = problem.dtype == DType::f64;
    a_ = operands.at("A").raw();
    b_ = operands.at("B").raw();
    c_ = operands.at("C").raw();
    if (f64_)
      prepare_as(f64_buffers_);
    else
      prepare_as(f32_buffers_);
    gemm_->prepare(problem.dtype, plan_, threads);
  }
  void run() override {
    PassClock::Lap lap(clock_);
    if (f64_)
      run_as(f64_buffers_);
    else
      run_as(f32_buffers_);
  }
  // Each step lapped: the permutes are memory-bound passes of their own in the report.
  PassClock* pass_clock() override { return &clock_; }
  std::vector<PassWork> passes(const Problem& problem) const override {
    const EinsumSpec s = einsum_spec(problem);
    const TtgtPlan plan = ttgt_plan(s);
    const double e = static_cast<double>(size_of(problem.dtype));
    const std::map<std::string, std::string> indices{{"A", s.a}, {"B", s.b}, {"C", s.c}};
    std::vector<PassWork> out;
    for (const LoweringStep& step : ttgt_steps(plan, true)) {
      if (step.kind != StepKind::permute) {
        out.push_back({step.pass, op_work(problem)});  // the copies in, C' out: the op's bytes
        continue;
      }
      const double elements = static_cast<double>(s.elements(indices.at(step.note)));
      out.push_back(
          {step.pass, WorkModel{0, {{MemoryLevel::main, 2.0 * elements * e}}, {}}});  // read, write
    }
    return out;
  }
  std::vector<LoweringStep> lowering_steps() const override { return ttgt_steps(plan_, true); }
  std::map<std::string, std::string> notes() const override {
    const auto step = [](bool permuted, const std::string& from, const std::string& to) {
      return permuted ? fmt::format("permuted {} -> {}", from, to) : "used as stored";
    };
    return {{"A", step(plan_.permute_a, spec_.a, plan_.a)},
            {"B", step(plan_.permute_b, spec_.b, plan_.b)},
            {"C", step(plan_.permute_c, plan_.c, spec_.c)},
            {"gemm", fmt::format("{} products of {}x{}x{}: {}", plan_.batch, plan_.m, plan_.n,
                                 plan_.k, gemm_->describe())}};
  }

 private:
  template <typename T>
  void prepare_as(TtgtBuffers<T>& buf) {
    if (plan_.permute_a) buf.a.resize(static_cast<std::size_t>(spec_.elements(spec_.a)));
    if (plan_.permute_b) buf.b.resize(static_cast<std::size_t>(spec_.elements(spec_.b)));
    if (plan_.permute_c) buf.c.resize(static_cast<std::size_t>(spec_.elements(spec_.c)));
    // A call touches the operands and every buffer: where that outgrows the last-level
    // cache, each permute's output is cold when written, and streamed.
    const double e = sizeof(T);
    const double operands = static_cast<double>(spec_.elements(spec_.a) + spec_.elements(spec_.b) +
                                                spec_.elements(spec_.c));
    permute_ = permute_options(
        static_cast<std::int64_t>((operands + ttgt_added_elements(spec_, plan_) / 2) * e));
  }
  template <typename T>
  void run_as(TtgtBuffers<T>& buf) {
    const T* a = static_cast<const T*>(a_);
    const T* b = static_cast<const T*>(b_);
    T* c = plan_.permute_c ? buf.c.data.get() : static_cast<T*>(c_);
    if (plan_.permute_a) {
      einsum_permute(spec_, spec_.a, a, plan_.a, buf.a.data.get(), threads_, permute_);
      a = buf.a.data.get();
      pass_done();
    }
    if (plan_.permute_b) {
      einsum_permute(spec_, spec_.b, b, plan_.b, buf.b.data.get(), threads_, permute_);
      b = buf.b.data.get();
      pass_done();
    }
    gemm_->run(a, b, c);
    pass_done();
    if (plan_.permute_c) {
      einsum_permute(spec_, plan_.c, static_cast<const T*>(c), spec_.c, static_cast<T*>(c_),
                     threads_, permute_);
      pass_done();
    }
  }

  KernelInfo info_;
  std::unique_ptr<TtgtGemm> gemm_;
  std::string direct_;  // make_einsum_ttgt_with
  EinsumSpec spec_;
  TtgtPlan plan_;
  int threads_ = 1;
  bool f64_ = false;
  PermuteOptions permute_;
  const void* a_ = nullptr;
  const void* b_ = nullptr;
  void* c_ = nullptr;
  TtgtBuffers<float> f32_buffers_;
  TtgtBuffers<double> f64_buffers_;
  PassClock clock_;
};

}  // namespace

std::unique_ptr<Kernel> make_einsum_ttgt_with(KernelInfo info, std::unique_ptr<TtgtGemm> gemm,
                                              std::string direct) {
  return std::make_unique<EinsumTtgt>(std::move(info), std::move(gemm), std::move(direct));
}

std::unique_ptr<Kernel> make_einsum_ttgt() {
  return make_einsum_ttgt_with(
      {"einsum",
       "cpu.ttgt",
       Device::cpu,
       {DType::f32, DType::f64},
       true,
       "transpose-GEMM-transpose, as frameworks lower einsum: A to [batch, m, k] and B to "
       "[batch, k, n] by a cache-blocked permute, the packed GEMM per batch, the result "
       "permuted to C (each step skipped where the operand is already in order)",
       KernelRole::ladder},
      std::make_unique<PackedTtgtGemm>());
}

}  // namespace ridgeline
