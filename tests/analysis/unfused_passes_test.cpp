// The unfused chains pass by pass on Runs built by hand: each pass's time (the median of
// its repetitions), bytes and FLOPs from the op's model, its bound and the fraction of that
// roof, the pass below the floor named, and what is left out when times are missing.
#include "ridgeline/analysis/unfused_passes.hpp"

#include <gtest/gtest.h>

#include "fusion_runs.hpp"
#include "ridgeline/analysis/fusion.hpp"

namespace ridgeline {

namespace {

using fusion_runs::make_case;
using fusion_runs::with_pass_times;

std::vector<UnfusedChain> chains(const Run& run, const MachineModel* machine) {
  return unfused_chains(run, place_results(run, machine), machine);
}

Run run_of(std::vector<CaseResult> cases) {
  Run run;
  run.context.has_ridgeline = true;
  run.benchmarks = std::move(cases);
  return run;
}

}  // namespace

// softmax 4096 x 4096 f32: max and sum move 67.1 MB, the other passes 134.2 MB; DRAM at
// 20 GB/s. exp at 15 ms reaches 8.9 GB/s, 0.45 of the roof: named; the rest 0.84.
TEST(UnfusedChains, EachPassOnItsRoofAndTheOneThatLosesNamed) {
  const MachineModel machine = fusion_runs::machine();
  const ridgeline::Run run = run_of({with_pass_times(
      make_case("cpu.unfused", "softmax", "rows=4096,cols=4096", 1, 40), {4, 8, 15, 4, 8})});
  const auto out = chains(run, &machine);
  ASSERT_EQ(out.size(), 1u);
  const UnfusedChain& c = out[0];
  EXPECT_EQ(c.level, "DRAM");
  EXPECT_DOUBLE_EQ(c.case_seconds, 0.040);
  EXPECT_NEAR(c.passes_seconds, 0.039, 1e-12);
  EXPECT_DOUBLE_EQ(c.memory_bound_share, 1.0);
  ASSERT_EQ(c.passes.size(), 5u);
  const double rc = 4096.0 * 4096;
  const PassPoint& exp = c.passes[2];
  EXPECT_EQ(exp.name, "exp");
  EXPECT_DOUBLE_EQ(exp.bytes, 2 * rc * 4);
  EXPECT_DOUBLE_EQ(exp.flops, rc);
  EXPECT_DOUBLE_EQ(exp.intensity, 1.0 / 8);
  EXPECT_EQ(exp.bound, Bound::memory("DRAM"));
  EXPECT_NEAR(exp.roof, 2 * rc * 4 / 0.015 / 20e9, 1e-12);
  EXPECT_TRUE(exp.below_floor);
  EXPECT_NEAR(exp.share, 15.0 / 39, 1e-12);
  for (std::size_t i : {0u, 1u, 3u, 4u}) {
    EXPECT_FALSE(c.passes[i].below_floor) << c.passes[i].name;
    EXPECT_GT(c.passes[i].roof, 0.8) << c.passes[i].name;
  }
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_NE(c.notes[0].find("exp runs at 0.45 of its DRAM roof"), std::string::npos) << c.notes[0];
}

// The score and context GEMMs of attention are compute-bound: their fraction is of the
// peak (100 GFLOP/s); the causal mask has no FLOPs and is bound by its bytes alone.
TEST(UnfusedChains, ComputeBoundPassesAreHeldToThePeakAndAMaskToItsBytes) {
  const MachineModel machine = fusion_runs::machine();
  const std::string params = "heads=16,seq=1024,head_dim=64/causal=1";
  const Problem p = fusion_runs::problem("attention", params);
  const auto model = op_unfused_passes(p);
  ASSERT_EQ(model[1].name, "scores_gemm");
  ASSERT_EQ(model[2].name, "mask");
  // scores_gemm at half the peak, the mask at the DRAM roof exactly, the rest at it too.
  std::vector<double> ms;
  for (const auto& pass : model)
    ms.push_back(1e3 * (pass.name == "scores_gemm" ? pass.work.flops / 50e9
                        : pass.name == "context_gemm"
                            ? pass.work.flops / 100e9
                            : pass.work.bytes.at(MemoryLevel::main) / 20e9));
  const ridgeline::Run run =
      run_of({with_pass_times(make_case("cpu.unfused", "attention", params, 1, 200), ms)});
  const auto out = chains(run, &machine);
  ASSERT_EQ(out.size(), 1u);
  const auto& passes = out[0].passes;
  EXPECT_EQ(passes[1].bound, Bound::compute());
  EXPECT_NEAR(passes[1].roof, 0.5, 1e-9);
  EXPECT_TRUE(passes[1].below_floor);
  EXPECT_EQ(passes[2].bound, Bound::memory("DRAM"));
  EXPECT_EQ(passes[2].flops, 0);
  EXPECT_NEAR(passes[2].roof, 1.0, 1e-9);
  EXPECT_FALSE(passes[2].below_floor);
  EXPECT_NEAR(passes[4].roof, 1.0, 1e-9);
  // The memory-bound share is the time outside the two GEMMs.
  const double gemm_seconds = passes[1].seconds + passes[4].seconds;
  EXPECT_NEAR(out[0].memory_bound_share, 1 - gemm_seconds / out[0].passes_seconds, 1e-12);

  // With its fused twin at 60 GFLOP/s: the GEMMs together ran at 2F / (F/50 + F/100) =
  // 66.7 GFLOP/s, so the fused kernel is at 0.9 of them; the pair says so, and says how much
  // of the unfused time was traffic.
  ridgeline::Run pair_run = run;
  pair_run.benchmarks.push_back(
      make_case("cpu.fused", "attention", params, 1, 1e3 * op_work(p).flops / 60e9));
  const FusionAnalysis f = fusion_analysis(pair_run, place_results(pair_run, &machine), &machine);
  ASSERT_EQ(f.pairs.size(), 1u);
  EXPECT_NEAR(f.pairs[0].fused_over_chain_compute, 0.9, 1e-9);
  std::string notes;
  for (const auto& n : f.pairs[0].notes) notes += n + "\n";
  EXPECT_NE(notes.find("fused at 0.90× the rate of the chain's compute-bound passes "
                       "(66.7 GFLOP/s)"),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("% of the unfused time in memory-bound passes"), std::string::npos) << notes;
}

// Three repetitions: each pass's time is its median, not the median repetition's.
TEST(UnfusedChains, EachPassTimeIsTheMedianOfItsRepetitions) {
  const MachineModel machine = fusion_runs::machine();
  std::vector<CaseResult> reps;
  const std::vector<std::vector<double>> times{{1, 9, 3, 4}, {2, 7, 5, 4}, {3, 8, 4, 4}};
  for (std::size_t i = 0; i < times.size(); ++i) {
    CaseResult r = with_pass_times(
        make_case("cpu.unfused", "rmsnorm", "rows=512,cols=4096", 2, 20 + static_cast<double>(i)),
        times[i]);
    r.repetitions = 3;
    r.repetition_index = static_cast<std::int64_t>(i);
    reps.push_back(r);
  }
  const auto out = chains(run_of(reps), &machine);
  ASSERT_EQ(out.size(), 1u);
  std::vector<double> medians;
  for (const auto& p : out[0].passes) medians.push_back(p.seconds * 1e3);
  ASSERT_EQ(medians.size(), 4u);
  EXPECT_NEAR(medians[0], 2, 1e-9);
  EXPECT_NEAR(medians[1], 8, 1e-9);
  EXPECT_NEAR(medians[2], 4, 1e-9);
  EXPECT_NEAR(medians[3], 4, 1e-9);
}

// Without pass times (runs from before, vendor chains in one call) there is no chain; a
// pass missing from the results is listed, not dropped; without a machine nothing is placed.
TEST(UnfusedChains, MissingTimesAndMissingCeilingsAreSaid) {
  const MachineModel machine = fusion_runs::machine();
  EXPECT_TRUE(
      chains(run_of({make_case("cpu.unfused", "softmax", "rows=64,cols=64", 1, 1)}), &machine)
          .empty());
  EXPECT_TRUE(chains(run_of({with_pass_times(
                         make_case("cpu.fused", "softmax", "rows=64,cols=64", 1, 1), {1, 1})}),
                     &machine)
                  .empty());
  const ridgeline::Run partial = run_of(
      {with_pass_times(make_case("cpu.unfused", "softmax", "rows=64,cols=64", 1, 1), {1, 1, 1})});
  auto out = chains(partial, &machine);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].passes.size(), 5u);
  EXPECT_EQ(out[0].passes[3].seconds, 0);
  EXPECT_NE(out[0].notes.front().find("pass sum has no time"), std::string::npos);
  out = chains(partial, nullptr);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].passes[0].bound.empty());
  EXPECT_EQ(out[0].notes.back(), "no machine model: the passes are not placed");
}

// An unfused case's bytes stream from the level its chain's footprint fits: attention's
// operands (4 x 2 MiB here) fit a 32 MiB L3, its 128 MiB of scores do not, so the case is
// placed at DRAM; the fused twin, whose working set is its operands, at L3.
TEST(UnfusedChains, TheChainsFootprintNotItsOperandsPlacesTheUnfusedCase) {
  MachineModel machine = fusion_runs::machine();
  machine.l1d_bytes = 32 << 10;
  machine.l2_bytes = 1 << 20;
  machine.l3_bytes = 32 << 20;
  fusion_runs::add_l3_ceiling(machine, 100e9);
  const std::string params = "heads=8,seq=2048,head_dim=64";
  const ridgeline::Run run = run_of({make_case("cpu.unfused", "attention", params, 1, 100),
                                     make_case("cpu.fused", "attention", params, 1, 80)});
  const auto placements = place_results(run, &machine);
  ASSERT_EQ(placements.size(), 2u);
  EXPECT_EQ(placements[0].bytes.count("DRAM"), 1u) << placements[0].name;
  EXPECT_EQ(placements[1].bytes.count("L3"), 1u) << placements[1].name;
  EXPECT_DOUBLE_EQ(op_unfused_footprint(fusion_runs::problem("attention", params)),
                   8.0 * 2048 * 2048 * 4);  // the softmax pass: S in, P out, halved
}

}  // namespace ridgeline
