// The fleet analysis: the pooled rank test is the two-sample one, a node made slower in one
// case is found and named with its bound, a fleet with none flags none, ceilings are read
// against the median, and merged runs split by host (or rank).
#include "ridgeline/analysis/fleet.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "compared_runs.hpp"
#include "ridgeline/analysis/rank_tests.hpp"
#include "ridgeline/core/run_json.hpp"
#include "scratch_dir.hpp"

namespace ridgeline {
namespace {

std::vector<double> normal_sample(std::mt19937_64& rng, int n, double mean, double sd) {
  std::normal_distribution<double> d(mean, sd);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(d(rng));
  return v;
}

TEST(RankPool, EachMemberIsTestedAsAgainstTheRestWrittenOut) {
  std::mt19937_64 rng(7);
  // Exact (a member of at most 8 values, no ties) and asymptotic (more values; ties).
  for (const auto& [members, size, round] :
       {std::tuple{12, 5, false}, {6, 12, false}, {9, 6, true}, {3, 2, false}}) {
    std::vector<std::vector<double>> sample;
    std::vector<double> all;
    for (int m = 0; m < members; ++m) {
      auto v = normal_sample(rng, size, m == 1 ? 1.5 : 1.0, 0.4);
      if (round)
        for (double& x : v) x = std::round(x * 4) / 4;
      all.insert(all.end(), v.begin(), v.end());
      sample.push_back(v);
    }
    const RankPool pool(all);
    for (int m = 0; m < members; ++m) {
      std::vector<double> rest;
      for (int o = 0; o < members; ++o)
        if (o != m) rest.insert(rest.end(), sample[o].begin(), sample[o].end());
      SCOPED_TRACE(::testing::Message() << members << " x " << size << " member " << m);
      const MannWhitney pooled = pool.test(sample[m]), direct = mann_whitney_u(sample[m], rest);
      EXPECT_DOUBLE_EQ(pooled.u, direct.u);
      EXPECT_NEAR(pooled.p, direct.p, 1e-12);
      EXPECT_EQ(pooled.method, direct.method);
      const ShiftEstimate a = pool.shift(sample[m], 0.05),
                          b = hodges_lehmann(rest, sample[m], 0.05);
      EXPECT_DOUBLE_EQ(a.estimate, b.estimate);
      EXPECT_DOUBLE_EQ(a.low, b.low);
      EXPECT_DOUBLE_EQ(a.high, b.high);
      EXPECT_DOUBLE_EQ(a.confidence, b.confidence);
    }
  }
}

TEST(RankPool, RefusesASampleThatIsTheWholePool) {
  const RankPool pool({1.0, 2.0});
  EXPECT_THROW((void)pool.test(std::vector<double>{1.0, 2.0}), std::invalid_argument);
}

// `nodes` members with `cases` gemm-like cases of `reps` repetitions at `noise` (lognormal
// sd); `slow` nodes made `factor` slower in case 0 (memory-bound; the others compute-bound).
std::vector<FleetMember> synthetic_fleet(std::uint64_t seed, int nodes, int cases, int reps,
                                         double noise, int slow, double factor) {
  std::mt19937_64 rng(seed);
  std::vector<FleetMember> out;
  for (int n = 0; n < nodes; ++n) {
    FleetMember m;
    m.name = "node-" + std::to_string(n);
    for (int c = 0; c < cases; ++c) {
      FleetCaseSamples s;
      s.key.op = "gemm";
      s.key.backend = "cpu.packed_avx2";
      s.key.params = "m=" + std::to_string(64 * (c + 1));
      s.name = "gemm/" + s.key.params;
      s.bound = c == 0 ? "DRAM" : "compute";
      const double scale = (n < slow && c == 0 ? factor : 1.0) * 1e-3 * (c + 1);
      for (double z : normal_sample(rng, reps, 0, noise)) s.seconds.push_back(scale * std::exp(z));
      m.cases.push_back(s);
    }
    out.push_back(m);
  }
  return out;
}

TEST(Fleet, ANodeFivePercentSlowerInOneCaseIsNamedWithItsBound) {
  const Fleet f = analyse_fleet(synthetic_fleet(1, 40, 6, 5, 0.01, 1, 1.05), {});
  ASSERT_EQ(f.nodes.size(), 40u);
  EXPECT_EQ(f.out_of_family, 1);
  EXPECT_EQ(f.tested, 240);
  const FleetNode& worst = f.nodes.front();
  EXPECT_EQ(worst.name, "node-0");
  EXPECT_TRUE(worst.out_of_family);
  EXPECT_EQ(worst.slower, 1);
  EXPECT_EQ(worst.cells[0].verdict, FleetVerdict::slower);
  EXPECT_NEAR(worst.cells[0].ratio, 1.05, 0.01);
  EXPECT_GT(worst.cells[0].low, 1.02);
  EXPECT_NE(worst.summary.find("1 of 6 cases slower: DRAM-bound 1 of 1 (+5%)"), std::string::npos)
      << worst.summary;
  for (std::size_t n = 1; n < f.nodes.size(); ++n) {
    EXPECT_FALSE(f.nodes[n].out_of_family) << f.nodes[n].name << ": " << f.nodes[n].summary;
    EXPECT_NE(f.nodes[n].summary.find("in family"), std::string::npos);
  }
  EXPECT_EQ(f.cases[0].bound, "DRAM");
  EXPECT_EQ(f.cases[0].nodes, 40);
  EXPECT_TRUE(f.notes.empty());
}

// The targets at a size a unit test affords: found in at least 95% of fleets, and a
// fleet with no slow node flagged in at most 5%.
TEST(Fleet, FindsTheSlowNodeAndFlagsNoneWhereThereIsNone) {
  int found = 0, false_alarms = 0;
  const int fleets = 40;
  for (int seed = 0; seed < fleets; ++seed) {
    const Fleet slow = analyse_fleet(synthetic_fleet(100 + seed, 30, 8, 5, 0.01, 1, 1.05), {});
    found += slow.out_of_family == 1 && slow.nodes.front().name == "node-0";
    const Fleet none = analyse_fleet(synthetic_fleet(900 + seed, 30, 8, 5, 0.01, 0, 1.0), {});
    false_alarms += none.out_of_family > 0;
  }
  EXPECT_GE(found, fleets * 95 / 100);
  EXPECT_LE(false_alarms, fleets * 5 / 100);
}

TEST(Fleet, CeilingsAreReadAgainstTheFleetsMedian) {
  auto members = synthetic_fleet(3, 5, 2, 5, 0.01, 0, 1.0);
  for (std::size_t n = 0; n < members.size(); ++n) {
    MachineModel m;
    MemoryCeiling copy;
    copy.level = "DRAM";
    copy.kernel = "copy";
    copy.threads = 1;
    copy.bytes_per_s = (n == 2 ? 0.89 : 1.0 + 0.01 * static_cast<double>(n)) * 20e9;
    m.memory.push_back(copy);
    members[n].machine = m;
  }
  const Fleet f = analyse_fleet(members, {});
  ASSERT_EQ(f.ceilings.size(), 1u);
  EXPECT_EQ(f.ceilings[0].name, "DRAM copy, 1 thread");
  EXPECT_EQ(f.ceilings[0].nodes, 5);
  EXPECT_EQ(f.out_of_family, 1);
  EXPECT_EQ(f.nodes.front().name, "node-2");
  EXPECT_NEAR(f.nodes.front().ceilings[0], 0.89 / 1.01, 1e-9);  // the median: node-1
  EXPECT_NE(f.nodes.front().summary.find("DRAM copy, 1 thread -12% against the fleet's median"),
            std::string::npos)
      << f.nodes.front().summary;
}

TEST(Fleet, ACaseANodeLacksOrFailedIsUntestedWithTheReason) {
  auto members = synthetic_fleet(4, 4, 3, 5, 0.01, 0, 1.0);
  members[1].cases.erase(members[1].cases.begin() + 2);
  members[2].cases[1].passed = false;
  const Fleet f = analyse_fleet(members, {});
  const auto node = [&](const std::string& name) {
    for (const auto& n : f.nodes)
      if (n.name == name) return n;
    return FleetNode{};
  };
  EXPECT_EQ(node("node-1").cells[2].verdict, FleetVerdict::untested);
  EXPECT_EQ(node("node-1").cells[2].reason, "not in this member's runs");
  EXPECT_FALSE(node("node-1").out_of_family);  // lacking a case is not a wrong answer
  EXPECT_EQ(node("node-2").cells[1].reason,
            "it failed validation here where 3 other members passed it");
  EXPECT_EQ(node("node-0").cells[1].rest, 10);  // node-2's failed repetitions left out
  EXPECT_EQ(f.tested, 10);
  // A wrong answer where the others passed is out of family, ahead of any slow node.
  EXPECT_TRUE(node("node-2").cells[1].failed);
  EXPECT_EQ(node("node-2").failed, 1);
  EXPECT_TRUE(node("node-2").out_of_family);
  EXPECT_EQ(f.nodes.front().name, "node-2");
  EXPECT_NE(node("node-2").summary.find("1 case failed validation here and passed elsewhere: "),
            std::string::npos)
      << node("node-2").summary;
  EXPECT_EQ(f.out_of_family, 1);
}

TEST(Fleet, ACaseEveryMemberFailedIsNoOnesFault) {
  auto members = synthetic_fleet(3, 2, 3, 5, 0.01, 0, 1.0);
  for (auto& m : members) m.cases[0].passed = false;
  const Fleet f = analyse_fleet(members, {});
  EXPECT_EQ(f.out_of_family, 0);
  for (const auto& n : f.nodes) EXPECT_FALSE(n.cells[0].failed) << n.name;
}

TEST(Fleet, TooFewRepetitionsToFindAnythingIsSaid) {
  const Fleet f = analyse_fleet(synthetic_fleet(5, 3, 4, 1, 0.01, 1, 1.5), {});
  EXPECT_EQ(f.out_of_family, 0);
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_NE(f.notes[0].find("1 repetitions against 2 can reach p = 0.67 at best"),
            std::string::npos)
      << f.notes[0];
  EXPECT_TRUE(f.underpowered);  // `fleet` exits 1: a test that could not fail passed nothing
  EXPECT_FALSE(analyse_fleet(synthetic_fleet(5, 3, 4, 5, 0.01, 1, 1.5), {}).underpowered);
}

class FleetFiles : public ScratchDirTest {
 protected:
  FleetFiles() : ScratchDirTest("ridgeline-fleet-") {}
};

TEST_F(FleetFiles, AMergedRunSplitsByHostOrByRank) {
  ridgeline::Run run;
  run.context.host_name = "alpha";
  const std::vector<std::pair<int, std::string>> ranks = {
      {0, "alpha"}, {1, "alpha"}, {2, "beta"}, {3, "beta"}};
  for (const auto& [rank, host] : ranks) {
    ridgeline::Run one;
    compared_runs::add_case(one, "cpu.packed_avx2", {1.0 + rank, 1.1 + rank, 1.2 + rank});
    for (auto& row : one.benchmarks) {
      row.ridgeline->origin = RankOrigin{rank, host};
      run.benchmarks.push_back(row);
    }
  }
  const auto file = dir_ / "merged.json";
  write_run_file(file, run);
  std::vector<std::string> notes;
  const auto hosts = read_fleet_members({file}, false, notes);
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0].name, "alpha");
  EXPECT_EQ(hosts[0].ranks, 2);
  ASSERT_EQ(hosts[0].cases.size(), 1u);
  EXPECT_EQ(hosts[0].cases[0].seconds.size(), 6u);  // both ranks' repetitions
  EXPECT_EQ(hosts[1].name, "beta");
  const auto by_rank = read_fleet_members({file}, true, notes);
  ASSERT_EQ(by_rank.size(), 4u);
  EXPECT_EQ(by_rank[3].name, "rank 3");
  ASSERT_EQ(by_rank[3].cases[0].seconds.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_NEAR(by_rank[3].cases[0].seconds[i], 4e-3 + 1e-4 * static_cast<double>(i), 1e-15);
  EXPECT_TRUE(notes.empty());

  // A run of one process is its host's; the same host in a second file is pooled, and said.
  ridgeline::Run single;
  single.context.host_name = "alpha";
  compared_runs::add_case(single, "cpu.packed_avx2", {1.0});
  const auto other = dir_ / "alpha.json";
  write_run_file(other, single);
  const auto pooled = read_fleet_members({file, other}, false, notes);
  ASSERT_EQ(pooled.size(), 2u);
  EXPECT_EQ(pooled[0].cases[0].seconds.size(), 7u);
  EXPECT_EQ(pooled[0].sources.size(), 2u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "alpha is in more than one file: their repetitions are pooled");
}

}  // namespace
}  // namespace ridgeline
