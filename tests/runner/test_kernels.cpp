#include "test_kernels.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline::testing {

namespace {

enum class Misbehaviour {
  wrong,
  segfault,
  abort,
  hang,
  unwritten,
  throws_when_timed,
  // A collective's rank that is right, in a job where another rank was not: its agreement
  // (Kernel::all_ranks) says no after validation, or already after prepare().
  other_rank_wrong,
  other_rank_unprepared,
  // A collective (KernelInfo::ranks) that throws after its ranks agreed to run it: at its
  // validating call, or once timed.
  collective_throws,
  collective_throws_when_timed
};

class MisbehavingKernel : public Kernel {
 public:
  MisbehavingKernel(std::string backend, Misbehaviour how)
      : info_{"gemm", std::move(backend), Device::cpu, {DType::f32, DType::f64},
              false,  "test-only"},
        how_(how),
        inner_(make_naive_gemm()) {
    if (how == Misbehaviour::collective_throws || how == Misbehaviour::collective_throws_when_timed)
      info_.ranks = 2;
  }
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& p, int threads) const override {
    return check_common_support(info_, p, threads);
  }
  void prepare(const Problem& p, Operands& ops, int threads) override {
    inner_->prepare(p, ops, threads);
    c_ = &ops.at("C");
  }
  bool all_ranks(bool mine) override {
    ++agreements_;
    if (how_ == Misbehaviour::other_rank_unprepared) return false;
    if (how_ == Misbehaviour::other_rank_wrong) return agreements_ == 1 && mine;
    return mine;
  }
  void run() override {
    switch (how_) {
      case Misbehaviour::segfault:
        std::raise(SIGSEGV);
        break;
      case Misbehaviour::abort:
        std::abort();
      case Misbehaviour::hang:
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      case Misbehaviour::unwritten:
        return;
      case Misbehaviour::other_rank_wrong:
      case Misbehaviour::other_rank_unprepared:
        inner_->run();
        return;
      case Misbehaviour::collective_throws:
        throw std::runtime_error("the shard's buffer was not registered");
      case Misbehaviour::throws_when_timed:  // right once (validation), then a device-like fault
      case Misbehaviour::collective_throws_when_timed:
        if (runs_++ > 0)
          throw std::runtime_error("cudaStreamSynchronize failed: an illegal address");
        inner_->run();
        return;
      case Misbehaviour::wrong:
        inner_->run();
        if (c_->dtype() == DType::f32)
          c_->as<float>()[0] += 1.0f;
        else
          c_->as<double>()[0] += 1.0;
        return;
    }
  }

 private:
  KernelInfo info_;
  Misbehaviour how_;
  std::unique_ptr<Kernel> inner_;
  OperandBuffer* c_ = nullptr;
  int runs_ = 0;
  int agreements_ = 0;
};

}  // namespace

KernelCatalog catalog_with_test_kernels() {
  KernelCatalog c = KernelCatalog::with_builtin_kernels({});
  const std::pair<const char*, Misbehaviour> tests[] = {
      {"test.wrong", Misbehaviour::wrong},
      {"test.segfault", Misbehaviour::segfault},
      {"test.abort", Misbehaviour::abort},
      {"test.hang", Misbehaviour::hang},
      {"test.unwritten", Misbehaviour::unwritten},
      {"test.throws_when_timed", Misbehaviour::throws_when_timed},
      {"test.other_rank_wrong", Misbehaviour::other_rank_wrong},
      {"test.other_rank_unprepared", Misbehaviour::other_rank_unprepared},
      {"test.collective_throws", Misbehaviour::collective_throws},
      {"test.collective_throws_when_timed", Misbehaviour::collective_throws_when_timed}};
  for (const auto& test : tests) {
    std::string backend = test.first;
    Misbehaviour how = test.second;
    c.add([backend, how] { return std::make_unique<MisbehavingKernel>(backend, how); });
  }
  return c;
}

}  // namespace ridgeline::testing
