#pragma once
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/metric.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

// 2: the memory hierarchy by measurement (levels, sweeps). Version 1 files still read.
inline constexpr int kMachineSchemaVersion = 2;

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
  double clock_hz = 0;  // measured right around the loop (0: files from before schema 2)
  int threads = 1;
  MetricSource source = MetricSource::timed;
  Device device = Device::cpu;  // a GPU ceiling: threads then means nothing
  std::string method;           // how it was measured, when the name does not say
  // The unit it was measured on (vocabulary.hpp): a kernel on that unit is placed under it.
  ComputeUnit compute_unit = ComputeUnit::vector;
  bool operator==(const ComputeCeiling&) const = default;
};

// A compute ceiling this machine or process cannot have, with why: a unit the CPU lacks
// (the CPUID bit), or one it has that cannot run here (the kernel refused the AMX tiles).
struct AbsentCeiling {
  std::string name;    // "bf16.amx"
  std::string dtype;   // "bf16"
  std::string unit;    // "FLOP/s" or "OP/s"
  std::string reason;  // "no AMX: CPUID.(EAX=7,ECX=0):EDX[24] (AMX-TILE) is clear"
  bool operator==(const AbsentCeiling&) const = default;
};

// The same ceiling measured again by an independent tool in the same probe (likwid-bench's
// kernel of the same kind and instruction width, at the same working set and threads).
struct CeilingCheck {
  std::string tool;  // "likwid-bench"
  std::string test;  // its test: "load_avx", "copy_avx512"
  double bytes_per_s = 0;
  // Where both ran: the ceiling's working set, or more inside its level where one sweep of it
  // would be too short for likwid-bench's per-sweep call (likwid_check_working_set); 0 in older
  // models (the ceiling's).
  std::int64_t working_set_bytes = 0;
  // Our rate at that width / the tool's: both the best of runs taking turns (the probe
  // measures its kernel again before each of the tool's runs), else the ceiling's own rate.
  double ratio = 0;
  // Within 5% of the tool: what the probe warns about and `probe --check` gates on.
  static constexpr double kTolerance = 0.05;
  bool agrees() const { return ratio >= 1 - kTolerance && ratio <= 1 + kTolerance; }
  bool operator==(const CeilingCheck&) const = default;
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
  Device device = Device::cpu;
  std::string method;
  // Every instruction width's rate at this working set, as timed (`isa` is the fastest);
  // empty in models from before these were kept.
  std::vector<std::pair<std::string, double>> widths;
  std::optional<CeilingCheck> check;  // absent where none ran (MachineModel::check_reason)
  bool operator==(const MemoryCeiling&) const = default;
};

// One bandwidth-against-working-set sweep of the probe: the rate of one kernel at one
// instruction width and thread count, working sets of all threads together, measured in
// passes over the same working sets (interleaved with the other kernel's passes).
struct MemorySweep {
  std::string kernel;  // "read", "copy"
  std::string isa;
  int threads = 1;
  std::vector<std::int64_t> working_set_bytes;
  std::vector<double> bytes_per_s;  // one per working set: the median of the passes
  // Every pass's rates, one per working set each; empty in models from before passes (then
  // bytes_per_s is the one pass).
  std::vector<std::vector<double>> passes;
  // The per-point standard deviation of log rate across the passes (or, with one pass,
  // estimated from neighbouring points): the noise the level detector allows for.
  double noise = 0;
  bool operator==(const MemorySweep&) const = default;
};

// What the probe kept of the OS's size of a cache level (docs/roofline.md).
enum class CacheSizeDecision {
  confirmed,     // the sweeps step down within 2x of the OS's size: the OS's size is used
  inconclusive,  // the sweeps neither confirm nor contradict it strongly: the OS's size is used
  replaced,      // strong, repeated evidence of another size: the measured size is used
  extra,         // a level the OS does not report, shown by every kernel and pass
  memory,        // DRAM: no size
};
std::string to_string(CacheSizeDecision decision);
std::optional<CacheSizeDecision> cache_size_decision_from(const std::string& text);

// A memory level as a sweep measured it: a plateau of the sweep (docs/roofline.md).
struct MeasuredLevel {
  std::string name;  // "L1", "L2", "L3", "DRAM"; "L3-DRAM" for a plateau between the last
                     // cache and DRAM
  std::string kernel;
  int threads = 1;
  std::int64_t first_bytes = 0, last_bytes = 0;  // the plateau's working sets
  double bytes_per_s = 0;                        // median over the plateau
  std::int64_t capacity_bytes = 0;               // the middle of the step down after it; 0 for DRAM
  std::int64_t reported_bytes = 0;  // the OS's (hwloc's) size of this level for these threads;
                                    // 0 when it reports none
  // The measured size replaces the OS's (decision == replaced; kept for older readers).
  bool disagrees = false;
  CacheSizeDecision decision = CacheSizeDecision::confirmed;
  std::string why;  // the evidence for the decision, in a sentence; "" in older models
  bool operator==(const MeasuredLevel&) const = default;
};

// One phase of the probe and its wall time (`probe -v` prints them).
struct ProbePhase {
  std::string name;  // "clock", "peaks", "sweep read 1 thread", "ceilings 2 threads", "call", "gpu"
  double seconds = 0;
  bool operator==(const ProbePhase&) const = default;
};

struct OverheadCeiling {
  std::string name;  // "call", "gpu.launch", "gpu.graph_launch"
  double seconds = 0;
  MetricSource source = MetricSource::timed;
  Device device = Device::cpu;
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

// One point of the network between MPI ranks, measured by `probe --network` under mpirun
// (docs/cluster.md): one message size of one pattern in one scope, OSU's and nccl-tests'
// methods.
struct NetworkCeiling {
  std::string scope;  // "intra-node" (ranks on one host) or "inter-node" (on different hosts)
  // Whose buffers moved: cpu, host memory through MPI; gpu, device memory through NCCL.
  Device device = Device::cpu;
  std::string pattern;     // "latency", "bandwidth", "bibw", "allreduce", "allgather",
                           // "reduce_scatter", "alltoall"
  int ranks = 2;           // ranks taking part
  std::int64_t bytes = 0;  // the message (point to point) or nccl-tests' size (collectives)
  double seconds = 0;      // per operation; one way for latency
  double bytes_per_s = 0;  // algorithm bandwidth, bytes / seconds (bibw: both directions)
  // nccl-tests' bus bandwidth: algbw x 2(n-1)/n for allreduce, x (n-1)/n for allgather,
  // reduce_scatter and alltoall; point to point, the algorithm bandwidth.
  double bus_bytes_per_s = 0;
  MetricSource source = MetricSource::timed;
  std::string method;
  bool operator==(const NetworkCeiling&) const = default;
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
  // "" where the probe ran on the hardware itself; else how it found itself emulated (an
  // AArch64 build under qemu-user): every figure in this model is then the emulator's.
  std::string emulated;
  std::int64_t l1d_bytes = 0, l2_bytes = 0, l3_bytes = 0;
  std::uint64_t memory_bytes = 0;
  std::string byte_convention;  // how memory ceilings count bytes
  std::vector<ComputeCeiling> compute;
  std::vector<AbsentCeiling> absent_compute;  // each class the probe knows but could not run
  std::vector<MemoryCeiling> memory;
  std::vector<OverheadCeiling> overhead;
  std::vector<MemorySweep> sweeps;
  std::vector<MeasuredLevel> levels;
  std::vector<GpuDescription> gpus;
  std::string gpu_reason;  // why there is no GPU ceiling, when there is none
  // Why some memory ceilings carry no check against likwid-bench ("likwid-bench is not on
  // PATH", "only the 1-thread read and copy are checked; probe --check checks all"); "" when
  // every one does.
  std::string check_reason;
  double probe_seconds = 0;
  std::vector<ProbePhase> phases;       // in the order they ran; empty in older models
  std::vector<NetworkCeiling> network;  // from `probe --network` under mpirun; else empty
  std::string network_reason;           // why `network` is empty or lacks a scope
  bool operator==(const MachineModel&) const = default;
};

// The size of cache level L1, L2 or L3 (per core, as hwloc reports it) the analysis
// places working sets with and the kernels block for: hwloc's, or the capacity the 1-thread
// read sweep measured where the probe replaced hwloc's on repeated evidence (a VM reporting
// the host's L3; `disagrees`). 0 when neither knows it.
std::int64_t cache_bytes_for_placement(const MachineModel& machine, MemoryLevel level);

nlohmann::json to_json(const MachineModel& machine);
// Errors name `origin` and the field, as for Run documents.
MachineModel machine_from_json(const nlohmann::json& json, const std::string& origin,
                               const std::string& path);
MachineModel read_machine_file(const std::filesystem::path& file);
void write_machine_file(const std::filesystem::path& file, const MachineModel& machine);

}  // namespace ridgeline
