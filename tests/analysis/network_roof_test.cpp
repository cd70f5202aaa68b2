// The collective ops on the roofline (issue #41, 3): their work models count network bytes,
// the machine's network ceilings become a roof per scope, and a case is placed under the
// roof of the scope its kernel says it ran in: compute-, memory- or network-bound.
#include <gtest/gtest.h>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/op.hpp"

namespace ridgeline {
namespace {

Problem problem_of(const std::string& op, const std::string& params) {
  Problem p;
  p.op = op;
  p.params = parse_params(op_definition(op), params);
  p.dtype = DType::f32;
  return p;
}

TEST(CollectiveWork, AllreduceCountsTheSumsAndEachRanksBusBytes) {
  const WorkModel w = op_work(problem_of("allreduce", "count=1024,ranks=4"));
  EXPECT_DOUBLE_EQ(w.flops, 1024.0 * 3 / 4);  // each rank sums its quarter from 3 others
  EXPECT_DOUBLE_EQ(w.bytes.at(MemoryLevel::main), 2 * 4096.0);
  EXPECT_DOUBLE_EQ(w.bytes.at(MemoryLevel::network), 2 * 3.0 / 4 * 4096);  // nccl-tests' bus bytes
  // One rank sends nothing.
  EXPECT_DOUBLE_EQ(
      op_work(problem_of("allreduce", "count=8,ranks=1")).bytes.at(MemoryLevel::network), 0);
}

TEST(CollectiveWork, TpGemmIsTheShardsProductThenAnAllreduceOfC) {
  const WorkModel w = op_work(problem_of("tp_gemm", "m=64,n=32,k=128,ranks=2"));
  EXPECT_DOUBLE_EQ(w.flops, 2.0 * 64 * 32 * 64 + 64 * 32 * 0.5);
  EXPECT_DOUBLE_EQ(w.bytes.at(MemoryLevel::main), (64 * 64 + 64 * 32 + 64 * 32) * 4.0);
  EXPECT_DOUBLE_EQ(w.bytes.at(MemoryLevel::network), 2 * 0.5 * 64 * 32 * 4);
  try {
    (void)problem_of("tp_gemm", "m=4,n=4,k=63,ranks=2");
    FAIL() << "k=63 does not split among 2 ranks";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("k=63 does not split evenly among ranks=2"),
              std::string::npos)
        << e.what();
  }
}

MachineModel machine_with_network() {
  MachineModel m;
  m.compute.push_back({"f32.avx2.fma", "f32", "avx2", "FLOP/s", 100e9, 0, "", 0, 1,
                       MetricSource::timed, Device::cpu, ""});
  m.memory.push_back(
      {"DRAM", "copy", "avx2", 20e9, 1 << 30, 1, MetricSource::timed, Device::cpu, "", {}, {}});
  for (const auto& [scope, rate] : {std::pair{"intra-node", 5e9}, {"inter-node", 1e9}})
    for (const auto& [pattern, bytes, share] : {std::tuple{"bandwidth", 1 << 20, 0.8},
                                                {"bandwidth", 1 << 26, 1.0},
                                                {"latency", 1, 0.001},
                                                {"allreduce", 1 << 26, 0.5}}) {
      NetworkCeiling n;
      n.scope = scope;
      n.pattern = pattern;
      n.bytes = bytes;
      n.bytes_per_s = rate * share;
      m.network.push_back(n);
    }
  return m;
}

Run collective_run(const std::string& op, const std::string& params, double ms,
                   const std::string& scope) {
  Run run;
  CaseResult r;
  r.name = r.run_name = op + "/mpi/" + params;
  r.iterations = 10;
  r.real_time = ms;
  r.time_unit = "ms";
  CaseDetails d;
  d.backend = "mpi." + op;
  d.problem = problem_of(op, params);
  d.work = op_work(d.problem);
  d.validation.disposition = Disposition::passed;
  if (!scope.empty()) d.kernel_notes["network_scope"] = scope;
  r.ridgeline = d;
  run.benchmarks.push_back(r);
  return run;
}

TEST(NetworkRoof, EachScopeHasTheLargestPointToPointBandwidthAsItsRoof) {
  const Roof roof = roof_for(machine_with_network(), "f32", 1);
  EXPECT_DOUBLE_EQ(roof.memory.at("network (intra-node)").bytes_per_s, 5e9);
  EXPECT_DOUBLE_EQ(roof.memory.at("network (inter-node)").bytes_per_s, 1e9);
  EXPECT_EQ(roof.memory.at("network (inter-node)").kernel, "bandwidth");
}

TEST(NetworkRoof, NcclsCeilingsRoofTheGpusAndMpisTheCpus) {
  MachineModel m = machine_with_network();
  NetworkCeiling nccl;
  nccl.scope = "intra-node";
  nccl.device = Device::gpu;
  nccl.pattern = "bandwidth";
  nccl.bytes = 1 << 26;
  nccl.bytes_per_s = 300e9;  // NVLink between GPUs: far above the host's 5 GB/s
  m.network.push_back(nccl);
  EXPECT_DOUBLE_EQ(roof_for(m, "f32", 1).memory.at("network (intra-node)").bytes_per_s, 5e9);
  const Roof gpu = roof_for(m, "f32", 1, Device::gpu);
  EXPECT_DOUBLE_EQ(gpu.memory.at("network (intra-node)").bytes_per_s, 300e9);
  EXPECT_EQ(gpu.memory.count("network (inter-node)"), 0u);  // measured by MPI, not NCCL
}

TEST(NetworkRoof, AnAllreduceAcrossHostsIsNetworkBoundUnderTheInterNodeRoof) {
  const MachineModel m = machine_with_network();
  // 16 MiB of f32 among 4 ranks: 24 MiB sent per rank; at the 1 GB/s roof 25.2 ms.
  const auto p = place_results(
      collective_run("allreduce", "count=4194304,ranks=4", 50.0, "inter-node"), &m)[0];
  ASSERT_TRUE(p.placeable) << p.reason;
  EXPECT_EQ(p.bound, Bound::memory("network (inter-node)"));
  EXPECT_EQ(p.level, "network (inter-node)");
  const double sent = 2 * 3.0 / 4 * 4194304 * 4;
  EXPECT_DOUBLE_EQ(p.bytes.at("network (inter-node)"), sent);
  EXPECT_NEAR(p.efficiency, sent / 1e9 / 0.050, 1e-9);
  EXPECT_NE(placement_guidance(p).find("network-bound (network (inter-node))"), std::string::npos)
      << placement_guidance(p);
  // The same case on one host: the intra-node roof, five times higher.
  const auto local = place_results(
      collective_run("allreduce", "count=4194304,ranks=4", 50.0, "intra-node"), &m)[0];
  EXPECT_EQ(local.bound, Bound::memory("network (intra-node)"));
  EXPECT_NEAR(local.efficiency, p.efficiency / 5, 1e-9);
}

TEST(NetworkRoof, ATensorParallelGemmWithALargeShardIsComputeBound) {
  const MachineModel m = machine_with_network();
  // 1024x1024x2048 among 2 ranks: 2.15 GFLOP a rank against 4 MiB sent (512 FLOP/B).
  const auto p = place_results(
      collective_run("tp_gemm", "m=1024,n=1024,k=2048,ranks=2", 40.0, "inter-node"), &m)[0];
  ASSERT_TRUE(p.placeable) << p.reason;
  EXPECT_TRUE(p.bound.is_compute());
  EXPECT_NEAR(p.intensity.at("network (inter-node)"),
              (2.0 * 1024 * 1024 * 1024 + 1024 * 1024 * 0.5) / (1024 * 1024 * 4.0), 1e-9);
  // A thin shard sends as much for 64 times less work: network-bound.
  const auto thin = place_results(
      collective_run("tp_gemm", "m=1024,n=1024,k=32,ranks=2", 10.0, "inter-node"), &m)[0];
  EXPECT_EQ(thin.bound, Bound::memory("network (inter-node)"));
}

TEST(NetworkRoof, WithoutTheScopesCeilingTheNoteSaysHowToMeasureIt) {
  MachineModel m = machine_with_network();
  std::erase_if(m.network, [](const NetworkCeiling& n) { return n.scope == "inter-node"; });
  const auto p =
      place_results(collective_run("allreduce", "count=65536,ranks=2", 1.0, "inter-node"), &m)[0];
  ASSERT_TRUE(p.placeable) << p.reason;
  EXPECT_NE(p.bound, Bound::memory("network (inter-node)"));
  EXPECT_NE(join_notes(p.notes).find("no network (inter-node) ceiling in the machine model: "
                                     "measure it with `mpirun ... ridgeline probe --network"),
            std::string::npos)
      << join_notes(p.notes);
  // A kernel that names no scope: intra-node.
  const auto unnamed =
      place_results(collective_run("allreduce", "count=65536,ranks=2", 1.0, ""), &m)[0];
  EXPECT_EQ(unnamed.bytes.count("network (intra-node)"), 1u);
}

}  // namespace
}  // namespace ridgeline
