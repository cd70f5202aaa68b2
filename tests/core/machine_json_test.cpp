#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

TEST(MachineModelJson, GpuCeilingsAndGpusRoundTripAndOldFilesAreCpu) {
  MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  for (const auto& c : m.compute) EXPECT_EQ(c.device, "cpu");  // written before GPUs
  EXPECT_TRUE(m.gpus.empty());
  m.gpus.push_back(
      {0, "NVIDIA H100 80GB HBM3", "9.0", 132, std::int64_t{85} << 30, 50 << 20, 1.98e9});
  ComputeCeiling tensor;
  tensor.name = "gpu.bf16.cublaslt";
  tensor.dtype = "bf16";
  tensor.per_second = 7.5e14;
  tensor.device = "gpu";
  tensor.method = "cuBLASLt GEMM 8192^3, uniform data";
  m.compute.push_back(tensor);
  MemoryCeiling hbm;
  hbm.level = "HBM";
  hbm.kernel = "copy";
  hbm.bytes_per_s = 3e12;
  hbm.device = "gpu";
  m.memory.push_back(hbm);
  m.overhead.push_back({"gpu.launch", 2.5e-6, MetricSource::timed, "gpu", "empty kernels"});
  m.gpu_reason = "";
  fs::path p =
      fs::temp_directory_path() / ("ridgeline_machine_gpu_" + std::to_string(::getpid()) + ".json");
  write_machine_file(p, m);
  EXPECT_EQ(read_machine_file(p), m);
  fs::remove(p);
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
  EXPECT_NE(error_reading(bad).find("memory[0].bytes_per_s: must not be negative"),
            std::string::npos);
  bad = j;
  bad["cpu"].erase("cores");
  EXPECT_NE(error_reading(bad).find("cpu.cores: missing"), std::string::npos);
}

TEST(MachineModelJson, RunsEmbedTheModelAndReadItBack) {
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  ASSERT_TRUE(run.context.machine);
  EXPECT_EQ(run.context.machine->cpu_model, run.context.cpu_model);
  nlohmann::json j = to_json(run);
  EXPECT_EQ(j["context"]["ridgeline"]["machine"]["schema"], 1);
  ridgeline::Run written = run;  // a schema-1 file is written again as this build's schema
  written.context.schema = kRunSchemaVersion;
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
