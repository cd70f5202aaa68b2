// The roofline maths: which ceilings bound a result, the attainable rate, ridge points.
#include "ridgeline/analysis/roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "ridgeline/analysis/usable.hpp"

namespace ridgeline {

namespace {

// The thread count of the device's ceilings to use: the result's own, else the largest
// below it (the smallest there is when all are above it).
int matching_threads(const MachineModel& m, int threads, Device device, std::vector<Note>& notes) {
  std::vector<int> counts;
  for (const auto& c : m.compute)
    if (c.device == device) counts.push_back(c.threads);
  for (const auto& c : m.memory)
    if (c.device == device) counts.push_back(c.threads);
  if (counts.empty()) return threads;
  if (std::find(counts.begin(), counts.end(), threads) != counts.end()) return threads;
  int best = *std::min_element(counts.begin(), counts.end());
  for (int c : counts)
    if (c <= threads) best = std::max(best, c);
  notes.push_back(
      {NoteKind::threads, fmt::format("ceilings measured with {} thread{}, the result ran with {}",
                                      best, best == 1 ? "" : "s", threads)});
  return best;
}

void note_unusable(std::vector<Note>& notes, const std::string& what, double value,
                   const std::string& unit) {
  notes.push_back(
      {NoteKind::ceiling, fmt::format("{} left out: its value {} ({} {})", what,
                                      unusable_because(value), describe_number(value), unit)});
}

}  // namespace

Roof roof_for(const MachineModel& m, const std::string& dtype, int threads, Device device,
              std::optional<ComputeUnit> unit) {
  Roof roof;
  roof.threads = matching_threads(m, threads, device, roof.notes);
  const bool widens = dtype == "bf16" || dtype == "f16";  // exactly, to f32
  const auto best_of = [&](std::optional<ComputeUnit> on) {
    std::optional<ComputeCeiling> best;
    for (const auto& c : m.compute) {
      if (c.device != device || c.threads != roof.threads) continue;
      if (on && c.compute_unit != *on) continue;
      if (dtype.empty() && c.unit != "FLOP/s") continue;
      const bool fits = dtype.empty() ? (c.dtype == "f32" || c.dtype == "f64")
                                      : c.dtype == dtype || (widens && c.dtype == "f32");
      if (!fits) continue;
      if (!usable(c.per_second)) {
        note_unusable(roof.notes, "compute ceiling " + c.name, c.per_second, c.unit);
        continue;
      }
      if (!best || c.per_second > best->per_second) best = c;
    }
    return best;
  };
  roof.compute = best_of(unit);
  if (unit && !roof.compute) {
    roof.compute = best_of(std::nullopt);
    if (roof.compute)
      roof.notes.push_back(
          {NoteKind::ceiling,
           fmt::format("the machine model has no {} ceiling on the {}: under the fastest "
                       "unit's ({})",
                       dtype.empty() ? "floating-point" : dtype, display_name(*unit),
                       roof.compute->name)});
  }
  if (dtype.empty() && roof.compute)
    roof.notes.push_back(
        {NoteKind::dtype, fmt::format("dtype unknown: under the highest floating-point peak ({})",
                                      roof.compute->name)});
  else if (roof.compute && roof.compute->dtype != dtype)
    roof.notes.push_back(
        {NoteKind::dtype,
         fmt::format("{} under the {} peak ({}), its unit's faster one: {} widens to {} "
                     "exactly",
                     dtype, roof.compute->dtype, roof.compute->name, dtype, roof.compute->dtype)});
  for (const auto& c : m.memory) {
    if (c.device != device || c.threads != roof.threads) continue;
    if (!usable(c.bytes_per_s)) {
      note_unusable(roof.notes, "memory ceiling " + c.level + " " + c.kernel, c.bytes_per_s, "B/s");
      continue;
    }
    auto it = roof.memory.find(c.level);
    if (it == roof.memory.end() || c.bytes_per_s > it->second.bytes_per_s) roof.memory[c.level] = c;
  }
  // The network's roofs (probe --network under mpirun): per scope, the largest point-to-point
  // bandwidth measured in it between this device's buffers (MPI's host memory, NCCL's GPUs), which
  // a collective case's network bytes (what each rank sends) are placed under (the
  // communication-aware roofline of Cardwell and Song).
  for (const auto& n : m.network) {
    if (n.device != device || n.pattern != "bandwidth") continue;
    if (!usable(n.bytes_per_s)) {
      note_unusable(roof.notes, "network ceiling " + n.scope + " bandwidth", n.bytes_per_s, "B/s");
      continue;
    }
    const std::string level = network_level(n.scope);
    auto it = roof.memory.find(level);
    if (it != roof.memory.end() && it->second.bytes_per_s >= n.bytes_per_s) continue;
    MemoryCeiling c;
    c.level = level;
    c.kernel = "bandwidth";
    c.bytes_per_s = n.bytes_per_s;
    c.working_set_bytes = n.bytes;
    c.threads = n.ranks;
    c.source = n.source;
    c.method = n.method;
    roof.memory[level] = c;
  }
  // The floor of one call: the runner's call overhead on the CPU, a kernel launch on a GPU.
  for (const auto& o : m.overhead) {
    if (o.name != (device == Device::gpu ? "gpu.launch" : "call")) continue;
    if (!usable(o.seconds)) {
      note_unusable(roof.notes, "overhead " + o.name, o.seconds, "s");
      continue;
    }
    roof.overhead = o;
  }
  return roof;
}

Attainable attainable(const Roof& roof, const std::map<std::string, double>& intensity) {
  Attainable a;
  a.flops_per_s = roof.compute ? roof.compute->per_second : std::numeric_limits<double>::infinity();
  a.bound = Bound::compute();
  double lowest_memory_roof = std::numeric_limits<double>::infinity();
  for (const auto& [level, ai] : intensity) {
    auto it = roof.memory.find(level);
    if (it == roof.memory.end() || !usable(ai)) continue;
    const double limit = it->second.bytes_per_s * ai;
    if (limit < lowest_memory_roof) {
      lowest_memory_roof = limit;
      a.memory_level = level;
    }
    if (limit < a.flops_per_s) {
      a.flops_per_s = limit;
      a.bound = Bound::memory(level);
    }
  }
  // No ceiling applied, or a product that over- or underflowed: no bound.
  if (!usable(a.flops_per_s)) return {};
  return a;
}

double ridge_point(const Roof& roof, const std::string& level) {
  auto it = roof.memory.find(level);
  if (!roof.compute || it == roof.memory.end()) return 0;
  const double ridge = roof.compute->per_second / it->second.bytes_per_s;
  return usable(ridge) ? ridge : 0;
}

}  // namespace ridgeline
