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

// Expands and filters; throws InputError on an unknown name, a bad regex, or a case whose
// buffers would not fit in the memory available now.
std::vector<CaseSpec> make_plan(const KernelCatalog& catalog, const PlanRequest& request);

// --shape: "1024" or "512x256x128" to the params override "m=512,n=256,k=128"; throws
// InputError naming `text`.
std::string parse_shape(const std::string& text);

}  // namespace ridgeline
