#include "suite_rows.hpp"

#include <algorithm>

#include "ridgeline/core/op.hpp"

namespace ridgeline {

namespace {

bool serves(const KernelInfo& k, SuiteKernels kernels, const std::string& op, KernelRole role,
            DType dtype) {
  return k.op == op && k.role == role && k.device == kernels.device &&
         (role == KernelRole::vendor || k.family == kernels.own_family) &&
         std::find(k.dtypes.begin(), k.dtypes.end(), dtype) != k.dtypes.end();
}

}  // namespace

std::vector<CaseSpec> expand_suite_rows(const KernelCatalog& catalog, SuiteKernels kernels,
                                        const std::vector<SuiteRow>& rows,
                                        const std::vector<int>& threads) {
  std::vector<CaseSpec> cases;
  for (int t : threads)
    for (const SuiteRow& row : rows)
      for (const std::string op : row.ops)
        for (const SuiteShapes& shapes : row.shapes)
          for (const char* params : shapes.params)
            for (KernelRole role : row.roles)
              for (const KernelInfo& k : catalog.kernels())
                if (serves(k, kernels, op, role, shapes.dtype)) {
                  Problem p;
                  p.op = op;
                  p.params = parse_params(op_definition(op), params);
                  p.dtype = shapes.dtype;
                  cases.push_back({k.backend, p, t});
                }
  return cases;
}

std::vector<int> one_and_all(int cpus) {
  return cpus > 1 ? std::vector<int>{1, cpus} : std::vector<int>{1};
}

}  // namespace ridgeline
