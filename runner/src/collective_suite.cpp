#include "collective_suite.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ridgeline {

std::vector<CaseSpec> collectives_suite(const KernelCatalog& catalog, int) {
  int ranks = 1;
  for (const KernelInfo& k : catalog.kernels()) ranks = std::max(ranks, k.ranks);
  const std::vector<std::pair<const char*, std::vector<std::pair<DType, std::string>>>> rows{
      {"allreduce",
       {{DType::f32, fmt::format("count=256,ranks={}", ranks)},
        {DType::f32, fmt::format("count=65536,ranks={}", ranks)},
        {DType::f32, fmt::format("count=4194304,ranks={}", ranks)},
        {DType::f64, fmt::format("count=32768,ranks={}", ranks)}}},
      {"tp_gemm",
       {{DType::f32, fmt::format("m=1024,n=1024,k={},ranks={}", 256 * ranks, ranks)},
        {DType::f32, fmt::format("m=1024,n=1024,k={},ranks={}", 16 * ranks, ranks)}}}};
  std::vector<CaseSpec> cases;
  for (const auto& [op, problems] : rows)
    for (const auto& [dtype, params] : problems)
      for (const KernelInfo& k : catalog.kernels())
        if (k.op == op) {
          Problem p;
          p.op = op;
          p.params = parse_params(op_definition(op), params);
          p.dtype = dtype;
          cases.push_back({k.backend, p, 1});
        }
  return cases;
}

}  // namespace ridgeline
