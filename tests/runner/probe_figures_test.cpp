// Two figures the probe had wrong on the AMX VM (#63, item 7): the call overhead, an empty
// kernel's run() through its virtual dispatch, which the compiler had removed (a unity batch
// let it see the kernel's type: the model held 2e-16 s, printed "0.00 ns"); and main memory
// measured at 128 MiB, twice the 64 MiB L3, where likwid-bench still read 40% above DRAM.
#include <gtest/gtest.h>

#include "probe_memory.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline {

TEST(ProbeCallOverhead, IsTheTimeOfARealCall) {
  ProbeOptions options;
  options.only = "^call$";
  options.trials = 1;
  options.seconds_per_measurement = 0.02;
  const MachineModel m = probe_machine(options, [](const std::string&) {});
  ASSERT_EQ(m.overhead.size(), 1u);
  // An indirect call and return take a cycle or more at any clock below 10 GHz; nothing of a
  // microsecond is a call.
  EXPECT_GT(m.overhead[0].seconds, 1e-10) << m.overhead[0].seconds;
  EXPECT_LT(m.overhead[0].seconds, 1e-6) << m.overhead[0].seconds;
}

// The AMX VM's 1-thread read levels (shared/recordings/intel-amx-vm/probe-machine.json): L3
// ends at 57 MiB, the DRAM plateau spans 64-256 MiB, whose middle (128 MiB) was used.
TEST(ProbeWorkingSets, MainMemoryIsMeasuredAtFourTimesTheLargestCache) {
  MachineModel m;
  m.memory_bytes = std::uint64_t{16} << 30;
  constexpr std::int64_t MiB = std::int64_t{1} << 20;
  auto level = [](const char* name, std::int64_t first, std::int64_t last, std::int64_t step) {
    MeasuredLevel l;
    l.name = name;
    l.kernel = "read";
    l.first_bytes = first;
    l.last_bytes = last;
    l.capacity_bytes = step;
    return l;
  };
  m.levels = {level("L1", 4 << 10, 40 << 10, 48 << 10), level("L2", 64 << 10, MiB, 2 * MiB),
              level("L3", 4 * MiB, 50 * MiB, 57 * MiB), level("DRAM", 64 * MiB, 256 * MiB, 0)};
  const auto sets = working_sets(m, 1, [](const std::string&) {});
  ASSERT_EQ(sets.size(), 4u);
  EXPECT_EQ(sets[3].first, "DRAM");
  EXPECT_EQ(sets[3].second, 4 * 57 * MiB);
  EXPECT_LT(sets[2].second, 57 * MiB);  // the caches keep the middle of their plateaus
  // Within the sweep's budget: a quarter of the memory, 512 MiB at most.
  m.memory_bytes = std::uint64_t{512} << 20;
  EXPECT_EQ(working_sets(m, 1, [](const std::string&) {})[3].second, 128 * MiB);
}

// The same recording's two-thread levels: the L3 step at 72 MiB, 4x of which (287 MiB) lies
// past the end of the sweep (256 MiB, where main memory was flat): the ceiling stays inside
// the plateau the sweep found, as every ceiling does.
TEST(ProbeWorkingSets, MainMemoryStaysWithinThePlateauTheSweepFound) {
  MachineModel m;
  m.memory_bytes = std::uint64_t{16} << 30;
  constexpr std::int64_t MiB = std::int64_t{1} << 20;
  auto level = [](const char* name, std::int64_t first, std::int64_t last, std::int64_t step) {
    MeasuredLevel l;
    l.name = name;
    l.kernel = "read";
    l.threads = 2;
    l.first_bytes = first;
    l.last_bytes = last;
    l.capacity_bytes = step;
    return l;
  };
  m.levels = {
      level("L1", 8 << 10, 80 << 10, 101 << 10), level("L2", 128 << 10, 1625 << 10, 3649 << 10),
      level("L3", 8 * MiB, 64 * MiB, 73561 << 10), level("DRAM", 82570 << 10, 256 * MiB, 0)};
  const auto sets = working_sets(m, 2, [](const std::string&) {});
  ASSERT_EQ(sets.size(), 4u);
  EXPECT_EQ(sets[3].first, "DRAM");
  EXPECT_EQ(sets[3].second, 256 * MiB);
  for (std::size_t i = 0; i < sets.size(); ++i) {
    EXPECT_GE(sets[i].second, m.levels[i].first_bytes) << sets[i].first;
    EXPECT_LE(sets[i].second, m.levels[i].last_bytes) << sets[i].first;
  }
}

}  // namespace ridgeline
