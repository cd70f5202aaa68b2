// One placement per case: its FLOPs, bytes per level, time, and where it sits under the
// machine's roof. Every number from a document is checked before it is used: a result
// whose numbers are not finite, positive and normal is not placeable, with the reason.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "byte_text.hpp"
#include "foreign_time_base.hpp"
#include "network_placement.hpp"
#include "ridgeline/analysis/fusion.hpp"
#include "ridgeline/analysis/memory_levels.hpp"
#include "ridgeline/analysis/noise.hpp"
#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/analysis/run_cases.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The level farthest from the core among those with an intensity (map order is by name,
// which would put L3 after DRAM); a level outside the known five comes last.
std::string farthest_level(const std::map<std::string, double>& intensity) {
  std::string farthest = intensity.begin()->first;
  for (const auto& [level, ai] : intensity)
    if (level_rank(level) > level_rank(farthest)) farthest = level;
  return farthest;
}

// Analytic bytes move from the level the whole working set fits in (repeated calls keep
// it there), so that is the level they are compared with.
// The cache sizes are hwloc's unless the probe's sweeps replaced one on repeated evidence
// (cache_bytes_for_placement): a VM can report the host's L3.
MemoryLevel residence_level(const MachineModel* m, double bytes) {
  if (!m) return MemoryLevel::main;
  for (const MemoryLevel level : kCacheLevels) {
    const std::int64_t size = cache_bytes_for_placement(*m, level);
    if (size > 0 && bytes <= static_cast<double>(size)) return level;
  }
  return MemoryLevel::main;
}

// The working set: the op's compulsory bytes (every operand once, in doubles: no params
// can overflow them), or an unfused chain's footprint (op_unfused_footprint: attention's
// scores); `bytes` where the op cannot size them.
double working_set_bytes(const CaseDetails& d, double bytes) {
  try {
    const double set = d.role == KernelRole::unfused
                           ? op_unfused_footprint(d.problem)
                           : op_work(d.problem).bytes_at(MemoryLevel::main);
    return usable(set) ? set : bytes;
  } catch (const std::exception&) {
    return bytes;
  }
}

// Sets `p.reason` when `value` is not usable; true when it is.
bool check(RooflinePlacement& p, const std::string& what, double value) {
  if (usable(value)) return true;
  p.reason = fmt::format("{} {}", what, unusable_because(value));
  return false;
}

// Intensities and the roof. `p` has usable flops, seconds and bytes; `p.achieved` is set
// by the caller (the rate per second of wall time) and checked here.
void finish(RooflinePlacement& p, const MachineModel* machine) {
  if (!check(p,
             fmt::format("the rate ({} FLOP in {} s)", describe_number(p.flops),
                         describe_number(p.seconds)),
             p.achieved))
    return;
  for (const auto& [level, b] : p.bytes) {
    const double ai = p.flops / b;
    if (usable(ai))
      p.intensity[level] = ai;
    else
      p.notes.push_back(
          {NoteKind::value,
           fmt::format("intensity at {} ({} FLOP / {} B) {}: left out", level,
                       describe_number(p.flops), describe_number(b), unusable_because(ai))});
  }
  if (p.intensity.empty()) {
    p.reason = "no intensity is a usable number: " + join_notes(p.notes);
    return;
  }
  p.placeable = true;
  p.level = farthest_level(p.intensity);
  p.level_intensity = p.intensity.at(p.level);
  if (!machine) {
    p.notes.push_back(
        {NoteKind::machine,
         "no machine model: give --machine, or run `ridgeline probe` on this machine"});
    return;
  }
  Roof roof = roof_for(*machine, p.dtype, p.threads, p.device, p.compute_unit);
  p.notes.insert(p.notes.end(), roof.notes.begin(), roof.notes.end());
  // Another unit's roof for the dtype, where higher than the point's own by more than the
  // noise (the guidance names it).
  if (const Roof fastest = roof_for(*machine, p.dtype, p.threads, p.device);
      roof.compute && fastest.compute &&
      fastest.compute->compute_unit != roof.compute->compute_unit &&
      fastest.compute->per_second > 1.05 * roof.compute->per_second)
    p.faster_unit = fastest.compute;
  Attainable a = attainable(roof, p.intensity);
  if (!a.memory_level.empty()) {
    p.level = a.memory_level;
    p.level_intensity = p.intensity.at(p.level);
  }
  if (a.flops_per_s <= 0) {
    p.notes.push_back(
        {NoteKind::machine,
         fmt::format("the machine model has no usable ceiling for {} on {} at {} "
                     "thread{}: no bound",
                     p.dtype.empty() ? "an unknown dtype" : p.dtype, to_string(p.device),
                     roof.threads, roof.threads == 1 ? "" : "s")});
    return;
  }
  double attained = a.flops_per_s;
  Bound bound = a.bound;
  // A call cannot take less than the runner's call overhead.
  if (roof.overhead && roof.overhead->seconds > p.flops / attained) {
    attained = p.flops / roof.overhead->seconds;
    bound = Bound::call_overhead();
  }
  const double efficiency = p.achieved / attained;
  if (!usable(attained) || !usable(efficiency)) {
    p.notes.push_back(
        {NoteKind::value, fmt::format("attainable {} FLOP/s against achieved {} FLOP/s is not a "
                                      "usable ratio: no bound",
                                      describe_number(attained), describe_number(p.achieved))});
    return;
  }
  p.attainable = attained;
  p.bound = bound;
  p.efficiency = efficiency;
  p.above_roof = p.efficiency > 1.02;
}

std::optional<double> counter(const CaseResult& r, std::initializer_list<const char*> names) {
  for (const auto& [key, value] : r.counters)
    for (const char* n : names)
      if (lower(key) == n) return value;
  return std::nullopt;
}

RooflinePlacement place_ours(const CaseResult& r, const MachineModel* machine) {
  const CaseDetails& d = *r.ridgeline;
  RooflinePlacement p;
  p.name = r.run_name;
  p.backend = d.backend;
  p.device = d.device;
  p.role = d.role;
  p.family = d.family;
  p.compute_unit = d.compute_unit;
  p.dtype = std::string(to_string(d.problem.dtype));
  p.op = d.problem.op;
  p.params = params_label(d.problem);
  p.pattern = d.problem.pattern;
  p.fp_env = std::string(to_string(d.fp_env));
  p.cache = d.cache;
  p.threads = d.threads;
  p.disposition = d.validation.disposition;
  // Not verified, yet ran: a case without a reference (a caller's function measured from
  // Python) is placed as a foreign result is, saying its outputs were not checked.
  const bool unchecked = d.validation.disposition == Disposition::not_verified;
  if ((d.validation.disposition != Disposition::passed && !unchecked) || r.error_occurred) {
    p.reason = fmt::format("{}: {}", to_string(p.disposition),
                           d.validation.message.empty() ? r.error_message : d.validation.message);
    return p;
  }
  if (unchecked)
    p.notes.push_back(
        {NoteKind::origin,
         "outputs not checked by Ridgeline: " +
             (d.validation.message.empty() ? std::string("no reference") : d.validation.message)});
  if (p.threads < 1) {
    p.reason = fmt::format("thread count {} is not positive", p.threads);
    return p;
  }
  p.seconds = detail::to_seconds(r.real_time, r.time_unit);
  if (!check(p, fmt::format("time per call ({} {})", describe_number(r.real_time), r.time_unit),
             p.seconds))
    return p;
  p.flops = d.work.flops;
  p.flops_source = MetricSource::analytic;
  // Counters (and a counter group's formulas over them) total a repetition's timed loop;
  // the placement is per kernel call.
  const double calls = r.iterations > 0 ? static_cast<double>(r.iterations) : 1.0;
  auto from_counters = [](const Metric& m) {
    return m.source == MetricSource::counted || m.source == MetricSource::derived;
  };
  auto unusable_metric = [&](const Metric& m, double per_call) {
    p.notes.push_back(
        {NoteKind::value, fmt::format("{} ({}) per call {}: left out", m.name, to_string(m.source),
                                      unusable_because(per_call))});
  };
  for (const auto& m : d.metrics)
    if (m.name == "flops" && from_counters(m)) {
      if (!usable(m.value / calls)) {
        unusable_metric(m, m.value / calls);
        continue;
      }
      p.flops = m.value / calls;
      p.flops_source = m.source;
    }
  bool counted_bytes = false;
  MetricSource bytes_source = MetricSource::counted;
  for (const auto& m : d.metrics)
    if (const auto level = byte_metric_level(m.name); level && from_counters(m)) {
      if (!usable(m.value / calls)) {
        unusable_metric(m, m.value / calls);
        continue;
      }
      p.bytes[std::string(display_name(*level, d.device))] = m.value / calls;
      counted_bytes = true;
      bytes_source = m.source;
    }
  const auto analytic = d.work.bytes.find(MemoryLevel::main);
  const bool analytic_bytes = analytic != d.work.bytes.end() && usable(analytic->second);
  if (counted_bytes) {
    p.bytes_source = bytes_source;
  } else if (analytic_bytes && (d.device == Device::gpu || d.cache == CacheState::cold)) {
    // Cold operands: GPU runs rotate through operand copies larger than L2, a CPU case with
    // cache=cold flushes them before each call. Every call reads from main memory.
    const std::string level(display_name(MemoryLevel::main, d.device));
    p.bytes[level] = analytic->second;
    p.bytes_source = MetricSource::analytic;
    p.notes.push_back(
        {NoteKind::level,
         fmt::format(
             "compulsory bytes (analytic) from {}: {} per call, operands {}", level,
             human_bytes(analytic->second),
             d.device == Device::gpu ? "rotated" : "flushed from the caches before each call")});
  } else if (analytic_bytes) {
    // The level is the working set's; the bytes may be more (an unfused kernel's passes
    // move its operands several times: its traffic, not its footprint).
    const double working_set = working_set_bytes(d, analytic->second);
    const MemoryLevel resident = residence_level(machine, working_set);
    const std::string level(display_name(resident));
    const std::string fits = resident == MemoryLevel::main ? "no cache" : level;
    p.bytes[level] = analytic->second;
    p.bytes_source = MetricSource::analytic;
    p.notes.push_back(
        {NoteKind::level,
         working_set == analytic->second
             ? fmt::format("compulsory bytes (analytic); the {} working set fits {}",
                           human_bytes(working_set), fits)
             : fmt::format("analytic bytes ({} per call); the {} working set fits {}",
                           human_bytes(analytic->second), human_bytes(working_set), fits)});
  }
  place_network_bytes(p, d, machine);
  if (!check(p, "FLOP count per call", p.flops)) return p;
  if (p.bytes.empty()) {
    p.reason = analytic == d.work.bytes.end()
                   ? "no byte count"
                   : fmt::format("byte count per call {}", unusable_because(analytic->second));
    return p;
  }
  p.achieved = p.flops / p.seconds;
  finish(p, machine);
  return p;
}

// Foreign Google Benchmark output: a FLOP rate counter and bytes_per_second, rates over
// the benchmark's own time base (foreign_time_base.hpp). Ridgeline validated nothing in it.
RooflinePlacement place_foreign(const RunContext& context, const CaseResult& r,
                                const MachineModel* machine) {
  RooflinePlacement p;
  p.name = r.run_name.empty() ? r.name : r.run_name;
  p.backend = "(google benchmark)";
  p.foreign = true;
  p.disposition = Disposition::not_verified;
  // The benchmark's own counters, turned into amounts per call: derived, not counted.
  p.flops_source = MetricSource::derived;
  p.bytes_source = MetricSource::derived;
  p.notes.push_back({NoteKind::origin,
                     "a foreign Google Benchmark result: not validated by Ridgeline; FLOPs and "
                     "bytes derived from its rate counters"});
  if (r.threads < 1) {
    p.reason = fmt::format("thread count {} is not positive", r.threads);
    return p;
  }
  p.threads = static_cast<int>(std::min<std::int64_t>(r.threads, std::numeric_limits<int>::max()));
  if (r.error_occurred) {
    p.disposition = Disposition::error;
    p.reason = "error: " + r.error_message;
    return p;
  }
  if (r.skipped) {
    p.disposition = Disposition::skipped;
    p.reason = "skipped: " + r.skip_message;
    return p;
  }
  auto flop_rate = counter(r, {"flops", "flop_rate", "flop/s", "flops_per_second"});
  auto byte_rate = counter(r, {"bytes_per_second"});
  if (!flop_rate) {
    p.reason = "no FLOP counter (a rate counter named flops, flop_rate or FLOP/s)";
    return p;
  }
  if (!byte_rate) {
    p.reason = "no bytes_per_second (state.SetBytesProcessed)";
    return p;
  }
  if (!std::isfinite(*flop_rate) || !std::isfinite(*byte_rate)) {
    p.reason = fmt::format("the FLOP rate counter ({}) and bytes_per_second ({}): not measured",
                           describe_number(*flop_rate), describe_number(*byte_rate));
    return p;
  }
  const detail::ForeignTimeBase base = detail::foreign_time_base(context, r);
  if (!base.problem.empty()) {
    p.reason = base.problem;
    return p;
  }
  if (!check(p, "the FLOP rate counter", *flop_rate) || !check(p, "bytes_per_second", *byte_rate))
    return p;
  p.seconds = base.seconds_per_call;
  p.flops = *flop_rate * base.per_call;
  p.achieved = *flop_rate * base.per_wall_second;
  // Google Benchmark's bytes_per_second names no level: main memory, as its users mean it.
  const std::string level(display_name(MemoryLevel::main));
  p.bytes[level] = *byte_rate * base.per_call;
  const std::string times =
      fmt::format("real_time {}, cpu_time {} {}", describe_number(r.real_time),
                  describe_number(r.cpu_time), r.time_unit);
  if (!check(p, fmt::format("time per call ({} s; {})", describe_number(p.seconds), times),
             p.seconds) ||
      !check(p, fmt::format("FLOPs per call (rate × time; {})", times), p.flops) ||
      !check(p, fmt::format("bytes per call (rate × time; {})", times), p.bytes[level]) ||
      !check(p, fmt::format("the FLOP rate per second of wall time ({})", times), p.achieved))
    return p;
  std::string rate = base.note;
  if (r.run_type == "aggregate")
    rate += fmt::format("; from the {} of {} repetitions (the file has no iteration rows)",
                        r.aggregate_name, r.repetitions);
  p.notes.push_back({NoteKind::rate, rate});
  p.notes.push_back(
      {NoteKind::level, "bytes from bytes_per_second, level unknown: compared with DRAM"});
  finish(p, machine);
  return p;
}

}  // namespace

namespace {

// For each point under a slower unit than the machine's fastest for its dtype: the fastest
// case of the run on that faster unit with the same op, params, dtype, threads and device.
void name_faster_cases(std::vector<RooflinePlacement>& placements) {
  // The fastest placed case per (op, params, dtype, threads, device, unit), once.
  using Key = std::tuple<std::string, std::string, std::string, int, Device, ComputeUnit>;
  std::map<Key, const RooflinePlacement*> fastest;
  for (const RooflinePlacement& q : placements) {
    if (!q.placeable || !q.compute_unit) continue;
    const RooflinePlacement*& best =
        fastest[{q.op, q.params, q.dtype, q.threads, q.device, *q.compute_unit}];
    if (!best || q.achieved > best->achieved) best = &q;
  }
  for (RooflinePlacement& p : placements) {
    if (!p.faster_unit) continue;
    const auto it =
        fastest.find({p.op, p.params, p.dtype, p.threads, p.device, p.faster_unit->compute_unit});
    if (it == fastest.end()) continue;
    p.faster_case_rate = it->second->achieved;
    p.faster_case_backend = it->second->backend;
  }
}

}  // namespace

std::vector<RooflinePlacement> place_results(const Run& run, const MachineModel* machine) {
  return place_cases(run_cases(run), machine);
}

// One entry per case: the row that stands for it (errored rows stand for their case); a
// Complexity() fit (BigO, RMS) is its own entry, never placed.
std::vector<RooflinePlacement> place_cases(const RunCases& cases, const MachineModel* machine) {
  std::vector<RooflinePlacement> out;
  for (const auto& c : cases.cases()) {
    const CaseResult* r = c.chosen ? &*c.chosen : nullptr;
    const bool fit = r && is_complexity_fit(*r);
    if (!r || fit) {
      RooflinePlacement p;
      p.name = fit ? r->name : c.key;
      p.backend = "(google benchmark)";
      p.foreign = true;
      p.complexity_fit = fit;
      p.disposition = Disposition::not_verified;
      p.flops_source = p.bytes_source = MetricSource::derived;
      p.reason =
          fit ? fmt::format("a Complexity() fit ({}) over the sizes, not a measurement: not placed",
                            r->aggregate_name)
              : "no iteration, median or mean row: not placed";
      p.guidance = placement_guidance(p);
      out.push_back(std::move(p));
      continue;
    }
    RooflinePlacement& p = out.emplace_back(
        r->ridgeline ? place_ours(*r, machine) : place_foreign(cases.context, *r, machine));
    std::vector<double> seconds = c.seconds;
    for (const auto& row : c.foreign_rows) {
      const detail::ForeignTimeBase base = detail::foreign_time_base(cases.context, row);
      if (base.problem.empty() && usable(base.seconds_per_call))
        seconds.push_back(base.seconds_per_call);
    }
    if (!seconds.empty()) p.repetitions = summarize_repetitions(std::move(seconds));
    // Read from the timed repetitions: the row that stands for a case with several is their
    // median aggregate, which carries no collector's readings.
    std::vector<double> flop_per_joule;
    for (const RepetitionCounters& rc : c.counters) {
      if (rc.throttled) p.throttled = true;
      if (rc.flop_per_joule && usable(*rc.flop_per_joule))
        flop_per_joule.push_back(*rc.flop_per_joule);
    }
    if (!flop_per_joule.empty()) {
      p.flop_per_joule = median_of(std::move(flop_per_joule));
      p.energy_domain = p.device == Device::gpu ? "gpu" : "package-0";
    }
    TimingNoise noise = timing_noise({&p.repetitions, c.counters, p.device, p.throttled});
    p.cpu_share = noise.cpu_share;
    for (auto& why : noise.reasons) {
      p.noisy = true;
      p.notes.push_back({NoteKind::noise, std::move(why)});
    }
  }
  name_faster_cases(out);
  for (RooflinePlacement& p : out)
    if (!p.complexity_fit && p.guidance.empty()) p.guidance = placement_guidance(p);
  return out;
}

}  // namespace ridgeline
