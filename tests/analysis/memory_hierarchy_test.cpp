// The hierarchy detector (analysis/memory_hierarchy) on every recording of the machines met
// (tests/fixtures/README.md): likwid-bench's sweeps and the probe's own sweeps of the Zen 3
// and Zen 5 VMs (one pass each) and the probe's three-pass sweeps of the Zen 4 VM, each with
// the levels a person reads off the curve; then synthetic sweeps with VM-like noise, soft
// slopes and a lying OS, and the same sweep under many noise seeds.
#include "ridgeline/analysis/memory_hierarchy.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "byte_sizes.hpp"
#include "sweep_recordings.hpp"

namespace ridgeline {
namespace {

using test::KiB;
using test::MiB;

using testing_support::recorded_sweep;

// A recorded machine model's sweeps at one thread count, read first, each pass a pass.
std::vector<KernelSweeps> recorded_model(const std::string& file, int threads) {
  const MachineModel m = read_machine_file(std::string(RIDGELINE_FIXTURES) + "/" + file);
  std::vector<KernelSweeps> out;
  for (const char* kernel : {"read", "copy"})
    for (const MemorySweep& s : m.sweeps) {
      if (s.threads != threads || s.kernel != kernel) continue;
      KernelSweeps k{s.kernel, {}};
      std::vector<std::vector<double>> passes = s.passes;
      if (passes.empty()) passes.push_back(s.bytes_per_s);
      for (const auto& pass : passes) {
        std::vector<SweepPoint> p;
        for (std::size_t i = 0; i < pass.size(); ++i)
          p.push_back({s.working_set_bytes[i], std::max(pass[i], 1.0)});
        k.passes.push_back(p);
      }
      out.push_back(k);
    }
  return out;
}

std::vector<ReportedCache> os(std::int64_t l1, std::int64_t l2, std::int64_t l3, int threads) {
  return {{"L1", l1 * threads}, {"L2", l2 * threads}, {"L3", l3}};
}

std::vector<std::string> names(const Hierarchy& h) {
  std::vector<std::string> out;
  for (const auto& l : h.levels) out.push_back(l.name);
  return out;
}

const HierarchyLevel& level(const Hierarchy& h, const std::string& name) {
  for (const auto& l : h.levels)
    if (l.name == name) return l;
  throw std::runtime_error("no level " + name);
}

const HierarchyLevel::Span& span(const HierarchyLevel& l, const std::string& kernel) {
  for (const auto& s : l.spans)
    if (s.kernel == kernel) return s;
  throw std::runtime_error("no span of " + kernel + " in " + l.name);
}

const std::vector<std::string> kFour = {"L1", "L2", "L3", "DRAM"};

// --- Zen 3 (family 19h, model 01h): hwloc tells the truth, and every size is kept. ----------

TEST(HierarchyRecordings, Zen3LikwidBenchSweepsKeepEverySizeHwlocReports) {
  for (int t : {1, 2}) {
    SCOPED_TRACE(testing::Message() << t << " threads");
    const char* file = "recording-zen3-vm-likwid-bench-sweep.csv";
    const Hierarchy h = detect_hierarchy({{"read", {recorded_sweep(file, "load_avx", t)}},
                                          {"copy", {recorded_sweep(file, "copy_avx", t)}}},
                                         os(32 * KiB, 512 * KiB, 32 * MiB, t));
    ASSERT_EQ(names(h), kFour);
    for (const char* n : {"L1", "L2", "L3"}) {
      EXPECT_EQ(level(h, n).decision, CacheSizeDecision::confirmed) << n << ": " << level(h, n).why;
      EXPECT_EQ(level(h, n).used_bytes, level(h, n).reported_bytes);
    }
    // Read off the curve: L1 flat to 25-32 KiB per thread, L2 from 40 KiB to 256-512 KiB, the
    // L3 from about 400 KiB (softening from 5 MiB), falling to DRAM past 13-20 MiB.
    const auto& l1 = span(level(h, "L1"), "read");
    EXPECT_GE(l1.last_bytes, t * 25 * KiB);
    EXPECT_LE(l1.last_bytes, t * 32 * KiB);
    const auto& l2 = span(level(h, "L2"), "read");
    EXPECT_GE(l2.first_bytes, t * 32 * KiB);
    EXPECT_LE(l2.first_bytes, t * 64 * KiB);
    EXPECT_GE(l2.last_bytes, t * 200 * KiB);
    EXPECT_LE(l2.last_bytes, t * 512 * KiB);
    const auto& l3 = span(level(h, "L3"), "read");
    EXPECT_GE(l3.first_bytes, t * 300 * KiB);
    EXPECT_LE(l3.first_bytes, t * 820 * KiB);
    EXPECT_GT(l3.bytes_per_s, t * 60e9);
    EXPECT_GT(level(h, "L3").measured_bytes, 12 * MiB);
    EXPECT_LT(level(h, "L3").measured_bytes, 40 * MiB);
    const auto& dram = span(level(h, "DRAM"), "read");
    EXPECT_GT(dram.bytes_per_s, t * 13e9);
    EXPECT_LT(dram.bytes_per_s, t * 19e9);
    EXPECT_GE(dram.first_bytes, 16 * MiB);
  }
}

TEST(HierarchyRecordings, Zen3ProbeSweepsNeitherInventALevelNorOverrideHwloc) {
  // The model the old detector wrote on the Zen 3 VM: it called 64 KiB-5.2 MiB "L2" against
  // hwloc's 512 KiB and 6.6-10.5 MiB "L3", and used both measured sizes.
  for (int t : {1, 2}) {
    SCOPED_TRACE(testing::Message() << t << " threads");
    const Hierarchy h = detect_hierarchy(recorded_model("machine-zen3-vm-levels.json", t),
                                         os(32 * KiB, 512 * KiB, 32 * MiB, t));
    ASSERT_EQ(names(h), kFour);
    for (const auto& l : h.levels)
      EXPECT_NE(l.decision, CacheSizeDecision::replaced) << l.name << ": " << l.why;
    EXPECT_EQ(level(h, "L2").used_bytes, t * 512 * KiB);
    EXPECT_LT(span(level(h, "L2"), "read").last_bytes, t * 1 * MiB);
    EXPECT_LE(span(level(h, "L3"), "read").first_bytes, t * 1 * MiB);
    EXPECT_EQ(level(h, "L3").used_bytes, 32 * MiB);
    // One pass each: the noise came from neighbouring points, and says so.
    for (const auto& n : h.noise) {
      EXPECT_EQ(n.passes, 1);
      EXPECT_FALSE(n.from_passes);
    }
  }
}

// --- Zen 5 (family 1Ah): hwloc's 508 MiB L3 is the host's. ---------------------------------

TEST(HierarchyRecordings, Zen5SweepsOfOnePassFindTheL3ButDoNotReplaceHwlocOnOnePass) {
  const std::int64_t l3 = 508 * MiB;
  for (int t : {1, 2}) {
    SCOPED_TRACE(testing::Message() << t << " threads");
    const char* file = "recording-zen5-vm-likwid-bench-sweep.csv";
    for (const Hierarchy& h :
         {detect_hierarchy({{"read", {recorded_sweep(file, "load_avx512", t)}},
                            {"copy", {recorded_sweep(file, "copy_avx512", t)}}},
                           os(48 * KiB, 1 * MiB, l3, t)),
          detect_hierarchy(recorded_model("machine-zen5-vm-levels.json", t),
                           os(48 * KiB, 1 * MiB, l3, t))}) {
      ASSERT_EQ(names(h), kFour);
      EXPECT_EQ(level(h, "L1").decision, CacheSizeDecision::confirmed);
      EXPECT_EQ(level(h, "L2").decision, CacheSizeDecision::confirmed);
      // The step down near 16-32 MiB is seen, but once: the size is kept, and the reason given.
      const HierarchyLevel& L3 = level(h, "L3");
      EXPECT_EQ(L3.decision, CacheSizeDecision::inconclusive);
      EXPECT_EQ(L3.used_bytes, l3);
      EXPECT_NE(L3.why.find("swept once"), std::string::npos) << L3.why;
      // Its ceiling is measured where it serves: a plateau inside 1-40 MiB, not past the step.
      const auto& s = span(L3, "read");
      EXPECT_GE(s.first_bytes, t * 1 * MiB);
      EXPECT_LE(s.last_bytes, 41 * MiB);
      EXPECT_GT(s.bytes_per_s, t * 80e9);
    }
  }
}

TEST(HierarchyRecordings, Zen5ProbeReadSweepsWithARampAndABusyDramKeepFourLevels) {
  for (const char* file : {"recording-zen5-vm-ridgeline-read-sweep-2thr.csv",
                           "recording-zen5-vm-ridgeline-read-sweep-2thr-busy-dram.csv"}) {
    SCOPED_TRACE(file);
    const Hierarchy h = detect_hierarchy({{"read", {recorded_sweep(file, "read_avx512", 2)}}},
                                         os(48 * KiB, 1 * MiB, 508 * MiB, 2));
    ASSERT_EQ(names(h), kFour);
    // The L2-L3 ramp (2-3.3 MiB) is not the L3's plateau: 4-20 MiB at about 200 GB/s is.
    const auto& l3 = span(level(h, "L3"), "read");
    EXPECT_GE(l3.first_bytes, 2 * MiB);
    EXPECT_GT(l3.bytes_per_s, 190e9);
    EXPECT_LT(l3.bytes_per_s, 230e9);
    EXPECT_GT(span(level(h, "DRAM"), "read").bytes_per_s, 40e9);
    EXPECT_LT(span(level(h, "DRAM"), "read").bytes_per_s, 70e9);
  }
}

// --- Zen 4 (family 19h, model 11h): three interleaved passes of each sweep. -----------------

TEST(HierarchyRecordings, Zen4ThreePassSweepsConfirmHwlocAndReplaceALyingOne) {
  for (int t : {1, 2}) {
    SCOPED_TRACE(testing::Message() << t << " threads");
    const auto sweeps = recorded_model("machine-zen4-vm-passes.json", t);
    ASSERT_EQ(sweeps.size(), 2u);
    ASSERT_EQ(sweeps[0].passes.size(), 3u);
    const Hierarchy truth = detect_hierarchy(sweeps, os(32 * KiB, 1 * MiB, 32 * MiB, t));
    ASSERT_EQ(names(truth), kFour);
    for (const char* n : {"L1", "L2", "L3"})
      EXPECT_EQ(level(truth, n).decision, CacheSizeDecision::confirmed) << level(truth, n).why;
    for (const auto& n : truth.noise) {
      EXPECT_EQ(n.passes, 3);
      EXPECT_TRUE(n.from_passes);
      EXPECT_LT(n.relative, 0.1);
    }
    // The same sweeps under an OS that reports the host's 508 MiB L3: read and copy, three
    // passes each, step down between 8 and 160 MiB, so the measured size is used.
    const Hierarchy lying = detect_hierarchy(sweeps, os(32 * KiB, 1 * MiB, 508 * MiB, t));
    ASSERT_EQ(names(lying), kFour);
    const HierarchyLevel& l3 = level(lying, "L3");
    EXPECT_EQ(l3.decision, CacheSizeDecision::replaced) << l3.why;
    EXPECT_EQ(l3.used_bytes, l3.measured_bytes);
    EXPECT_GT(l3.used_bytes, 16 * MiB);
    EXPECT_LT(l3.used_bytes, 64 * MiB);
    // And under one that reports every size 4x too small, L1 and L3 are measured.
    const Hierarchy small = detect_hierarchy(sweeps, os(8 * KiB, 256 * KiB, 8 * MiB, t));
    ASSERT_EQ(names(small), kFour);
    EXPECT_EQ(level(small, "L1").decision, CacheSizeDecision::replaced) << level(small, "L1").why;
    EXPECT_GT(level(small, "L1").used_bytes, t * 32 * KiB);
    EXPECT_LT(level(small, "L1").used_bytes, t * 48 * KiB);
  }
}

// --- Synthetic sweeps -------------------------------------------------------------------------

using testing_support::Level;
using testing_support::Noise;
using testing_support::synthetic_pass;

std::vector<KernelSweeps> synthetic(const std::vector<Level>& read, const std::vector<Level>& copy,
                                    const Noise& noise, int passes, unsigned seed,
                                    std::int64_t to = 512 * MiB) {
  std::mt19937 gen(seed);
  std::vector<KernelSweeps> out{{"read", {}}, {"copy", {}}};
  for (int p = 0; p < passes; ++p) {  // interleaved, as the probe measures them
    out[0].passes.push_back(synthetic_pass(read, noise, gen, to));
    out[1].passes.push_back(synthetic_pass(copy, noise, gen, to));
  }
  return out;
}

// A Zen 3-like VM: 32 KiB, 512 KiB, an L3 that softens from 4 MiB where the VM's share ends
// and steps to DRAM at 16 MiB; hwloc right (32 MiB L3, within 2x of where it ends).
const std::vector<Level> kZen3Read = {
    {140, 32 * KiB}, {90, 320 * KiB}, {72, 14 * MiB, 4 * MiB, 0.7}, {16, 0}};
const std::vector<Level> kZen3Copy = {
    {160, 32 * KiB}, {90, 320 * KiB}, {67, 13 * MiB, 4 * MiB, 0.75}, {17, 0}};

TEST(HierarchySynthetic, AVmWithATruthfulOsAndASoftL3KeepsEverySizeAcrossSeeds) {
  for (unsigned seed = 1; seed <= 100; ++seed) {
    SCOPED_TRACE(seed);
    const Hierarchy h = detect_hierarchy(synthetic(kZen3Read, kZen3Copy, {}, 3, seed),
                                         os(32 * KiB, 512 * KiB, 32 * MiB, 1));
    for (const auto& l : h.levels) {
      std::printf("%s %s %s\n", l.name.c_str(), to_string(l.decision).c_str(), l.why.c_str());
      for (auto& s : l.spans)
        std::printf("   %s %lld-%lld %.1f\n", s.kernel.c_str(), (long long)s.first_bytes >> 10,
                    (long long)s.last_bytes >> 10, s.bytes_per_s / 1e9);
    }
    ASSERT_EQ(names(h), kFour);  // the soft slope is no level of its own
    for (const char* n : {"L1", "L2", "L3"}) {
      EXPECT_NE(level(h, n).decision, CacheSizeDecision::replaced) << level(h, n).why;
      EXPECT_EQ(level(h, n).used_bytes, level(h, n).reported_bytes);
    }
    // The L2 to L3 step (20%) can drown in a seed's noise (the OS's size is then kept, as
    // inconclusive); the others cannot.
    EXPECT_EQ(level(h, "L1").decision, CacheSizeDecision::confirmed) << level(h, "L1").why;
    EXPECT_EQ(level(h, "L3").decision, CacheSizeDecision::confirmed) << level(h, "L3").why;
    // The L3's ceiling goes where it serves at its own rate, before the slope.
    const auto& l3 = span(level(h, "L3"), "read");
    EXPECT_GT(l3.bytes_per_s, 65e9);
    EXPECT_LE(l3.first_bytes, 1 * MiB);
    EXPECT_LE(l3.last_bytes, 10 * MiB);
  }
}

TEST(HierarchySynthetic, ALyingOsIsReplacedOnRepeatedSweepsAndKeptOnOne) {
  // A Zen 5-like VM: hwloc reports the host's 508 MiB L3; the L3 a core sees ends at 24 MiB.
  const std::vector<Level> read = {{380, 48 * KiB}, {165, 1 * MiB}, {100, 24 * MiB}, {40, 0}};
  const std::vector<Level> copy = {{420, 48 * KiB}, {160, 1 * MiB}, {90, 20 * MiB}, {38, 0}};
  for (unsigned seed = 1; seed <= 100; ++seed) {
    SCOPED_TRACE(seed);
    const auto three = synthetic(read, copy, {}, 3, seed);
    const Hierarchy h = detect_hierarchy(three, os(48 * KiB, 1 * MiB, 508 * MiB, 1));
    ASSERT_EQ(names(h), kFour);
    const HierarchyLevel& l3 = level(h, "L3");
    EXPECT_EQ(l3.decision, CacheSizeDecision::replaced) << l3.why;
    EXPECT_GE(l3.used_bytes, 16 * MiB);
    EXPECT_LE(l3.used_bytes, 36 * MiB);
    EXPECT_EQ(level(h, "L1").used_bytes, 48 * KiB);
    // The first pass alone is not enough.
    std::vector<KernelSweeps> one = three;
    for (auto& k : one) k.passes.resize(1);
    const Hierarchy single = detect_hierarchy(one, os(48 * KiB, 1 * MiB, 508 * MiB, 1));
    const HierarchyLevel& once = level(single, "L3");
    EXPECT_EQ(once.decision, CacheSizeDecision::inconclusive);
    EXPECT_EQ(once.used_bytes, 508 * MiB);
  }
}

TEST(HierarchySynthetic, AStepOneKernelDoesNotShowIsInconclusive) {
  // Read steps at 4 MiB where the OS says 32 MiB; copy stays flat to 32 MiB.
  const std::vector<Level> read = {{140, 32 * KiB}, {90, 512 * KiB}, {72, 4 * MiB}, {16, 0}};
  const std::vector<Level> copy = {{160, 32 * KiB}, {90, 512 * KiB}, {70, 30 * MiB}, {17, 0}};
  const Hierarchy h = detect_hierarchy(synthetic(read, copy, {0.03, 0, 1}, 3, 7),
                                       os(32 * KiB, 512 * KiB, 32 * MiB, 1));
  const HierarchyLevel& l3 = level(h, "L3");
  EXPECT_EQ(l3.decision, CacheSizeDecision::inconclusive) << l3.why;
  EXPECT_EQ(l3.used_bytes, 32 * MiB);
  EXPECT_NE(l3.why.find("copy"), std::string::npos) << l3.why;
}

TEST(HierarchySynthetic, ALevelTheOsDoesNotReportNeedsEveryKernelAndPass) {
  // An L4 (a memory-side cache) at 60 GB/s from 32 to 256 MiB, in read and copy, every pass.
  const std::int64_t to = 2048 * MiB;
  const std::vector<Level> l4 = {
      {380, 48 * KiB}, {165, 1 * MiB}, {100, 32 * MiB}, {60, 256 * MiB}, {25, 0}};
  const Hierarchy seen = detect_hierarchy(synthetic(l4, l4, {0.03, 0, 1}, 3, 3, to),
                                          os(48 * KiB, 1 * MiB, 32 * MiB, 1));
  EXPECT_EQ(names(seen), (std::vector<std::string>{"L1", "L2", "L3", "L3-DRAM", "DRAM"}));
  EXPECT_EQ(level(seen, "L3-DRAM").decision, CacheSizeDecision::extra);
  // The same plateau in read only is no level: it lies between L3 and DRAM.
  const std::vector<Level> plain = {{380, 48 * KiB}, {165, 1 * MiB}, {100, 32 * MiB}, {25, 0}};
  auto sweeps = synthetic(l4, plain, {0.03, 0, 1}, 3, 3, to);
  EXPECT_EQ(names(detect_hierarchy(sweeps, os(48 * KiB, 1 * MiB, 32 * MiB, 1))), kFour);
}

TEST(HierarchySynthetic, TheSameSweepUnderDifferentNoiseSeedsGivesTheSameLevels) {
  // The property: levels, decisions and (within a point) the measured steps do not depend on
  // which noise the host added, for VM-like noise (5% per point, 4% of points 30% slow).
  const std::vector<Level> read = {{380, 48 * KiB}, {165, 1 * MiB}, {100, 24 * MiB}, {40, 0}};
  const std::vector<Level> copy = {{420, 48 * KiB}, {160, 1 * MiB}, {90, 20 * MiB}, {38, 0}};
  for (const auto& [l2, l3] : {std::pair{1 * MiB, 508 * MiB}, std::pair{1 * MiB, 32 * MiB}}) {
    const Hierarchy reference =
        detect_hierarchy(synthetic(read, copy, {}, 3, 100), os(48 * KiB, l2, l3, 1));
    for (unsigned seed = 101; seed <= 200; ++seed) {
      SCOPED_TRACE(seed);
      const Hierarchy h =
          detect_hierarchy(synthetic(read, copy, {}, 3, seed), os(48 * KiB, l2, l3, 1));
      ASSERT_EQ(names(h), names(reference));
      for (std::size_t i = 0; i < h.levels.size(); ++i) {
        EXPECT_EQ(h.levels[i].decision, reference.levels[i].decision) << h.levels[i].why;
        EXPECT_EQ(h.levels[i].used_bytes > 0, reference.levels[i].used_bytes > 0);
        if (reference.levels[i].measured_bytes > 0) {
          const double ratio =
              double(h.levels[i].measured_bytes) / reference.levels[i].measured_bytes;
          EXPECT_GE(ratio, 0.5);  // the step's ends within three points of the reference's
          EXPECT_LE(ratio, 2.0);
        }
      }
    }
  }
}

TEST(HierarchySynthetic, PassesOfDifferentWorkingSetsAndNoSweepsAreRefused) {
  EXPECT_THROW(detect_hierarchy({}, {}), std::invalid_argument);
  EXPECT_THROW(detect_hierarchy({{"read", {}}}, {}), std::invalid_argument);
  EXPECT_THROW(detect_hierarchy({{"read", {{{4096, 1e9}, {8192, 1e9}}, {{4096, 1e9}}}}}, {}),
               std::invalid_argument);
  EXPECT_THROW(detect_hierarchy({{"read", {{{4096, 1e9}}, {{5000, 1e9}}}}}, {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace ridgeline
