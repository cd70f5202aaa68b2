#pragma once
// The words every module shares, typed, each spelled once (core/src/vocabulary.cpp):
// `to_string` is the spelling in JSON and on the command line, `display_name` the one
// people read in reports and the dashboard, `parse_*` reads the JSON spelling back.
// No module compares these as strings (tests/core/vocabulary_test.cpp looks).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ridgeline/core/dtype.hpp"

namespace ridgeline {

// Where a kernel runs, and so whose ceilings place it.
enum class Device { cpu, gpu };
std::string_view to_string(Device device);
std::string_view display_name(Device device);  // "CPU", "GPU"
std::optional<Device> parse_device(std::string_view text);

// What a kernel is for in the suites and reports: a rung of the matmul ladder (our own
// code, simplest to fastest), a fused op, the same op as an eager chain of separate passes
// (the fused kernel's baseline), or a vendor library (BLAS, oneDNN, cuBLAS, Eigen).
enum class KernelRole { ladder, fused, unfused, vendor };
std::string_view to_string(KernelRole role);
std::optional<KernelRole> parse_kernel_role(std::string_view text);

// The unit a kernel's arithmetic runs on, and a compute ceiling's: a CPU core's vector (and
// scalar) units or its matrix engine (Intel AMX's tiles), a GPU's CUDA cores (SIMT) or its
// tensor cores. One dtype can have a roof on each (bf16: vdpbf16ps and TDPBF16PS); a kernel
// is placed under its own unit's roof, with the fastest unit's beside it.
enum class ComputeUnit { vector, matrix, simt, tensor };
std::string_view to_string(ComputeUnit unit);
std::string_view display_name(ComputeUnit unit);  // "vector units", "matrix engine", ...
std::optional<ComputeUnit> parse_compute_unit(std::string_view text);
// A device's general-purpose unit: the vector units of a CPU, the CUDA cores of a GPU.
ComputeUnit default_compute_unit(Device device);
// A kernel's unless it says otherwise: on a GPU, the matrix products (gemm, gemm_bias_act,
// attention, einsum) of the types only tensor cores multiply (tf32, bf16, f16, i8) run on
// them, everything else on the device's general-purpose unit. A CPU kernel on a matrix
// engine declares it itself (Kernel::compute_unit).
ComputeUnit default_compute_unit(Device device, std::string_view op, DType dtype);
// Files from before the unit was recorded: a compute ceiling's from its name ("bf16.amx" ->
// matrix; the GPU's "gpu.<dtype>.mma_sync" and its cuBLASLt ceilings of tensor-core types ->
// tensor); a case's is its device's default (no kernel ran on an engine then).
ComputeUnit inferred_ceiling_unit(std::string_view name, std::string_view dtype, Device device);

// Where a case's operands are when each timed call starts. warm: wherever the previous
// call left them (in cache when they fit; the CPU's default, Google Benchmark's way). cold:
// flushed from every cache level before each call, the flush untimed (the CPU's `--cache
// cold`); the GPU harness is always cold (it rotates operand copies past its L2).
enum class CacheState { warm, cold };
std::string_view to_string(CacheState state);
std::optional<CacheState> parse_cache_state(std::string_view text);

// What became of a case. Not a bool: "did not run" has several honest reasons. `error`
// and `skipped` are Google Benchmark's own (SkipWithError, SkipWithMessage) in foreign
// results; Ridgeline's validation gives the others.
enum class Disposition {
  passed,
  incorrect,
  not_supported,
  not_verified,
  crashed,
  timed_out,
  error,
  skipped
};
std::string_view to_string(Disposition disposition);
std::optional<Disposition> parse_disposition(std::string_view text);

// The family a kernel is compared within: a fused/unfused pair's common stem ("cpu",
// "cpu.avx2"), or "blas" for the BLAS libraries the ladder is measured against; "" for
// none. Recorded in each result from schema 3 on.
inline constexpr std::string_view kBlasFamily = "blas";

// What runs of schemas 1 and 2 did not record, guessed once (in the reader) from the
// backend's name as those builds spelled it: "cpu.avx2_fused" is fused in family
// "cpu.avx2", "blas.openblas" a vendor in family "blas", "cuda.cublas" a vendor.
KernelRole inferred_role(std::string_view backend);
std::string inferred_family(std::string_view backend);
Device inferred_device(std::string_view backend);  // "cuda." is the GPU's

// How an einsum kernel lowers a contraction (docs/einsum.md), as the kernel declares it
// (KernelInfo::lowering): the direct loop nest; transpose-GEMM-transpose, as frameworks run
// it (operands permuted to batched matrices around a GEMM); a GEMM or a library's contraction
// on the operands where they lie, through leading dimensions and strides (no copy); GETT
// (the GEMM's panels gathered from the tensors' strides, no copy).
enum class LoweringKind { loop_nest, ttgt, strided, gett };
std::string_view to_string(LoweringKind kind);
std::optional<LoweringKind> parse_lowering_kind(std::string_view text);

// One step of a lowering: an operand permuted into another index order (a copy: memory
// traffic and no FLOPs), a GEMM on dense matrices, a GEMM or a library's contraction on the
// operands' strided view, GETT's GEMM on panels gathered from the strides, the loop nest.
enum class StepKind { permute, gemm, strided_view, gathered, loop_nest };
std::string_view to_string(StepKind kind);
std::optional<StepKind> parse_step_kind(std::string_view text);

// A step as its kernel declares it (Kernel::lowering_steps): its kind, the key of the
// kernel's note that says how it ran ("A", whose note is "permuted bthr -> bhtr") and the
// pass that laps it ("permute_A"; "" where the kernel does not lap it).
struct LoweringStep {
  StepKind kind = StepKind::gemm;
  std::string note;
  std::string pass;
  bool operator==(const LoweringStep&) const = default;
};

// How an einsum case was lowered ("lowering" in the Run): its kernel's kind and, once the
// kernel was prepared, its steps in the order they run.
struct Lowering {
  LoweringKind kind = LoweringKind::loop_nest;
  std::vector<LoweringStep> steps;
  bool operator==(const Lowering&) const = default;
};

// What einsum results written before the lowering was recorded did not say, read once (in
// the reader) as those builds spelled it: the kind from the backend's name ("cpu.ttgt" and
// every "….ttgt" are TTGT; "cpu.strided", "blas.<library>", "cpu.eigen", "vendor.onednn"
// and "cuda.cublas" the strided view; "cpu.gett", "cpu.loops"), the steps from the kernel's
// notes (a TTGT operand's "permuted …" is a permute, lapped as "permute_<operand>"); nullopt
// for another op or a backend those builds did not have.
std::optional<Lowering> inferred_lowering(std::string_view op, std::string_view backend,
                                          const std::map<std::string, std::string>& notes);

// The levels a case's bytes are counted at and a roofline is drawn against, from the core
// outwards: L1, L2, L3, the device's main memory (DRAM on a CPU, HBM on a GPU), and the
// network a collective op's ranks send over (its work model's bytes: what each rank sends,
// nccl-tests' bus bytes), placed under the network roof of the scope the case ran in (the
// communication-aware roofline). A level the probe found between two others keeps the name
// it was measured under ("L3-DRAM"); level_rank puts it after the known ones.
enum class MemoryLevel { l1, l2, l3, main, network };
inline constexpr MemoryLevel kCacheLevels[] = {MemoryLevel::l1, MemoryLevel::l2, MemoryLevel::l3};
inline constexpr MemoryLevel kMemoryLevels[] = {MemoryLevel::l1, MemoryLevel::l2, MemoryLevel::l3,
                                                MemoryLevel::main};
// The spelling in JSON (a WorkModel's bytes) and in metric names: "L1", "L2", "L3", "dram",
// "network".
std::string_view to_string(MemoryLevel level);
std::optional<MemoryLevel> parse_byte_level(std::string_view text);  // to_string's spelling only
// As reports, ceilings and placements name it: "L1", "L2", "L3", "DRAM" or "HBM", "network".
std::string_view display_name(MemoryLevel level, Device device = Device::cpu);
// "L1".."L3", "DRAM" or "HBM" (either device's main memory), or the metric spelling "dram".
std::optional<MemoryLevel> parse_memory_level(std::string_view name);
// The order from the core outwards: L1 0, L2 1, L3 2, DRAM 3, HBM 4, any other name 5.
int level_rank(std::string_view name);
bool is_main_memory(std::string_view name);  // "DRAM", "HBM" or "dram"
// The level a scope's network bytes and roof go by: "network (inter-node)".
std::string network_level(std::string_view scope);

// The metrics that place a case on the roofline, named alike by every collector, counter
// group and work model: "flops" (its parts "flops.<precision>"), and "bytes.<level>" for the
// bytes a memory level moved, the level spelled by to_string (bytes.dram, bytes.L2).
// MetricNames in tests/collectors/counter_group_test.cpp reads every counter group and
// CUPTI's table.
inline constexpr std::string_view kFlopsMetric = "flops";
// The memory level of a "bytes.<level>" metric ("bytes.dram" -> main); nullopt for any other
// name ("bytes.network" too: no counter reads the network). "bytes.DRAM", which the MEM
// counter groups wrote before they were renamed, reads as main memory.
std::optional<MemoryLevel> byte_metric_level(std::string_view metric);
std::string bytes_metric(MemoryLevel level);  // "bytes." + to_string(level)

// A level a roof stands for as placements, ceilings and reports name it ("L2", "DRAM" or
// "HBM", "network (inter-node)", a measured "L3-DRAM"), and what it is: the vocabulary's
// level, none for a level it does not know. The name says what the type does not: whose main
// memory, which network scope, a measured level's own name.
struct RoofLevel {
  std::optional<MemoryLevel> type;
  std::string name;
  static RoofLevel named(std::string name);  // typed by the vocabulary's spellings
  bool operator==(const RoofLevel&) const = default;
};

// The roof that binds a case: compute, a memory level's bandwidth, the runner's call
// overhead (a call cannot take less), or none (no ceilings for it).
struct Bound {
  enum class Kind { none, compute, memory, call_overhead };
  Kind kind = Kind::none;
  RoofLevel level;  // memory: the level, named as MemoryLevel's display_name or network_level

  static Bound compute() { return {Kind::compute, {}}; }
  static Bound memory(std::string level) {
    return {Kind::memory, RoofLevel::named(std::move(level))};
  }
  static Bound call_overhead() { return {Kind::call_overhead, {}}; }
  bool is_compute() const { return kind == Kind::compute; }
  bool is_memory() const { return kind == Kind::memory; }
  bool empty() const { return kind == Kind::none; }
  bool operator==(const Bound&) const = default;
};
// "compute", the level ("DRAM"), "call overhead", or "" for none: the spelling in reports,
// the dashboard and the CSV.
std::string to_string(const Bound& bound);

}  // namespace ridgeline
