#pragma once
#include <string>
#include <vector>

#include "ridgeline/core/run.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

struct RunSettings;

// A named set of cases. Suites are expanded against the catalog of this machine, so a
// suite asks for "the packed rung" and gets the ISA variant this CPU runs.
struct SuiteDefinition {
  std::string name;
  std::string description;
  std::vector<CaseSpec> (*expand)(const KernelCatalog& catalog, int cpus);
  int repetitions;  // defaults for RunSettings when the user gives none
  double min_time_s;
  // The einsum networks whose paths' steps the suite holds as cases (einsum's chains), for
  // the Run's provenance; none for the other suites.
  const std::vector<EinsumNetworkRun>& (*einsum_networks)() = nullptr;
};

const std::vector<SuiteDefinition>& suites();
const SuiteDefinition* find_suite(const std::string& name);

}  // namespace ridgeline
