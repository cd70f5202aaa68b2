// Properties of the roofline maths, checked on many random machines, plus placement of
// recorded runs.
#include "ridgeline/analysis/roofline.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "ridgeline/analysis/ladder_comparison.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {

namespace {

const std::vector<std::string> kLevels{"L1", "L2", "L3", "DRAM"};

MachineModel random_machine(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> peak(1e9, 1e13), bw(1e9, 1e12);
  MachineModel m;
  m.fingerprint = "test";
  m.cores = 4;
  for (int threads : {1, 4}) {
    m.compute.push_back({"f64.avx2.fma", "f64", "avx2", "FLOP/s", peak(rng), 0, "", 0, threads,
                         MetricSource::timed, Device::cpu, ""});
    m.compute.push_back({"f64.avx512.fma", "f64", "avx512", "FLOP/s", peak(rng), 0, "", 0, threads,
                         MetricSource::timed, Device::cpu, ""});
    m.compute.push_back({"f32.avx512.fma", "f32", "avx512", "FLOP/s", peak(rng), 0, "", 0, threads,
                         MetricSource::timed, Device::cpu, ""});
    for (const auto& level : kLevels)
      for (const char* k : {"read", "copy"})
        m.memory.push_back({level,
                            k,
                            "avx2",
                            bw(rng),
                            1 << 20,
                            threads,
                            MetricSource::timed,
                            Device::cpu,
                            "",
                            {},
                            {}});
  }
  return m;
}

}  // namespace

TEST(RooflineProperties, AttainableIsTheMinimumOverTheApplicableCeilings) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> log_ai(-3, 4);
  for (int trial = 0; trial < 500; ++trial) {
    MachineModel m = random_machine(rng);
    const int threads = trial % 2 ? 4 : 1;
    Roof roof = roof_for(m, "f64", threads);
    // The roof takes the best f64 peak and the best kernel per level at these threads.
    double best_peak = 0;
    for (const auto& c : m.compute)
      if (c.dtype == "f64" && c.threads == threads) best_peak = std::max(best_peak, c.per_second);
    ASSERT_TRUE(roof.compute);
    EXPECT_DOUBLE_EQ(roof.compute->per_second, best_peak);
    std::map<std::string, double> intensity;
    for (const auto& level : kLevels)
      if (rng() % 2) intensity[level] = std::pow(10.0, log_ai(rng));
    double expected = best_peak;
    Bound bound = Bound::compute();
    for (const auto& [level, ai] : intensity) {
      double bw = 0;
      for (const auto& c : m.memory)
        if (c.level == level && c.threads == threads) bw = std::max(bw, c.bytes_per_s);
      if (bw * ai < expected) {
        expected = bw * ai;
        bound = Bound::memory(level);
      }
    }
    Attainable a = attainable(roof, intensity);
    EXPECT_DOUBLE_EQ(a.flops_per_s, expected);
    EXPECT_EQ(a.bound, bound);
    EXPECT_LE(a.flops_per_s, best_peak);
  }
}

TEST(RooflineProperties, AttainableIsMonotoneInIntensity) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    Roof roof = roof_for(random_machine(rng), "f32", 1);
    double previous = 0;
    for (double ai = 1e-3; ai < 1e4; ai *= 1.1) {
      double now = attainable(roof, {{"DRAM", ai}, {"L2", ai * 4}}).flops_per_s;
      EXPECT_GE(now, previous) << "at intensity " << ai;
      previous = now;
    }
  }
}

TEST(RooflineProperties, RidgePointIsWhereTheRoofsMeet) {
  std::mt19937_64 rng(9);
  for (int trial = 0; trial < 200; ++trial) {
    Roof roof = roof_for(random_machine(rng), "f64", 4);
    for (const auto& level : kLevels) {
      const double ridge = ridge_point(roof, level);
      const double bw = roof.memory.at(level).bytes_per_s;
      EXPECT_NEAR(bw * ridge, roof.compute->per_second, roof.compute->per_second * 1e-12);
      // Left of the ridge memory bounds, right of it compute does.
      EXPECT_EQ(attainable(roof, {{level, ridge * 0.99}}).bound, Bound::memory(level));
      EXPECT_EQ(attainable(roof, {{level, ridge * 1.01}}).bound, Bound::compute());
    }
  }
}

TEST(RooflineProperties, UnknownThreadCountUsesTheNearestBelowAndSaysSo) {
  std::mt19937_64 rng(1);
  MachineModel m = random_machine(rng);
  Roof roof = roof_for(m, "f64", 3);
  EXPECT_EQ(roof.threads, 1);
  ASSERT_EQ(roof.notes.size(), 1u);
  EXPECT_EQ(roof.notes[0].kind, NoteKind::threads);
  EXPECT_NE(roof.notes[0].text.find("measured with 1 thread, the result ran with 3"),
            std::string::npos)
      << roof.notes[0].text;
  EXPECT_NE(join_notes(roof_for(m, "f64", 8).notes).find("4 threads"), std::string::npos);
  EXPECT_TRUE(roof_for(m, "f64", 4).notes.empty());
}

namespace {

Run run_with_case(double real_time_ms, std::int64_t n, Disposition d = Disposition::passed) {
  Run run;
  CaseResult r;
  r.name = r.run_name = "gemm/test/f64/n";
  r.iterations = 10;
  r.real_time = real_time_ms;
  r.time_unit = "ms";
  CaseDetails det;
  det.backend = "cpu.test";
  det.problem = gemm_problem(Shape{n, n, n, 1}, Layout::NN, DType::f64, "normal");
  det.work = op_work(det.problem);
  det.validation.disposition = d;
  det.validation.message = d == Disposition::passed ? "" : "killed by SIGSEGV";
  r.ridgeline = det;
  r.error_occurred = d != Disposition::passed;
  run.benchmarks.push_back(r);
  return run;
}

MachineModel simple_machine() {
  MachineModel m;
  m.fingerprint = "simple";
  m.l1d_bytes = 32 << 10;
  m.l2_bytes = 1 << 20;
  m.l3_bytes = 32 << 20;
  m.compute.push_back({"f64.avx512.fma", "f64", "avx512", "FLOP/s", 50e9, 0, "", 0, 1,
                       MetricSource::timed, Device::cpu, ""});
  for (const char* level : {"L1", "L2", "L3", "DRAM"})
    m.memory.push_back({level,
                        "copy",
                        "avx2",
                        std::string(level) == "DRAM" ? 20e9 : 100e9,
                        1 << 20,
                        1,
                        MetricSource::timed,
                        Device::cpu,
                        "",
                        {},
                        {}});
  m.overhead.push_back({"call", 2e-9, MetricSource::timed, Device::cpu, ""});
  return m;
}

}  // namespace

TEST(Placement, GpuCasesArePlacedOnTheGpuCeilingsFromHbm) {
  MachineModel m = simple_machine();
  ComputeCeiling mma;
  mma.name = "gpu.bf16.mma_sync";
  mma.dtype = "bf16";
  mma.per_second = 6e14;
  mma.device = Device::gpu;
  ComputeCeiling lt = mma;
  lt.name = "gpu.bf16.cublaslt";
  lt.per_second = 7.5e14;
  m.compute.push_back(mma);
  m.compute.push_back(lt);
  MemoryCeiling hbm;
  hbm.level = "HBM";
  hbm.kernel = "copy";
  hbm.bytes_per_s = 3e12;
  hbm.device = Device::gpu;
  m.memory.push_back(hbm);
  m.overhead.push_back({"gpu.launch", 2e-6, MetricSource::timed, Device::gpu, ""});

  ridgeline::Run run = run_with_case(2.0, 8192);  // 1.1e12 FLOP in 2 ms: 550 TFLOP/s
  run.benchmarks[0].ridgeline->device = Device::gpu;
  run.benchmarks[0].ridgeline->problem.dtype = DType::bf16;
  run.benchmarks[0].ridgeline->work = op_work(run.benchmarks[0].ridgeline->problem);
  const RooflinePlacement p = place_results(run, &m)[0];
  ASSERT_TRUE(p.placeable) << p.reason;
  EXPECT_EQ(p.device, Device::gpu);
  ASSERT_EQ(p.bytes.count("HBM"), 1u);  // rotated operands: compulsory bytes from HBM
  EXPECT_EQ(p.bound, Bound::compute());
  EXPECT_DOUBLE_EQ(p.attainable, 7.5e14);  // the best bf16 GPU ceiling, not a CPU one
  EXPECT_NEAR(p.efficiency, 2.0 * 8192 * 8192 * 8192 / 2e-3 / 7.5e14, 1e-9);
  // The GPU's roof has no CPU level in it, and the CPU's none of the GPU's.
  EXPECT_EQ(roof_for(m, "bf16", 1, Device::gpu).memory.count("DRAM"), 0u);
  EXPECT_EQ(roof_for(m, "f64", 1, Device::cpu).memory.count("HBM"), 0u);
  EXPECT_FALSE(roof_for(m, "bf16", 1, Device::cpu).compute.has_value());
  EXPECT_EQ(roof_for(m, "bf16", 1, Device::gpu).overhead->name, "gpu.launch");
  EXPECT_FALSE(p.throttled);
  run.benchmarks[0].ridgeline->metrics.push_back(
      {"gpu.throttled", 1, "bool", MetricSource::sampled});
  EXPECT_TRUE(place_results(run, &m)[0].throttled);  // NVML saw a slowdown: the case is marked
  EXPECT_EQ(place_results(run, &m)[0].flop_per_joule, 0);  // no energy read: none
  EXPECT_EQ(place_results(run, &m)[0].energy_domain, "");

  // Three repetitions and their median aggregate, which stands for the case but carries no
  // collector's readings: the energy and the throttling come from the repetitions.
  ridgeline::Run reps;
  for (double fpj : {3e11, 1e12, 2e12}) {
    CaseResult r = run.benchmarks[0];
    r.ridgeline->metrics = {
        {"flop_per_joule.gpu", fpj, "FLOP/J", MetricSource::derived},
        {"flop_per_joule.package-0", 1.0, "FLOP/J", MetricSource::derived},
        {"gpu.throttled", fpj == 2e12 ? 1.0 : 0.0, "bool", MetricSource::sampled}};
    reps.benchmarks.push_back(r);
  }
  CaseResult median = run.benchmarks[0];
  median.run_type = "aggregate";
  median.aggregate_name = "median";
  median.ridgeline->metrics.clear();
  reps.benchmarks.push_back(median);
  const RooflinePlacement q = place_results(reps, &m)[0];
  EXPECT_DOUBLE_EQ(q.flop_per_joule, 1e12);  // the GPU's own energy, not the package's
  EXPECT_EQ(q.energy_domain, "gpu");
  EXPECT_TRUE(q.throttled);  // one repetition was held down
}

// A VM whose hwloc reports the host's 508 MiB L3: a 96 MiB working set is placed in DRAM
// once the probe measured the L3's capacity (20 MiB) and flagged the disagreement.
TEST(Placement, AMeasuredCacheMoreThan2xOffHwlocPlacesTheWorkingSet) {
  MachineModel m = simple_machine();
  m.l3_bytes = std::int64_t{508} << 20;
  ridgeline::Run run = run_with_case(100.0, 2048);  // f64 GEMM: 3 x 2048^2 x 8 B = 96 MiB
  EXPECT_EQ(place_results(run, &m)[0].bytes.count("L3"), 1u);
  MeasuredLevel l3;
  l3.name = "L3";
  l3.kernel = "read";
  l3.threads = 1;
  l3.capacity_bytes = 20 << 20;
  l3.reported_bytes = m.l3_bytes;
  l3.disagrees = true;
  m.levels.push_back(l3);
  const RooflinePlacement p = place_results(run, &m)[0];
  EXPECT_EQ(p.bytes.count("L3"), 0u);
  EXPECT_EQ(p.bytes.count("DRAM"), 1u);
  m.levels.back().disagrees = false;  // within 2x: hwloc's size stands
  EXPECT_EQ(place_results(run, &m)[0].bytes.count("L3"), 1u);
}

TEST(Placement, AboveEveryRoofIsFlaggedNotHidden) {
  MachineModel m = simple_machine();
  // 2*1024^3 FLOPs in 1 ms = 2147 GFLOP/s, far above the 50 GFLOP/s roof.
  auto placed = place_results(run_with_case(1.0, 1024), &m);
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_TRUE(placed[0].placeable);
  EXPECT_TRUE(placed[0].above_roof);
  EXPECT_GT(placed[0].efficiency, 1.0);
}

TEST(Placement, BytesAreComparedWithTheLevelTheWorkingSetFitsIn) {
  MachineModel m = simple_machine();
  auto small = place_results(run_with_case(1.0, 32), &m)[0];  // 24 KiB of operands
  EXPECT_EQ(small.intensity.begin()->first, "L1");
  auto mid = place_results(run_with_case(1.0, 256), &m)[0];  // 1.5 MiB
  EXPECT_EQ(mid.intensity.begin()->first, "L3");
  auto big = place_results(run_with_case(100.0, 2048), &m)[0];  // 96 MiB
  EXPECT_EQ(big.intensity.begin()->first, "DRAM");
  EXPECT_DOUBLE_EQ(big.intensity.at("DRAM"), 2.0 * 2048 * 2048 * 2048 / (3.0 * 2048 * 2048 * 8));
  EXPECT_EQ(big.bytes_source, MetricSource::analytic);
  EXPECT_EQ(big.flops_source, MetricSource::analytic);
  EXPECT_NE(join_notes(big.notes).find("level: compulsory bytes (analytic)"), std::string::npos);
  // A cold case's operands were flushed before each call: from DRAM however small.
  ridgeline::Run cold = run_with_case(1.0, 32);
  cold.benchmarks[0].ridgeline->cache = CacheState::cold;
  const auto flushed = place_results(cold, &m)[0];
  EXPECT_EQ(flushed.intensity.begin()->first, "DRAM");
  EXPECT_EQ(flushed.cache, CacheState::cold);
  EXPECT_NE(join_notes(flushed.notes).find("from DRAM: 24 KiB per call, operands flushed"),
            std::string::npos)
      << join_notes(flushed.notes);
}

// With bytes counted at every level, the level shown is the one whose roof binds, not the
// one whose name sorts last (L3 used to win over DRAM by name).
TEST(Placement, TheLevelShownIsTheOneThatBinds) {
  MachineModel m = simple_machine();  // L1..L3 at 100 GB/s, DRAM at 20 GB/s
  ridgeline::Run run = run_with_case(100.0, 2048);
  const double calls = static_cast<double>(run.benchmarks[0].iterations);
  const double flops = 2.0 * 2048 * 2048 * 2048;
  // Per call: L1 sees 100x the FLOPs in bytes, L3 2x, DRAM 0.02x.
  auto& metrics = run.benchmarks[0].ridgeline->metrics;
  for (const auto& [level, bytes] : {std::pair{"L1", 100 * flops}, std::pair{"L2", 10 * flops},
                                     std::pair{"L3", 2 * flops}, std::pair{"DRAM", 0.02 * flops}})
    metrics.push_back({std::string("bytes.") + level, bytes * calls, "B", MetricSource::counted});
  auto placed = place_results(run, &m)[0];
  ASSERT_TRUE(placed.placeable) << placed.reason;
  EXPECT_EQ(placed.level, "L1");  // 100 GB/s x 0.01 FLOP/B: the lowest roof
  EXPECT_DOUBLE_EQ(placed.level_intensity, 0.01);
  // Without a machine model: the farthest level measured.
  auto bare = place_results(run, nullptr)[0];
  EXPECT_EQ(bare.level, "DRAM");
  EXPECT_DOUBLE_EQ(bare.level_intensity, 50.0);
}

TEST(Placement, TinyCallsAreBoundByCallOverhead) {
  MachineModel m = simple_machine();
  // 2 FLOPs: compute would allow 0.04 ns, the call costs 2 ns.
  auto p = place_results(run_with_case(1e-5, 1), &m)[0];
  EXPECT_EQ(p.bound, Bound::call_overhead());
  EXPECT_DOUBLE_EQ(p.attainable, 2.0 / 2e-9);
}

TEST(Placement, FailedCasesAreListedWithTheirReason) {
  MachineModel m = simple_machine();
  auto p = place_results(run_with_case(0, 64, Disposition::crashed), &m)[0];
  EXPECT_FALSE(p.placeable);
  EXPECT_NE(p.reason.find("crashed: killed by SIGSEGV"), std::string::npos) << p.reason;
}

TEST(Placement, CounterTotalsOfARepetitionArePerCallOnThePlot) {
  // A counter group's flops and bytes total the repetition's 10 iterations.
  ridgeline::Run run = run_with_case(10.0, 512);
  auto& metrics = run.benchmarks[0].ridgeline->metrics;
  metrics.push_back({"flops", 10 * 3.0e8, "FLOP", MetricSource::derived});
  metrics.push_back({"bytes.DRAM", 10 * 1.5e8, "B", MetricSource::derived});
  const MachineModel m = simple_machine();
  auto p = place_results(run, &m)[0];
  ASSERT_TRUE(p.placeable) << p.reason;
  EXPECT_EQ(p.flops_source, MetricSource::derived);
  EXPECT_EQ(p.bytes_source, MetricSource::derived);
  EXPECT_DOUBLE_EQ(p.flops, 3.0e8);
  EXPECT_DOUBLE_EQ(p.intensity.at("DRAM"), 2.0);
  EXPECT_DOUBLE_EQ(p.achieved, 3.0e8 / 10e-3);
}

TEST(Placement, WithoutAMachineModelPointsHaveNoBound) {
  auto p = place_results(run_with_case(10.0, 512), nullptr)[0];
  EXPECT_TRUE(p.placeable);
  EXPECT_GT(p.achieved, 0);
  EXPECT_EQ(p.attainable, 0);
  EXPECT_TRUE(p.bound.empty());
  EXPECT_NE(join_notes(p.notes).find("machine: no machine model"), std::string::npos);
}

TEST(Placement, ForeignGoogleBenchmarkOutputIsPlacedWhereItCanBe) {
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/gbench-foreign.json");
  MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  auto placed = place_results(run, &m);
  ASSERT_EQ(placed.size(), 3u);
  EXPECT_TRUE(placed[0].placeable);
  // No library_version, no real_time: the FLOPS counter is per CPU-second (249 us of CPU
  // in 250 us of wall time per iteration).
  EXPECT_DOUBLE_EQ(placed[0].achieved, 4.0e9 * 249.0 / 250.0);
  EXPECT_DOUBLE_EQ(placed[0].flops, 4.0e9 * 249e-6);
  EXPECT_DOUBLE_EQ(placed[0].intensity.at("DRAM"), 0.5);
  EXPECT_EQ(placed[0].flops_source, MetricSource::derived) << "the benchmark's own counter";
  EXPECT_EQ(placed[0].disposition, Disposition::not_verified) << "Ridgeline validated nothing";
  EXPECT_FALSE(placed[1].placeable);
  EXPECT_NE(placed[1].reason.find("no FLOP counter"), std::string::npos);
  EXPECT_FALSE(placed[2].placeable);
}

TEST(Placement, RecordedRunUsesItsMedianAndItsEmbeddedMachine) {
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  ASSERT_TRUE(run.context.machine);
  auto placed = place_results(run, &*run.context.machine);
  ASSERT_FALSE(placed.empty());
  for (const auto& p : placed) {
    EXPECT_TRUE(p.placeable) << p.name << ": " << p.reason;
    EXPECT_GT(p.attainable, 0) << p.name;
    EXPECT_EQ(p.dtype, "f64");
  }
  auto ladder = ladder_against_best_blas(placed);
  ASSERT_FALSE(ladder.empty());
  EXPECT_EQ(ladder[0].best_blas.rfind("blas.", 0), 0u);
}

}  // namespace ridgeline
