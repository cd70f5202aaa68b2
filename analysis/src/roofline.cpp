#include "ridgeline/analysis/roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "foreign_time_base.hpp"

namespace ridgeline {

namespace {

// The thread count of the device's ceilings to use: the result's own, else the largest
// below it.
int matching_threads(const MachineModel& m, int threads, const std::string& device,
                     std::string& note) {
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
  note = fmt::format("ceilings measured with {} thread{}, the result ran with {}", best,
                     best > 1 ? "s" : "", threads);
  return best;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Analytic compulsory bytes move from the level the whole working set fits in (repeated
// calls keep it there), so that is the level they are compared with.
std::string residence_level(const MachineModel* m, double bytes) {
  if (!m) return "DRAM";
  if (m->l1d_bytes > 0 && bytes <= m->l1d_bytes) return "L1";
  if (m->l2_bytes > 0 && bytes <= m->l2_bytes) return "L2";
  if (m->l3_bytes > 0 && bytes <= m->l3_bytes) return "L3";
  return "DRAM";
}

std::string human_bytes(double b) {
  if (b >= 1 << 30) return fmt::format("{:.1f} GiB", b / (1 << 30));
  if (b >= 1 << 20) return fmt::format("{:.1f} MiB", b / (1 << 20));
  return fmt::format("{:.0f} KiB", b / 1024);
}

// `achieved` set by the caller: the rate per second of wall time.
void finish(RooflinePlacement& p, const MachineModel* machine) {
  for (const auto& [level, b] : p.bytes)
    if (b > 0) p.intensity[level] = p.flops / b;
  if (!machine) {
    p.roof_note = "no machine model: give --machine, or run `ridgeline probe` on this machine";
    return;
  }
  Roof roof = roof_for(*machine, p.dtype, p.threads, p.device);
  p.roof_note = roof.note;
  Attainable a = attainable(roof, p.intensity);
  if (a.flops_per_s <= 0) {
    p.roof_note = "the machine model has no ceiling for this dtype";
    return;
  }
  p.attainable = a.flops_per_s;
  p.bound = a.bound;
  // A call cannot take less than the runner's call overhead.
  if (roof.overhead && roof.overhead->seconds > p.flops / p.attainable) {
    p.attainable = p.flops / roof.overhead->seconds;
    p.bound = "call overhead";
  }
  p.efficiency = p.achieved / p.attainable;
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
  for (const auto& m : d.metrics)
    if (m.name == "gpu.throttled" && m.value > 0) p.throttled = true;
  p.dtype = std::string(to_string(d.problem.dtype));
  p.op = d.problem.op;
  p.shape = shape_label(d.problem.shape);
  p.threads = d.threads;
  p.disposition = std::string(to_string(d.validation.disposition));
  if (d.validation.disposition != Disposition::passed || r.error_occurred) {
    p.reason = fmt::format("{}: {}", p.disposition,
                           d.validation.message.empty() ? r.error_message : d.validation.message);
    return p;
  }
  p.seconds = detail::to_seconds(r.real_time, r.time_unit);
  if (!(p.seconds > 0) || !std::isfinite(p.seconds)) {
    p.reason = "no time recorded";
    return p;
  }
  p.flops = d.work.flops;
  p.flops_source = MetricSource::analytic;
  // Counters (and a counter group's formulas over them) total a repetition's timed loop;
  // the placement is per kernel call.
  const double calls = r.iterations > 0 ? static_cast<double>(r.iterations) : 1.0;
  auto from_counters = [](const Metric& m) {
    return m.source == MetricSource::counted || m.source == MetricSource::derived;
  };
  for (const auto& m : d.metrics)
    if (m.name == "flops" && from_counters(m) && m.value > 0) {
      p.flops = m.value / calls;
      p.flops_source = m.source;
    }
  bool counted_bytes = false;
  MetricSource bytes_source = MetricSource::counted;
  for (const auto& m : d.metrics)
    if (m.name.rfind("bytes.", 0) == 0 && from_counters(m) && m.value > 0) {
      std::string level = m.name.substr(6);
      if (level == "dram") level = d.device == "gpu" ? "HBM" : "DRAM";
      p.bytes[level] = m.value / calls;
      counted_bytes = true;
      bytes_source = m.source;
    }
  const auto analytic = d.work.bytes.find("dram");
  if (counted_bytes) {
    p.bytes_source = bytes_source;
  } else if (analytic != d.work.bytes.end() && analytic->second > 0 && d.device == "gpu") {
    // GPU runs rotate through operand copies larger than L2: every call reads from HBM.
    p.bytes["HBM"] = analytic->second;
    p.bytes_source = MetricSource::analytic;
    p.level_note =
        fmt::format("compulsory bytes (analytic) from HBM: {} per call, operands rotated",
                    human_bytes(analytic->second));
  } else if (analytic != d.work.bytes.end() && analytic->second > 0) {
    const std::string level = residence_level(machine, analytic->second);
    p.bytes[level] = analytic->second;
    p.bytes_source = MetricSource::analytic;
    p.level_note = fmt::format("compulsory bytes (analytic); the {} working set fits {}",
                               human_bytes(analytic->second), level == "DRAM" ? "no cache" : level);
  }
  if (p.flops <= 0) {
    p.reason = "no FLOP count";
    return p;
  }
  if (p.bytes.empty()) {
    p.reason = "no byte count";
    return p;
  }
  p.placeable = true;
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
  p.threads = static_cast<int>(std::max<std::int64_t>(1, r.threads));
  p.disposition = std::string(to_string(Disposition::not_verified));
  // The benchmark's own counters, turned into amounts per call: derived, not counted.
  p.flops_source = MetricSource::derived;
  p.bytes_source = MetricSource::derived;
  if (r.error_occurred) {
    p.disposition = "error";
    p.reason = "error: " + r.error_message;
    return p;
  }
  if (r.skipped) {
    p.disposition = "skipped";
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
    p.reason = fmt::format("FLOP rate {} and byte rate {}: not measured", *flop_rate, *byte_rate);
    return p;
  }
  const detail::ForeignTimeBase base = detail::foreign_time_base(context, r);
  if (!base.problem.empty()) {
    p.reason = base.problem;
    return p;
  }
  if (*flop_rate <= 0 || *byte_rate <= 0) {
    p.reason = "zero FLOP or byte rate";
    return p;
  }
  p.seconds = base.seconds_per_call;
  p.flops = *flop_rate * base.per_call;
  p.achieved = *flop_rate * base.per_wall_second;
  p.bytes["DRAM"] = *byte_rate * base.per_call;
  p.level_note = "bytes from bytes_per_second, level unknown: compared with DRAM";
  p.rate_note = base.note;
  if (r.run_type == "aggregate")
    p.rate_note += fmt::format("; from the {} of {} repetitions (the file has no iteration rows)",
                               r.aggregate_name, r.repetitions);
  p.placeable = true;
  finish(p, machine);
  return p;
}

}  // namespace

Roof roof_for(const MachineModel& m, const std::string& dtype, int threads,
              const std::string& device) {
  Roof roof;
  roof.threads = matching_threads(m, threads, device, roof.note);
  for (const auto& c : m.compute) {
    if (c.device != device || c.threads != roof.threads) continue;
    if (dtype.empty() && c.unit != "FLOP/s") continue;
    const bool fits = dtype.empty() ? (c.dtype == "f32" || c.dtype == "f64") : c.dtype == dtype;
    if (fits && (!roof.compute || c.per_second > roof.compute->per_second)) roof.compute = c;
  }
  if (dtype.empty() && roof.compute)
    roof.note += (roof.note.empty() ? "" : "; ") +
                 std::string("dtype unknown: the highest floating-point peak");
  for (const auto& c : m.memory) {
    if (c.device != device || c.threads != roof.threads) continue;
    auto it = roof.memory.find(c.level);
    if (it == roof.memory.end() || c.bytes_per_s > it->second.bytes_per_s) roof.memory[c.level] = c;
  }
  // The floor of one call: the runner's call overhead on the CPU, a kernel launch on a GPU.
  for (const auto& o : m.overhead)
    if (o.name == (device == "gpu" ? "gpu.launch" : "call")) roof.overhead = o;
  return roof;
}

Attainable attainable(const Roof& roof, const std::map<std::string, double>& intensity) {
  Attainable a;
  a.flops_per_s = roof.compute ? roof.compute->per_second : std::numeric_limits<double>::infinity();
  a.bound = "compute";
  for (const auto& [level, ai] : intensity) {
    auto it = roof.memory.find(level);
    if (it == roof.memory.end()) continue;
    const double limit = it->second.bytes_per_s * ai;
    if (limit < a.flops_per_s) {
      a.flops_per_s = limit;
      a.bound = level;
    }
  }
  if (!std::isfinite(a.flops_per_s)) return {0, ""};
  return a;
}

double ridge_point(const Roof& roof, const std::string& level) {
  auto it = roof.memory.find(level);
  if (!roof.compute || it == roof.memory.end() || it->second.bytes_per_s <= 0) return 0;
  return roof.compute->per_second / it->second.bytes_per_s;
}

std::vector<RooflinePlacement> place_results(const Run& run, const MachineModel* machine) {
  // One entry per case: its median aggregate if any, else its first iteration, else its
  // mean (a file of aggregates only); errored entries stand for their case. A Complexity()
  // fit (BigO, RMS) is its own entry, never placed.
  std::vector<std::string> order;
  std::map<std::string, const CaseResult*> chosen;
  auto rank = [](const CaseResult& r) {
    if (r.run_type != "aggregate") return 2;
    if (r.aggregate_name == "median") return 3;
    if (r.aggregate_name == "mean") return 1;
    return 0;
  };
  for (const auto& r : run.benchmarks) {
    const bool fit =
        r.run_type == "aggregate" && (r.aggregate_name == "BigO" || r.aggregate_name == "RMS");
    const std::string key = fit || r.run_name.empty() ? r.name : r.run_name;
    auto it = chosen.find(key);
    if (it == chosen.end()) {
      order.push_back(key);
      it = chosen.emplace(key, nullptr).first;
    }
    if (rank(r) > 0 && (!it->second || rank(r) > rank(*it->second))) it->second = &r;
    if (fit) it->second = &r;
  }
  std::vector<RooflinePlacement> out;
  for (const auto& key : order) {
    const CaseResult* r = chosen.at(key);
    const bool fit = r && r->run_type == "aggregate" &&
                     (r->aggregate_name == "BigO" || r->aggregate_name == "RMS");
    if (!r || fit) {
      RooflinePlacement p;
      p.name = fit ? r->name : key;
      p.backend = "(google benchmark)";
      p.disposition = std::string(to_string(Disposition::not_verified));
      p.flops_source = p.bytes_source = MetricSource::derived;
      p.reason =
          fit ? fmt::format("a Complexity() fit ({}) over the sizes, not a measurement: not placed",
                            r->aggregate_name)
              : "no iteration, median or mean row: not placed";
      out.push_back(std::move(p));
      continue;
    }
    out.push_back(r->ridgeline ? place_ours(*r, machine) : place_foreign(run.context, *r, machine));
  }
  return out;
}

}  // namespace ridgeline
