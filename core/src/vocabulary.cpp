// Every shared word's spellings, once (vocabulary.hpp), and metric sources' (metric.hpp).
#include "ridgeline/core/vocabulary.hpp"

#include <fmt/format.h>

#include <array>

#include "ridgeline/core/metric.hpp"
#include "ridgeline/core/spelling.hpp"

namespace ridgeline {

namespace {

constexpr std::array<Spelling<MetricSource>, 5> kSources{{
    {MetricSource::counted, "counted", "counted"},
    {MetricSource::timed, "timed", "timed"},
    {MetricSource::analytic, "analytic", "analytic"},
    {MetricSource::derived, "derived", "derived"},
    {MetricSource::sampled, "sampled", "sampled"},
}};

constexpr std::array<Spelling<Disposition>, 8> kDispositions{{
    {Disposition::passed, "passed", "passed"},
    {Disposition::incorrect, "incorrect", "incorrect"},
    {Disposition::not_supported, "not_supported", "not supported"},
    {Disposition::not_verified, "not_verified", "not verified"},
    {Disposition::crashed, "crashed", "crashed"},
    {Disposition::timed_out, "timed_out", "timed out"},
    {Disposition::error, "error", "error"},
    {Disposition::skipped, "skipped", "skipped"},
}};

constexpr std::array<Spelling<Device>, 2> kDevices{{
    {Device::cpu, "cpu", "CPU"},
    {Device::gpu, "gpu", "GPU"},
}};

constexpr std::array<Spelling<CacheState>, 2> kCacheStates{{
    {CacheState::warm, "warm", "warm"},
    {CacheState::cold, "cold", "cold"},
}};

constexpr std::array<Spelling<KernelRole>, 4> kRoles{{
    {KernelRole::ladder, "ladder", "ladder"},
    {KernelRole::fused, "fused", "fused"},
    {KernelRole::unfused, "unfused", "unfused"},
    {KernelRole::vendor, "vendor", "vendor"},
}};

constexpr std::array<Spelling<ComputeUnit>, 4> kComputeUnits{{
    {ComputeUnit::vector, "vector", "vector units"},
    {ComputeUnit::matrix, "matrix", "matrix engine"},
    {ComputeUnit::simt, "simt", "CUDA cores"},
    {ComputeUnit::tensor, "tensor", "tensor cores"},
}};

constexpr std::array<Spelling<LoweringKind>, 4> kLoweringKinds{{
    {LoweringKind::loop_nest, "loop_nest", "loop nest"},
    {LoweringKind::ttgt, "ttgt", "transpose-GEMM-transpose"},
    {LoweringKind::strided, "strided", "strided view"},
    {LoweringKind::gett, "gett", "GETT"},
}};

// A level's JSON and metric spelling, and its name on each device's roofline.
struct LevelSpelling {
  MemoryLevel value;
  std::string_view json;
  std::string_view cpu, gpu;
};

constexpr std::array<LevelSpelling, 5> kLevels{{
    {MemoryLevel::l1, "L1", "L1", "L1"},
    {MemoryLevel::l2, "L2", "L2", "L2"},
    {MemoryLevel::l3, "L3", "L3", "L3"},
    {MemoryLevel::main, "dram", "DRAM", "HBM"},
    {MemoryLevel::network, "network", "network", "network"},
}};

constexpr std::array<Spelling<StepKind>, 5> kStepKinds{{
    {StepKind::permute, "permute", "permute"},
    {StepKind::gemm, "gemm", "GEMM"},
    {StepKind::strided_view, "strided_view", "GEMM on the strided view"},
    {StepKind::gathered, "gathered", "GEMM gathered from the strides"},
    {StepKind::loop_nest, "loop_nest", "loop nest"},
}};

static_assert(spelled_in_order(kSources, MetricSource::sampled));
static_assert(spelled_in_order(kDispositions, Disposition::skipped));
static_assert(spelled_in_order(kDevices, Device::gpu));
static_assert(spelled_in_order(kCacheStates, CacheState::cold));
static_assert(spelled_in_order(kRoles, KernelRole::vendor));
static_assert(spelled_in_order(kComputeUnits, ComputeUnit::tensor));
static_assert(spelled_in_order(kLoweringKinds, LoweringKind::gett));
static_assert(spelled_in_order(kStepKinds, StepKind::loop_nest));
static_assert(spelled_in_order(kLevels, MemoryLevel::network));

bool ends_with_word(std::string_view backend, std::string_view word) {
  if (backend.size() <= word.size() || backend.substr(backend.size() - word.size()) != word)
    return false;
  const char before = backend[backend.size() - word.size() - 1];
  return before == '.' || before == '_';  // "cpu.confused" is not "cpu.con" + "fused"
}

}  // namespace

std::string_view to_string(MetricSource source) {
  return spelling_of(kSources, source).json;
}
std::optional<MetricSource> parse_metric_source(std::string_view text) {
  return value_of<MetricSource>(kSources, text);
}

std::string_view to_string(Disposition d) {
  return spelling_of(kDispositions, d).json;
}
std::optional<Disposition> parse_disposition(std::string_view text) {
  return value_of<Disposition>(kDispositions, text);
}

std::string_view to_string(Device device) {
  return spelling_of(kDevices, device).json;
}
std::string_view display_name(Device device) {
  return spelling_of(kDevices, device).human;
}
std::optional<Device> parse_device(std::string_view text) {
  return value_of<Device>(kDevices, text);
}

std::string_view to_string(CacheState state) {
  return spelling_of(kCacheStates, state).json;
}
std::optional<CacheState> parse_cache_state(std::string_view text) {
  return value_of<CacheState>(kCacheStates, text);
}

std::string_view to_string(KernelRole role) {
  return spelling_of(kRoles, role).json;
}
std::optional<KernelRole> parse_kernel_role(std::string_view text) {
  return value_of<KernelRole>(kRoles, text);
}

std::string_view to_string(ComputeUnit unit) {
  return spelling_of(kComputeUnits, unit).json;
}
std::string_view display_name(ComputeUnit unit) {
  return spelling_of(kComputeUnits, unit).human;
}
std::optional<ComputeUnit> parse_compute_unit(std::string_view text) {
  return value_of<ComputeUnit>(kComputeUnits, text);
}
ComputeUnit default_compute_unit(Device device) {
  return device == Device::gpu ? ComputeUnit::simt : ComputeUnit::vector;
}
ComputeUnit default_compute_unit(Device device, std::string_view op, DType dtype) {
  if (device == Device::gpu &&
      (dtype == DType::tf32 || dtype == DType::bf16 || dtype == DType::f16 || dtype == DType::i8))
    for (std::string_view product : {"gemm", "gemm_bias_act", "attention", "einsum"})
      if (op == product) return ComputeUnit::tensor;
  return default_compute_unit(device);
}

ComputeUnit inferred_ceiling_unit(std::string_view name, std::string_view dtype, Device device) {
  if (device == Device::cpu)
    return name.find(".amx") != std::string_view::npos ? ComputeUnit::matrix : ComputeUnit::vector;
  // The GPU's FMA chains are the CUDA cores'; mma.sync and cuBLASLt's products of the types
  // only tensor cores multiply are the tensor cores'; cuBLASLt's f64 runs DMMA where it has
  // it (the probe records the unit since; an old file's f64 roof stays the CUDA cores').
  if (name.find("mma") != std::string_view::npos) return ComputeUnit::tensor;
  for (std::string_view t : {"tf32", "bf16", "f16", "i8", "fp8"})
    if (dtype == t) return ComputeUnit::tensor;
  return ComputeUnit::simt;
}

KernelRole inferred_role(std::string_view backend) {
  if (ends_with_word(backend, "unfused")) return KernelRole::unfused;
  if (ends_with_word(backend, "fused")) return KernelRole::fused;
  for (std::string_view vendor : {"blas.", "vendor.", "cuda.cublas", "cpu.eigen"})
    if (backend.substr(0, vendor.size()) == vendor) return KernelRole::vendor;
  return KernelRole::ladder;
}

Device inferred_device(std::string_view backend) {
  return backend.substr(0, 5) == "cuda." ? Device::gpu : Device::cpu;
}

std::string inferred_family(std::string_view backend) {
  if (backend.substr(0, 5) == "blas.") return std::string(kBlasFamily);
  for (std::string_view word : {"unfused", "fused"})
    if (ends_with_word(backend, word))
      return std::string(backend.substr(0, backend.size() - word.size() - 1));
  return "";
}

std::string_view to_string(LoweringKind kind) {
  return spelling_of(kLoweringKinds, kind).json;
}
std::optional<LoweringKind> parse_lowering_kind(std::string_view text) {
  return value_of<LoweringKind>(kLoweringKinds, text);
}

std::string_view to_string(StepKind kind) {
  return spelling_of(kStepKinds, kind).json;
}
std::optional<StepKind> parse_step_kind(std::string_view text) {
  return value_of<StepKind>(kStepKinds, text);
}

namespace {

// The backends of the einsum kernels before they declared their lowering, by name.
std::optional<LoweringKind> inferred_lowering_kind(std::string_view backend) {
  if (backend.size() > 5 && backend.substr(backend.size() - 5) == ".ttgt")
    return LoweringKind::ttgt;
  if (backend == "cpu.loops") return LoweringKind::loop_nest;
  if (backend == "cpu.gett") return LoweringKind::gett;
  if (backend.substr(0, 5) == "blas.") return LoweringKind::strided;
  for (std::string_view strided : {"cpu.strided", "cpu.eigen", "vendor.onednn", "cuda.cublas"})
    if (backend == strided) return LoweringKind::strided;
  return std::nullopt;
}

}  // namespace

std::optional<Lowering> inferred_lowering(std::string_view op, std::string_view backend,
                                          const std::map<std::string, std::string>& notes) {
  if (op != "einsum") return std::nullopt;
  const std::optional<LoweringKind> kind = inferred_lowering_kind(backend);
  if (!kind) return std::nullopt;
  Lowering l{*kind, {}};
  const auto noted = [&](const char* key) { return notes.count(key) > 0; };
  if (*kind == LoweringKind::ttgt) {
    // The CPU's TTGT lapped each step, its permutes as "permute_<operand>"; the GPU's none.
    const bool lapped = inferred_device(backend) == Device::cpu;
    const auto permute = [&](const std::string& operand) {
      const auto it = notes.find(operand);
      if (it != notes.end() && it->second.rfind("permuted", 0) == 0)
        l.steps.push_back({StepKind::permute, operand, lapped ? "permute_" + operand : ""});
    };
    permute("A");
    permute("B");
    if (noted("gemm")) l.steps.push_back({StepKind::gemm, "gemm", lapped ? "gemm" : ""});
    permute("C");
    return l;
  }
  const StepKind step = *kind == LoweringKind::loop_nest ? StepKind::loop_nest
                        : *kind == LoweringKind::gett    ? StepKind::gathered
                                                         : StepKind::strided_view;
  for (const char* key : {"inner loop", "gemm", "contraction"})
    if (noted(key)) l.steps.push_back({step, key, ""});
  return l;
}

std::string_view to_string(MemoryLevel level) {
  return spelling_of(kLevels, level).json;
}
std::optional<MemoryLevel> parse_byte_level(std::string_view text) {
  return value_of<MemoryLevel>(kLevels, text);
}

std::string_view display_name(MemoryLevel level, Device device) {
  const auto& s = spelling_of(kLevels, level);
  return device == Device::gpu ? s.gpu : s.cpu;
}

std::optional<MemoryLevel> parse_memory_level(std::string_view name) {
  for (const MemoryLevel level : kCacheLevels)
    if (name == display_name(level)) return level;
  if (is_main_memory(name)) return MemoryLevel::main;
  return std::nullopt;
}

bool is_main_memory(std::string_view name) {
  return name == to_string(MemoryLevel::main) ||
         name == display_name(MemoryLevel::main, Device::cpu) ||
         name == display_name(MemoryLevel::main, Device::gpu);
}

int level_rank(std::string_view name) {
  const auto level = parse_memory_level(name);
  if (!level) return 5;
  if (*level == MemoryLevel::main) return name == display_name(*level, Device::gpu) ? 4 : 3;
  return static_cast<int>(*level);
}

std::string network_level(std::string_view scope) {
  return fmt::format("{} ({})", display_name(MemoryLevel::network), scope);
}

std::optional<MemoryLevel> byte_metric_level(std::string_view metric) {
  constexpr std::string_view kPrefix = "bytes.";
  if (metric.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  const std::string_view level = metric.substr(kPrefix.size());
  // "bytes.DRAM" is what the MEM counter groups wrote before they were renamed.
  if (level == display_name(MemoryLevel::main, Device::cpu)) return MemoryLevel::main;
  const auto known = parse_byte_level(level);
  if (known == MemoryLevel::network) return std::nullopt;
  return known;
}

std::string bytes_metric(MemoryLevel level) {
  return "bytes." + std::string(to_string(level));
}

RoofLevel RoofLevel::named(std::string name) {
  std::optional<MemoryLevel> type = parse_memory_level(name);
  // network_level(scope), whatever the scope: "network (" + scope + ")".
  const std::string empty_scope = network_level("");
  const std::string_view open = std::string_view(empty_scope).substr(0, empty_scope.size() - 1);
  if (!type && name.starts_with(open) && name.ends_with(empty_scope.back()))
    type = MemoryLevel::network;
  return {type, std::move(name)};
}

std::string to_string(const Bound& bound) {
  switch (bound.kind) {
    case Bound::Kind::compute:
      return "compute";
    case Bound::Kind::memory:
      return bound.level.name;
    case Bound::Kind::call_overhead:
      return "call overhead";
    case Bound::Kind::none:
      return "";
  }
  return "";
}

}  // namespace ridgeline
