// Energy per call on both sides of a fusion pair: each case's energy.<domain> readings
// (NVML's energy counter on a GPU, RAPL's on a CPU) summed over its timed repetitions and
// divided by the iterations those repetitions ran. One repetition of ~0.1 s reads a counter
// of coarse resolution; the sum over all of them does not depend on it as much.
#include "fusion_energy.hpp"

#include <fmt/format.h>

#include "ridgeline/analysis/usable.hpp"

namespace ridgeline {

CaseEnergy case_energy(const Run& run) {
  struct Sum {
    double joules = 0, calls = 0;
  };
  std::map<std::string, std::map<std::string, Sum>> sums;
  for (const auto& r : run.benchmarks) {
    if (r.run_type != "iteration" || r.error_occurred || !r.ridgeline || r.iterations <= 0)
      continue;
    for (const auto& m : r.ridgeline->metrics)
      if (m.name.rfind("energy.", 0) == 0 && usable(m.value) && m.value >= 0) {
        Sum& s = sums[r.run_name.empty() ? r.name : r.run_name][m.name.substr(7)];
        s.joules += m.value;
        s.calls += static_cast<double>(r.iterations);
      }
  }
  CaseEnergy out;
  for (const auto& [name, domains] : sums)
    for (const auto& [domain, s] : domains)
      if (s.calls > 0 && s.joules > 0) out[name][domain] = s.joules / s.calls;
  return out;
}

void set_energy(FusionPair& pair, const CaseEnergy& energy) {
  const auto u = energy.find(pair.unfused.name), f = energy.find(pair.fused.name);
  if (u == energy.end() || f == energy.end()) return;
  // The device's own counter: the GPU's on a GPU, else the first domain both sides read
  // (RAPL's package-0 before its dram and core domains, by name).
  std::string domain;
  if (pair.device == Device::gpu) {
    if (u->second.count("gpu") && f->second.count("gpu")) domain = "gpu";
  } else {
    for (const auto& [d, joules] : f->second) {  // by name: package-0 before package-1
      if (!u->second.count(d)) continue;
      const bool package = d.rfind("package", 0) == 0;
      if (domain.empty() || (package && domain.rfind("package", 0) != 0)) domain = d;
    }
  }
  if (domain.empty()) return;
  pair.energy_domain = domain;
  pair.unfused.joules = u->second.at(domain);
  pair.fused.joules = f->second.at(domain);
  pair.energy_ratio = pair.unfused.joules / pair.fused.joules;
  if (!usable(pair.energy_ratio)) pair.energy_ratio = 0;
}

}  // namespace ridgeline
