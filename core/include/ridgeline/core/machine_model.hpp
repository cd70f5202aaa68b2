#pragma once
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/metric.hpp"

namespace ridgeline {

inline constexpr int kMachineSchemaVersion = 1;

// Peak arithmetic throughput of one instruction class, measured by a microbenchmark.
struct ComputeCeiling {
  std::string name;             // "f64.avx512.fma"
  std::string dtype;            // "f64", "f32", "bf16", "i8"
  std::string isa;              // "scalar", "avx2", "avx512", "avx512_bf16", "avx512_vnni"
  std::string unit = "FLOP/s";  // "OP/s" for integer dot products
  double per_second = 0;        // measured
  // cores x measured clock x operations per cycle of this core's design; 0 when the
  // design is not in the table (then theoretical_reason says so).
  double theoretical_per_second = 0;
  std::string theoretical_reason;
  int threads = 1;
  MetricSource source = MetricSource::timed;
  std::string device = "cpu";  // "gpu": a GPU ceiling (threads then means nothing)
  std::string method;          // how it was measured, when the name does not say
  bool operator==(const ComputeCeiling&) const = default;
};

// Sustained bandwidth of one memory level and access kernel.
struct MemoryCeiling {
  std::string level;   // "L1", "L2", "L3", "DRAM"
  std::string kernel;  // "read", "write", "copy", "triad"
  std::string isa;     // instruction width that reached it: "scalar", "avx2", "avx512"
  double bytes_per_s = 0;
  std::int64_t working_set_bytes = 0;  // all arrays of all threads together
  int threads = 1;
  MetricSource source = MetricSource::timed;
  std::string device = "cpu";
  std::string method;
  bool operator==(const MemoryCeiling&) const = default;
};

struct OverheadCeiling {
  std::string name;  // "call", "gpu.launch", "gpu.graph_launch"
  double seconds = 0;
  MetricSource source = MetricSource::timed;
  std::string device = "cpu";
  std::string method;
  bool operator==(const OverheadCeiling&) const = default;
};

// A GPU the probe found.
struct GpuDescription {
  int index = 0;
  std::string name;
  std::string compute_capability;  // "9.0"
  int multiprocessors = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  double max_clock_hz = 0;
  bool operator==(const GpuDescription&) const = default;
};

struct MachineModel {
  int schema = kMachineSchemaVersion;
  std::string fingerprint;  // CPU model, cores, ISA flags, memory: the cache key
  std::string date;
  std::string host;
  std::string ridgeline_version;
  std::string cpu_model;
  std::string cpu_vendor;
  int cpu_family = 0;
  int cpu_model_number = 0;
  int cores = 0;  // cores (hardware threads) this process may use
  std::vector<std::string> isa;
  double measured_clock_hz = 0;
  std::string clock_method;
  std::int64_t l1d_bytes = 0, l2_bytes = 0, l3_bytes = 0;
  std::uint64_t memory_bytes = 0;
  std::string byte_convention;  // how memory ceilings count bytes
  std::vector<ComputeCeiling> compute;
  std::vector<MemoryCeiling> memory;
  std::vector<OverheadCeiling> overhead;
  std::vector<GpuDescription> gpus;
  std::string gpu_reason;  // why there is no GPU ceiling, when there is none
  double probe_seconds = 0;
  bool operator==(const MachineModel&) const = default;
};

nlohmann::json to_json(const MachineModel& machine);
// Errors name `origin` and the field, as for Run documents.
MachineModel machine_from_json(const nlohmann::json& json, const std::string& origin,
                               const std::string& path);
MachineModel read_machine_file(const std::filesystem::path& file);
void write_machine_file(const std::filesystem::path& file, const MachineModel& machine);

}  // namespace ridgeline
