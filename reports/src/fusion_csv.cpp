// The fusion tables as CSV (docs/fusion-analysis.md): one file of pairs, one of the eltwise
// chain's sweeps, each tidy (one row per pair or per point) beside the per-case report.csv,
// whose columns stay as they are.
#include <fmt/format.h>

#include <cmath>

#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/report.hpp"
#include "ridgeline/reports/tables.hpp"
#include "table_cells.hpp"

namespace ridgeline {

namespace {

using reports::csv_number;

std::string f(const std::string& x) {
  return escape_csv_field(x);
}

// The columns of one side: case, backend, analytic bytes, counted bytes and their source,
// seconds, memory roof and its level; all empty for a side that is not there.
struct SideColumns {
  std::string name, backend, analytic, counted, counted_source, seconds, roof, level;
};

SideColumns columns(const FusionSide& s) {
  return {f(s.name),
          f(s.backend),
          csv_number(s.analytic.value),
          csv_number(s.counted.value),
          s.counted.value > 0 ? std::string(to_string(s.counted.source)) : "",
          csv_number(s.seconds),
          s.memory_roof > 0 ? fmt::format("{:.4f}", s.memory_roof) : "",
          f(s.roof_level)};
}

std::string row(const std::string& op, const std::string& params, const std::string& dtype,
                const std::string& pattern, int threads, Device device, bool paired,
                const SideColumns& u, const SideColumns& fu, double byte_ratio,
                double counted_ratio, double speedup, double time_over_bytes, double over_compute,
                const std::string& energy, const std::string& notes) {
  return fmt::format(
      "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
      f(op), f(params), f(dtype), f(pattern), threads, to_string(device), paired ? "yes" : "no",
      u.name, fu.name, u.backend, fu.backend, u.analytic, fu.analytic, u.counted, fu.counted,
      u.counted_source, fu.counted_source, csv_number(byte_ratio), csv_number(counted_ratio),
      u.seconds, fu.seconds, csv_number(speedup), csv_number(time_over_bytes), u.roof, fu.roof,
      u.level, fu.level, over_compute > 0 ? csv_number(over_compute) : "", energy, f(notes));
}

// unfused_joules_per_call,fused_joules_per_call,energy_ratio,energy_domain: empty where a
// side read no energy.
std::string energy_columns(const FusionPair& p) {
  if (p.energy_ratio <= 0) return ",,,";
  return fmt::format("{},{},{},{}", csv_number(p.unfused.joules), csv_number(p.fused.joules),
                     csv_number(p.energy_ratio), f(p.energy_domain));
}

}  // namespace

std::string fusion_csv(const ReportInput& in) {
  std::string s =
      "op,params,dtype,pattern,threads,device,paired,unfused_case,fused_case,unfused_backend,"
      "fused_backend,unfused_bytes_analytic,fused_bytes_analytic,unfused_bytes_counted,"
      "fused_bytes_counted,unfused_bytes_counted_source,fused_bytes_counted_source,byte_ratio,"
      "counted_byte_ratio,unfused_seconds_per_call,fused_seconds_per_call,speedup,"
      "speedup_over_byte_ratio,unfused_memory_roof,fused_memory_roof,unfused_roof_level,"
      "fused_roof_level,fused_over_chain_compute,unfused_joules_per_call,fused_joules_per_call,"
      "energy_ratio,energy_domain,notes\n";
  for (const auto& p : in.fusion.pairs)
    s += row(p.op, p.params, p.dtype, p.pattern, p.threads, p.device, true, columns(p.unfused),
             columns(p.fused), p.byte_ratio, p.counted_byte_ratio, p.speedup, p.time_over_bytes,
             p.fused_over_chain_compute, energy_columns(p),
             fmt::format("{}", fmt::join(p.notes, "; ")));
  for (const auto& u : in.fusion.unpaired) {
    SideColumns side{f(u.name), f(u.backend), "", "", "", "", "", ""};
    const SideColumns empty{};
    s += row(u.op, u.params, u.dtype, u.pattern, u.threads, u.device, false, u.fused ? empty : side,
             u.fused ? side : empty, 0, 0, 0, 0, 0, ",,,", u.reason);
  }
  return s;
}

std::string sweep_csv(const ReportInput& in) {
  std::string s =
      "op,params,dtype,pattern,threads,device,backend,fused,L,seconds_per_call,gflops_per_s,"
      "intensity_flop_per_byte,level,ridge_intensity_flop_per_byte,ridge_L,ridge_L_extrapolated,"
      "ridge_note\n";
  for (const auto& sw : in.fusion.eltwise_sweeps)
    for (const auto& p : sw.points)
      s += fmt::format("eltwise_chain,{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                       f(sw.params), f(sw.dtype), f(sw.pattern), sw.threads, to_string(sw.device),
                       f(sw.backend), sw.fused ? "yes" : "no", p.length, csv_number(p.seconds),
                       csv_number(p.achieved / 1e9), csv_number(p.intensity), f(sw.level),
                       csv_number(sw.ridge_intensity), csv_number(sw.ridge_length),
                       sw.ridge_length > 0 ? (sw.ridge_extrapolated ? "yes" : "no") : "",
                       f(sw.ridge_note));
  return s;
}

std::string passes_csv(const ReportInput& in) {
  // The pass table's own columns (tables.cpp) after what the chain is: the fusion suite's
  // unfused chains, then the steps an einsum lowering lapped (TTGT's permutes and GEMM).
  using reports::csv_header;
  using reports::csv_rows;
  std::string s = csv_header(
      {"op", "params", "dtype", "pattern", "threads", "device", "backend", "case", "level"},
      unfused_pass_table(UnfusedChain{}));
  const auto add = [&](const UnfusedChain& c) {
    s += csv_rows(
        fmt::format("{},{},{},{},{},{},{},{},{}", f(c.op), f(c.params), f(c.dtype), f(c.pattern),
                    c.threads, to_string(c.device), f(c.backend), f(c.name), f(c.level)),
        unfused_pass_table(c));
  };
  for (const auto& c : in.fusion.chains) add(c);
  for (const auto& e : in.einsum)
    for (const auto& l : e.lowerings)
      if (l.passes) add(*l.passes);
  return s;
}

}  // namespace ridgeline

namespace ridgeline::reports {

std::string csv_header(const std::vector<std::string>& lead_names, const Table& t) {
  std::string s;
  for (const auto& h : lead_names) s.append(s.empty() ? "" : ",").append(escape_csv_field(h));
  for (const auto& h : t.headers) s.append(s.empty() ? "" : ",").append(escape_csv_field(h));
  return s + "\n";
}

std::string csv_rows(const std::string& lead, const Table& t) {
  std::string s;
  for (const auto& row : t.rows) {
    s += lead;
    for (const auto& cell : row)  // the dash of a value there is none of: an empty field
      s.append(",").append(!std::isnan(cell.value) ? csv_number(cell.value)
                           : cell.text == "—"      ? std::string()
                                                   : escape_csv_field(cell.text));
    s += "\n";
  }
  return s;
}

}  // namespace ridgeline::reports
