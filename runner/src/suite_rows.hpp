#pragma once
// A suite as data: rows that name ops, their shapes and dtypes, and the kernel roles to run
// them with; the kernels of each role come from the catalog. A new fused kernel, or a vendor
// for an op, joins every suite row that names its op and role by being registered.
#include <string_view>
#include <vector>

#include "ridgeline/core/vocabulary.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

// Params as the command line takes them ("rows=4096,cols=4096", "m=64,n=64,k=64/act=relu"),
// all in one dtype.
struct SuiteShapes {
  DType dtype = DType::f32;
  std::vector<const char*> params;
};

struct SuiteRow {
  std::vector<const char*> ops;
  std::vector<SuiteShapes> shapes;
  std::vector<KernelRole> roles;
};

// The roles as the suites' rows spell them.
inline constexpr KernelRole kUnfused = KernelRole::unfused, kFused = KernelRole::fused,
                            kVendor = KernelRole::vendor;

// Where a suite's kernels come from: the device, and the family of its own fused and
// unfused kernels ("cpu", "cuda"); a vendor of any family serves the vendor role.
struct SuiteKernels {
  Device device = Device::cpu;
  std::string_view own_family;
};

// For each thread count, each row, op, shapes, params and role in that order: a case for
// every kernel of the role that lists the dtype (in catalog order). A role no kernel fills
// adds nothing.
std::vector<CaseSpec> expand_suite_rows(const KernelCatalog& catalog, SuiteKernels kernels,
                                        const std::vector<SuiteRow>& rows,
                                        const std::vector<int>& threads);

// {1}, or {1, cpus} on a machine with several: the thread counts most suites run.
std::vector<int> one_and_all(int cpus);

}  // namespace ridgeline
