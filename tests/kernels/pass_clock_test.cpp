// Every unfused chain in the catalog laps its clock once per pass of the op's pass model,
// on every dtype and shape variant it runs (causal or not, each L): the runner names the
// passes' times from that model, so one lap too few or too many would misname them all.
#include "ridgeline/kernels/pass_clock.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <thread>

#include "../support/op_cases.hpp"

namespace ridgeline {

namespace {

using test::builtin_catalog;
using test::make_problem;

// Small problems of each op with an unfused chain, covering the passes that come and go.
const std::vector<std::pair<std::string, std::string>> kProblems{
    {"softmax", "rows=3,cols=17"},
    {"layernorm", "rows=5,cols=33"},
    {"rmsnorm", "rows=4,cols=31"},
    {"eltwise_chain", "n=1000,L=1"},
    {"eltwise_chain", "n=1000,L=7"},
    {"gemm_bias_act", "m=32,n=24,k=16/act=gelu_tanh"},
    {"attention", "heads=2,seq=32,head_dim=16"},
    {"attention", "heads=2,seq=32,head_dim=16/causal=1"}};

}  // namespace

TEST(PassClock, EveryUnfusedChainLapsOncePerPassOfItsOpsModel) {
  int checked = 0;
  for (const KernelInfo& info : builtin_catalog().kernels()) {
    if (info.role != KernelRole::unfused) continue;
    for (const auto& [op, params] : kProblems) {
      if (op != info.op) continue;
      for (DType dtype : info.dtypes) {
        auto kernel = builtin_catalog().create(info.backend, info.op);
        Problem p = make_problem(op, params);
        p.dtype = dtype;
        if (!kernel->supports(p, 2)) continue;  // this CPU lacks the ISA (the support test says)
        Operands ops = allocate_operands(p);
        test::fill_operands(ops);
        kernel->prepare(p, ops, 2);
        PassClock* clock = kernel->pass_clock();
        ASSERT_NE(clock, nullptr) << info.id() << ": an unfused chain without a pass clock";
        clock->reset();
        kernel->run();
        kernel->run();
        const std::string what = fmt::format("{} {} {}", info.id(), params, to_string(dtype));
        EXPECT_EQ(clock->calls(), 2) << what;
        ASSERT_EQ(clock->seconds().size(), op_unfused_passes(p).size()) << what;
        for (double s : clock->seconds()) EXPECT_GE(s, 0) << what;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 8) << "the catalog's unfused chains were not found";
}

TEST(PassClock, FusedKernelsHaveNone) {
  for (const KernelInfo& info : builtin_catalog().kernels()) {
    if (info.role != KernelRole::fused) continue;
    EXPECT_EQ(builtin_catalog().create(info.backend, info.op)->pass_clock(), nullptr) << info.id();
  }
}

// Laps measure the time between marks on the calling thread only, from the Lap's start;
// without a Lap in scope pass_done() does nothing; a clock reset forgets everything.
TEST(PassClock, LapsAddTheTimeBetweenMarksPerPass) {
  PassClock clock;
  pass_done();  // no Lap: nothing, no crash
  for (int call = 0; call < 3; ++call) {
    const PassClock::Lap lap(clock);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    pass_done();
    pass_done();
  }
  pass_done();  // the Lap has ended
  EXPECT_EQ(clock.calls(), 3);
  ASSERT_EQ(clock.seconds().size(), 2u);
  EXPECT_GE(clock.seconds()[0], 3 * 0.002);
  EXPECT_LT(clock.seconds()[1], clock.seconds()[0]);
  clock.reset();
  EXPECT_EQ(clock.calls(), 0);
  EXPECT_TRUE(clock.seconds().empty());
}

}  // namespace ridgeline
