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
  std::vector<std::string> layouts;
  std::vector<int> threads;
  std::vector<Shape> shapes;
};

// Expands and filters; throws InputError on an unknown name, a bad regex, or a case whose
// buffers would not fit in the memory available now.
std::vector<CaseSpec> make_plan(const KernelCatalog& catalog, const PlanRequest& request);

// "1024", "512x256x128" or "m=..,n=..,k=.." to a Shape; throws InputError naming `text`.
Shape parse_shape(const std::string& text);

// Memory the OS says is available now (MemAvailable), in bytes.
std::uint64_t available_memory_bytes();

}  // namespace ridgeline
