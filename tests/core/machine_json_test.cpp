#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <vector>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {

namespace fs = std::filesystem;

namespace {
std::string error_reading(const nlohmann::json& j) {
  fs::path p =
      fs::temp_directory_path() / ("ridgeline_machine_" + std::to_string(::getpid()) + ".json");
  std::ofstream(p) << j.dump();
  try {
    read_machine_file(p);
  } catch (const InputError& e) {
    fs::remove(p);
    return e.what();
  }
  fs::remove(p);
  return "";
}
}  // namespace

TEST(MachineModelJson, RecordedProbeRoundTrips) {
  MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  EXPECT_FALSE(m.fingerprint.empty());
  EXPECT_GT(m.measured_clock_hz, 1e9);
  EXPECT_FALSE(m.compute.empty());
  EXPECT_FALSE(m.memory.empty());
  fs::path p =
      fs::temp_directory_path() / ("ridgeline_machine_rt_" + std::to_string(::getpid()) + ".json");
  write_machine_file(p, m);
  EXPECT_EQ(read_machine_file(p), m);
  fs::remove(p);
}

TEST(MachineModelJson, AnEmulatedProbeSaysSoAndOlderFilesAreNot) {
  MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  EXPECT_EQ(m.emulated, "");  // written before the field
  m.emulated = "emulated: qemu-user";
  fs::path p =
      fs::temp_directory_path() / ("ridgeline_machine_em_" + std::to_string(::getpid()) + ".json");
  write_machine_file(p, m);
  EXPECT_EQ(read_machine_file(p).emulated, "emulated: qemu-user");
  fs::remove(p);
}

TEST(MachineModelJson, GpuCeilingsAndGpusRoundTripAndOldFilesAreCpu) {
  MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  for (const auto& c : m.compute) EXPECT_EQ(c.device, Device::cpu);  // written before GPUs
  EXPECT_TRUE(m.gpus.empty());
  m.gpus.push_back(
      {0, "NVIDIA H100 80GB HBM3", "9.0", 132, std::int64_t{85} << 30, 50 << 20, 1.98e9});
  ComputeCeiling tensor;
  tensor.name = "gpu.bf16.cublaslt";
  tensor.dtype = "bf16";
  tensor.per_second = 7.5e14;
  tensor.device = Device::gpu;
  tensor.method = "cuBLASLt GEMM 8192^3, uniform data";
  m.compute.push_back(tensor);
  MemoryCeiling hbm;
  hbm.level = "HBM";
  hbm.kernel = "copy";
  hbm.bytes_per_s = 3e12;
  hbm.device = Device::gpu;
  m.memory.push_back(hbm);
  m.overhead.push_back({"gpu.launch", 2.5e-6, MetricSource::timed, Device::gpu, "empty kernels"});
  m.gpu_reason = "";
  fs::path p =
      fs::temp_directory_path() / ("ridgeline_machine_gpu_" + std::to_string(::getpid()) + ".json");
  write_machine_file(p, m);
  EXPECT_EQ(read_machine_file(p), m);
  fs::remove(p);
}

// Schema 2: the memory sweeps and the levels found in them (a real Zen 5 probe), beside
// hwloc's sizes; schema-1 files read with none.
TEST(MachineModelJson, MeasuredLevelsAndSweepsRoundTripAndSchema1HasNone) {
  MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  EXPECT_EQ(m.schema, 2);
  ASSERT_FALSE(m.sweeps.empty());
  ASSERT_FALSE(m.levels.empty());
  for (const auto& s : m.sweeps) EXPECT_EQ(s.working_set_bytes.size(), s.bytes_per_s.size());
  const auto l3 = std::find_if(m.levels.begin(), m.levels.end(), [](const MeasuredLevel& l) {
    return l.name == "L3" && l.kernel == "read" && l.threads == 1;
  });
  ASSERT_NE(l3, m.levels.end());
  EXPECT_EQ(l3->reported_bytes, std::int64_t{508} << 20);  // hwloc on the Zen 5 VM
  EXPECT_TRUE(l3->disagrees);
  EXPECT_LT(l3->capacity_bytes, std::int64_t{64} << 20);
  fs::path p =
      fs::temp_directory_path() / ("ridgeline_machine_lv_" + std::to_string(::getpid()) + ".json");
  write_machine_file(p, m);
  EXPECT_EQ(read_machine_file(p), m);
  fs::remove(p);
  const MachineModel old = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  EXPECT_EQ(old.schema, 1);
  EXPECT_TRUE(old.levels.empty());
  EXPECT_TRUE(old.sweeps.empty());
}

// Probe method 7: every pass of each sweep, its noise, and what was kept of each OS size and
// why (a real Zen 4 probe); older models read as one pass, their decisions from `disagrees`.
TEST(MachineModelJson, SweepPassesNoiseAndSizeDecisionsRoundTripAndOlderModelsInferThem) {
  const MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm-passes.json");
  ASSERT_FALSE(m.sweeps.empty());
  for (const auto& s : m.sweeps) {
    ASSERT_EQ(s.passes.size(), 3u);
    for (const auto& pass : s.passes) EXPECT_EQ(pass.size(), s.working_set_bytes.size());
    EXPECT_GT(s.noise, 0);
  }
  bool confirmed = false;
  for (const auto& l : m.levels) {
    confirmed |= l.decision == CacheSizeDecision::confirmed && !l.why.empty();
    EXPECT_EQ(l.decision == CacheSizeDecision::memory, l.name == "DRAM");
  }
  EXPECT_TRUE(confirmed);
  EXPECT_EQ(machine_from_json(to_json(m), "test", ""), m);
  const MachineModel old = read_machine_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  for (const auto& s : old.sweeps) EXPECT_TRUE(s.passes.empty());
  for (const auto& l : old.levels) {
    EXPECT_EQ(l.decision, l.disagrees        ? CacheSizeDecision::replaced
                          : l.name == "DRAM" ? CacheSizeDecision::memory
                                             : CacheSizeDecision::confirmed);
    EXPECT_TRUE(l.why.empty());
  }
  nlohmann::json bad = to_json(m);
  bad["sweeps"][0]["passes"][1].erase(0);
  EXPECT_NE(error_reading(bad).find("sweeps[0].passes: must hold one array"), std::string::npos);
  bad = to_json(m);
  bad["levels"][0]["decision"] = "guessed";
  EXPECT_NE(error_reading(bad).find("levels[0].decision: must be confirmed, inconclusive"),
            std::string::npos);
}

TEST(MachineModelJson, EachWidthsRateAndThePhaseTimesRoundTripAndOlderModelsHaveNone) {
  MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  for (const auto& c : m.memory) EXPECT_TRUE(c.widths.empty());  // probed before they were kept
  EXPECT_TRUE(m.phases.empty());
  ASSERT_FALSE(m.memory.empty());
  m.memory[0].widths = {{"scalar", 5.5e10}, {"avx2", 2.1e11}, {"avx512", 4.27e11}};
  m.phases = {{"clock", 0.2}, {"sweep read 1 thread", 2.4}, {"ceilings 2 threads", 3.6}};
  const nlohmann::json j = to_json(m);
  EXPECT_EQ(j["memory"][0]["widths"][1]["isa"], "avx2");
  EXPECT_EQ(j["phases"][1]["name"], "sweep read 1 thread");
  EXPECT_EQ(machine_from_json(j, "test", ""), m);
  nlohmann::json bad = j;
  bad["memory"][0]["widths"][2]["bytes_per_s"] = -1;
  EXPECT_NE(error_reading(bad).find("memory[0].widths[2].bytes_per_s: expected a rate above 0"),
            std::string::npos);
  bad = j;
  bad["phases"][0]["seconds"] = "slow";
  EXPECT_NE(error_reading(bad).find("phases[0].seconds: expected a number"), std::string::npos);
}

// The check's working set (where likwid-bench and ours ran: larger than the ceiling's in L1)
// round-trips; a check written before it was kept reads as 0, the ceiling's.
TEST(MachineModelJson, TheChecksWorkingSetRoundTripsAndOlderChecksHaveNone) {
  MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  ASSERT_FALSE(m.memory.empty());
  m.memory[0].check = CeilingCheck{"likwid-bench", "load_avx", 2.17e11, 22200, 1.023};
  nlohmann::json j = to_json(m);
  EXPECT_EQ(j["memory"][0]["check"]["working_set_bytes"], 22200);
  EXPECT_EQ(machine_from_json(j, "test", ""), m);
  j["memory"][0]["check"].erase("working_set_bytes");
  EXPECT_EQ(machine_from_json(j, "test", "").memory[0].check->working_set_bytes, 0);
}

TEST(MachineModelJson, TheNetworksCeilingsRoundTripAndOlderModelsHaveNone) {
  MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  EXPECT_TRUE(m.network.empty());
  EXPECT_EQ(m.network_reason, "");
  NetworkCeiling c;
  c.scope = "intra-node";
  c.pattern = "allreduce";
  c.ranks = 4;
  c.bytes = 1 << 20;
  c.seconds = 2e-4;
  c.bytes_per_s = 5.24e9;
  c.bus_bytes_per_s = 7.86e9;
  c.method = "MPI_Allreduce of f32 sums";
  NetworkCeiling nccl = c;
  nccl.device = Device::gpu;
  nccl.method = "NCCL 2.28.9: ncclAllReduce of f32 sums";
  m.network = {c, nccl};
  m.network_reason = "no inter-node point to point: every rank on rank 0's host";
  nlohmann::json j = to_json(m);
  EXPECT_EQ(j["network"][0]["bus_bytes_per_s"], 7.86e9);
  EXPECT_EQ(j["network"][1]["device"], "gpu");
  EXPECT_EQ(machine_from_json(j, "test", ""), m);
  j["network"][1].erase("device");  // a model from before NCCL's ceilings: MPI's, host buffers
  EXPECT_EQ(machine_from_json(j, "test", "").network[1].device, Device::cpu);
  nlohmann::json bad = j;
  bad["network"][0]["ranks"] = 1;
  EXPECT_NE(error_reading(bad).find("network[0].ranks: a network needs 2 ranks or more, got 1"),
            std::string::npos)
      << error_reading(bad);
  bad = j;
  bad["network"][0]["bytes_per_s"] = -3;
  EXPECT_NE(
      error_reading(bad).find("network[0].bytes_per_s: expected a number from 0 to 1e+18, got -3"),
      std::string::npos);
}

TEST(MachineModel, PlacementUsesTheMeasuredCacheOnlyWhereHwlocIsMoreThan2xOff) {
  const MachineModel zen5 = read_machine_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  EXPECT_EQ(cache_bytes_for_placement(zen5, MemoryLevel::l1),
            zen5.l1d_bytes);  // hwloc agrees: kept
  EXPECT_EQ(cache_bytes_for_placement(zen5, MemoryLevel::l2), zen5.l2_bytes);
  const std::int64_t l3 = cache_bytes_for_placement(zen5, MemoryLevel::l3);
  EXPECT_NE(l3, zen5.l3_bytes);  // hwloc's 508 MiB: the measured capacity instead
  EXPECT_GT(l3, std::int64_t{8} << 20);
  EXPECT_LT(l3, std::int64_t{64} << 20);
  EXPECT_EQ(cache_bytes_for_placement(zen5, MemoryLevel::main), 0);
  const MachineModel zen4 = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  EXPECT_EQ(cache_bytes_for_placement(zen4, MemoryLevel::l3),
            zen4.l3_bytes);  // schema 1: no levels
}

TEST(MachineModelJson, ErrorsNameTheField) {
  nlohmann::json j = read_json_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  nlohmann::json bad = j;
  bad["schema"] = 7;
  EXPECT_NE(error_reading(bad).find(": schema: machine schema version 7 is not supported"),
            std::string::npos);
  bad = j;
  bad["compute"][2]["per_second"] = "fast";
  EXPECT_NE(error_reading(bad).find("compute[2].per_second: expected a number, got string"),
            std::string::npos);
  bad = j;
  bad["memory"][0]["bytes_per_s"] = -1;
  EXPECT_NE(
      error_reading(bad).find(
          "memory[0].bytes_per_s: expected a rate above 0 and at most 1e+18 per second, got -1"),
      std::string::npos);
  nlohmann::json two = read_json_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  bad = two;
  bad["sweeps"][1]["bytes_per_s"].erase(0);
  EXPECT_NE(error_reading(bad).find("sweeps[1].bytes_per_s: needs one rate per working set"),
            std::string::npos);
  bad = two;
  bad["levels"][0]["first_bytes"] = "small";
  EXPECT_NE(error_reading(bad).find("levels[0].first_bytes: expected"), std::string::npos);
  bad = j;
  bad["cpu"].erase("cores");
  EXPECT_NE(error_reading(bad).find("cpu.cores: missing"), std::string::npos);
}

TEST(MachineModelJson, ImplausibleNumbersAreRefusedNamingTheField) {
  // A cache file anyone can edit is checked like any input: each of these is one line
  // naming the field, never a model used.
  const nlohmann::json j = read_json_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  const std::vector<std::tuple<std::string, nlohmann::json, std::string>> cases = {
      {"/compute/0/per_second", 1e308,
       "compute[0].per_second: expected a rate above 0 and at most 1e+18 per second, got 1e+308"},
      {"/compute/0/per_second", 0, "compute[0].per_second: expected a rate above 0"},
      {"/compute/1/clock_hz", -1e9, "compute[1].clock_hz: expected 0 (not measured) or a clock"},
      {"/compute/1/threads", 0, "compute[1].threads: expected an integer from 1 to 1048576, got 0"},
      {"/memory/3/bytes_per_s", -5e9, "memory[3].bytes_per_s: expected a rate above 0"},
      {"/memory/3/threads", 1000000000, "memory[3].threads: expected an integer from 1 to"},
      {"/cpu/cores", -5, "cpu.cores: expected an integer from 0 to 1048576, got -5"},
      {"/cpu/measured_clock_hz", -1e9,
       "cpu.measured_clock_hz: expected 0 (not measured) or a clock from 1e+07 to 1e+11 Hz, got "
       "-1e+09"},
      {"/caches/l2_bytes", -1, "caches.l2_bytes: expected an integer from 0 to"},
      {"/memory_bytes", -4096, "memory_bytes: expected an integer from 0 to"},
      {"/overhead/0/seconds", -1e-9, "overhead[0].seconds: expected a number from 0 to 86400"},
      {"/levels/0/bytes_per_s", 1e300, "levels[0].bytes_per_s: expected a rate above 0"},
      {"/levels/0/first_bytes", -7, "levels[0].first_bytes: expected an integer from 0 to"},
      {"/sweeps/0/bytes_per_s/3", 1e300,
       "sweeps[0].bytes_per_s: must hold finite numbers that are not negative"},
      {"/sweeps/0/noise", -1, "sweeps[0].noise: expected a number from 0 to"},
  };
  for (const auto& [pointer, value, expected] : cases) {
    SCOPED_TRACE(pointer);
    nlohmann::json bad = j;
    bad[nlohmann::json::json_pointer(pointer)] = value;
    const std::string error = error_reading(bad);
    EXPECT_NE(error.find(": " + expected), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
  EXPECT_EQ(error_reading(j), "") << "every recorded model is plausible";
  for (const char* name :
       {"machine-zen4-vm.json", "machine-zen4-vm-passes.json", "machine-zen3-vm-levels.json"})
    EXPECT_EQ(error_reading(read_json_file(std::string(RIDGELINE_FIXTURES) + "/" + name)), "")
        << name;
}

TEST(MachineModelJson, ListsLongerThanAnyProbeWritesAreRefusedBeforeTheyCostMemory) {
  const nlohmann::json j = read_json_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  nlohmann::json bad = j;
  for (int i = 0; i < 5000; ++i) bad["levels"].push_back(j["levels"][0]);
  EXPECT_NE(
      error_reading(bad).find(": levels: 5020 entries, more than any probe writes (at most 4096)"),
      std::string::npos)
      << error_reading(bad);
  bad = j;
  for (int i = 0; i < 300; ++i) bad["sweeps"][0]["passes"].push_back(j["sweeps"][0]["bytes_per_s"]);
  EXPECT_NE(error_reading(bad).find("sweeps[0].passes: 300 entries"), std::string::npos);
  // A file larger than any model is refused before it is parsed.
  const fs::path p =
      fs::temp_directory_path() / ("ridgeline_machine_big_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream out(p);
    nlohmann::json big = j;
    big["why"] = std::string(std::size_t{17} << 20, 'x');
    out << big.dump();
  }
  try {
    read_machine_file(p);
    ADD_FAILURE() << "read";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              p.string() +
                  ": 17 MiB, larger than any machine model (a probe writes well under "
                  "1 MiB; at most 16 MiB are read)");
  }
  fs::remove(p);
}

TEST(MachineModelJson, RunsEmbedTheModelAndReadItBack) {
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  ASSERT_TRUE(run.context.machine);
  EXPECT_EQ(run.context.machine->cpu_model, run.context.cpu_model);
  nlohmann::json j = to_json(run);
  EXPECT_EQ(j["context"]["ridgeline"]["machine"]["schema"], 1);
  ridgeline::Run written = run;  // a schema-1 file is written again as this build's schema
  written.context.schema = kRunSchemaVersion;
  ASSERT_EQ(written.notes.size(), 1u);  // roles inferred in the schema-1 file: not once written
  EXPECT_NE(written.notes[0].find("a schema-1 run: each kernel's role"), std::string::npos);
  written.notes.clear();
  EXPECT_EQ(run_from_json(j, "x"), written);
  j["context"]["ridgeline"]["machine"]["compute"][0]["threads"] = "one";
  try {
    run_from_json(j, "run.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("run.json: context.ridgeline.machine.compute[0].threads"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace ridgeline
