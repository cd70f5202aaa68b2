#pragma once
// What the op kernel tests share: a problem from an op and its params text, operands
// filled the way the runner fills them (inputs from a pattern, outputs poisoned), the
// built-in catalog, and one kernel run as the runner runs it, checked by validate().
#include <string>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/kernels/validation.hpp"

namespace ridgeline::test {

inline Problem make_problem(const std::string& op, const std::string& params) {
  Problem p;
  p.op = op;
  p.params = parse_params(op_definition(op), params);
  return p;
}

inline void fill_operands(Operands& ops, const std::string& pattern = "normal") {
  std::uint64_t seed = 1;
  for (auto& e : ops.entries()) {
    if (e.spec.role == OperandRole::output)
      poison(e.buffer);
    else
      fill_pattern(e.buffer, pattern, seed++);
  }
}

// A problem's operands as the runner prepares a case: inputs from the normal pattern, outputs
// poisoned (NaN), so an entry a kernel never writes shows.
inline Operands filled(const Problem& p) {
  Operands ops = allocate_operands(p);
  fill_operands(ops);
  return ops;
}

inline const KernelCatalog& builtin_catalog() {
  static const KernelCatalog c = KernelCatalog::with_builtin_kernels({});
  return c;
}

// prepare, one run, validate; the kernel must support the problem.
inline Validation run_and_validate(Kernel& kernel, const Problem& p, int threads) {
  Operands ops = allocate_operands(p);
  fill_operands(ops);
  kernel.prepare(p, ops, threads);
  kernel.run();
  kernel.finish();
  return validate(p, ops, 7);
}

}  // namespace ridgeline::test
