// A run's machine load from /proc: the parser on recorded texts (fixtures in the kernel's
// format, named as such here) and the live reading of this process's own CPU time.
#include "machine_load.hpp"

#include <gtest/gtest.h>
#include <time.h>

#include "ridgeline/analysis/noise.hpp"
#include "ridgeline/core/emulation.hpp"

namespace ridgeline {
namespace {

// /proc/stat of the 2-CPU Zen 5 VM, and a /proc/self/stat whose comm holds ") (" and spaces.
constexpr const char* kProcStat =
    "cpu  3340855 629 281775 2752493 4173 0 1157 380 0 0\n"
    "cpu0 1616096 272 137257 1434387 775 0 303 185 0 0\n"
    "cpu1 1724758 356 144517 1318106 3397 0 853 194 0 0\n"
    "intr 1 2 3\nctxt 99\n";
constexpr const char* kSelfStat =
    "6980 (a) (b c) R 6976 6976 30371 0 -1 4194304 133 0 0 0 250 50 100 25 20 0 1 0 9 9 9\n";

TEST(MachineLoad, ParsesTheKernelsFormat) {
  const auto t = parse_cpu_times(kProcStat, kSelfStat, 100);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->cpus, 2);
  EXPECT_DOUBLE_EQ(t->busy_s, (3340855 + 629 + 281775 + 0 + 1157) / 100.0);
  EXPECT_DOUBLE_EQ(t->steal_s, 3.80);
  EXPECT_DOUBLE_EQ(t->self_s, (250 + 50 + 100 + 25) / 100.0);  // utime stime cutime cstime
  EXPECT_FALSE(parse_cpu_times("intr 1\n", kSelfStat, 100).has_value());
  EXPECT_FALSE(parse_cpu_times(kProcStat, "6980 (cut", 100).has_value());
  EXPECT_FALSE(parse_cpu_times(kProcStat, "6980 (x) R 1 2", 100).has_value());
}

TEST(MachineLoad, OthersAreTheMachinesBusyTimeLessOurs) {
  const CpuTimes start{100, 1, 10, 2}, end{112, 1.5, 16, 2};
  const MachineLoad l = machine_load_between(start, end, 10);
  EXPECT_DOUBLE_EQ(l.others_cpu_s, 6);  // 12 busy, 6 of them ours
  EXPECT_DOUBLE_EQ(l.steal_s, 0.5);
  EXPECT_EQ(l.cpus, 2);
  RunContext c;
  c.machine_load = l;  // 6 of 20 CPU-seconds: 30%
  EXPECT_EQ(machine_load_warning(c),
            "other processes used 30% of the 2 CPUs while the run was timed (6.0 CPU-seconds in "
            "10.0 s, /proc/stat)");
  c.machine_load->others_cpu_s = 1;  // 5%: quiet
  EXPECT_EQ(machine_load_warning(c), "");
  c.machine_load->steal_s = 2;  // 10% taken by the hypervisor
  EXPECT_EQ(machine_load_warning(c),
            "the hypervisor took 10% of the CPUs' time (steal, /proc/stat)");
  c.machine_load->steal_s = 0;
  c.machine_load->clock_start_hz = 4.0e9;
  c.machine_load->clock_end_hz = 3.9e9;  // -2.5%: within the 5%
  EXPECT_EQ(machine_load_warning(c), "");
  c.machine_load->clock_end_hz = 3.6e9;
  EXPECT_EQ(machine_load_warning(c),
            "the clock moved from 4.00 to 3.60 GHz between the run's start and end (-10.0%)");
}

// A merged Run (mpirun): rank 0's load counts the job's other ranks on its host, which are
// the job; their CPUs come off the count, and only what is left is other processes.
TEST(MachineLoad, AMergedRunsOtherRanksOnTheHostAreNotLoad) {
  RunContext c;
  MachineLoad l;
  l.wall_s = 10;
  l.cpus = 4;
  l.others_cpu_s = 31;  // three other ranks busy on a CPU each: 30, and 1 more
  c.machine_load = l;
  EXPECT_NE(machine_load_warning(c), "");  // a run of one process: 78% of the CPUs
  for (int r = 0; r < 5; ++r) {
    RankContext rank;
    rank.rank = r;
    rank.host = r < 4 ? "a" : "b";  // four ranks on rank 0's host, one elsewhere
    rank.cpus = {r};
    c.ranks.push_back(rank);
  }
  EXPECT_EQ(machine_load_warning(c), "");  // 1 CPU-second of 40 beyond the ranks: quiet
  c.machine_load->others_cpu_s = 38;       // 8 of 40 beyond them: 20%
  EXPECT_EQ(machine_load_warning(c),
            "other processes used 20% of the 4 CPUs while the run was timed (8.0 CPU-seconds in "
            "10.0 s, /proc/stat; beyond the job's 3 other ranks on this host)");
}

TEST(MachineLoad, ThisProcesssOwnWorkIsItsOwn) {
  const auto start = read_cpu_times();
  if (!start) GTEST_SKIP() << "/proc/stat or /proc/self/stat unreadable here";
  // qemu-user writes its own /proc/self/stat, with no CPU times in it.
  if (const std::string emulated = emulation_reason(); !emulated.empty()) GTEST_SKIP() << emulated;
  // 300 ms of this process's own CPU time (not wall time: on a busy machine the spin is off
  // the CPU part of the time, which is what the load measures).
  const auto cpu_now = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
  };
  const double until = cpu_now() + 0.3;
  volatile double x = 0;
  while (cpu_now() < until) x = x + 1;
  const auto end = read_cpu_times();
  ASSERT_TRUE(end.has_value());
  EXPECT_GT(end->self_s - start->self_s, 0.25);  // the spin is ours, at tick resolution
  EXPECT_GE(end->busy_s - start->busy_s, end->self_s - start->self_s - 0.05);
}

}  // namespace
}  // namespace ridgeline
