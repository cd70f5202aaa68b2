#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

// What the user asked `ridgeline run` for. Empty lists mean "as the suite says".
struct PlanRequest {
  std::string suite = "default";
  // regex searched in case names, like --benchmark_filter ("-REGEX": the cases not matching)
  std::optional<std::string> filter;
  std::vector<std::string> backends;
  std::vector<std::string> dtypes;
  std::vector<std::string> patterns;
  std::vector<std::string> fp_envs;  // "ieee", "ftz_daz"
  std::vector<std::string> caches;   // "warm", "cold" (vocabulary.hpp: CacheState)
  std::vector<std::string> layouts;
  std::vector<int> threads;
  // Params overrides, "m=512,n=256,k=128" or "rows=4096,cols=4096": each applies to the
  // cases whose op declares every name in it (core/op.hpp: apply_params).
  std::vector<std::string> params;
};

// The cases of a request (make_plan, run_request.hpp, calls it): the suite expanded against
// the catalog and filtered. Throws InputError naming every unknown name and bad regex, or
// else the params no op took and the cases whose buffers would not fit in the memory
// available now.
std::vector<CaseSpec> plan_cases(const KernelCatalog& catalog, const PlanRequest& request);

// --shape: "1024" or "512x256x128" to the params override "m=512,n=256,k=128"; throws
// InputError naming `text`.
std::string parse_shape(const std::string& text);

}  // namespace ridgeline
