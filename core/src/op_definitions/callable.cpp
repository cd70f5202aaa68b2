// callable: a function measured from outside the suite (the Python module's
// ridgeline.measure: a NumPy, PyTorch or JAX block, or any callable). It has no dimensions
// and no operands of Ridgeline's: its FLOPs and bytes per call are the caller's (given, or
// counted by the framework: the case's notes say which), recorded with each result, so the
// op's own work model is empty and no suite plans it. Ridgeline has no reference for it:
// its cases are not_verified.
#include "op_definitions.hpp"

namespace ridgeline::ops {

namespace {

std::vector<OperandSpec> operands(const Problem&) {
  return {};
}

// Nothing of its own: the caller's work model is the case's (CaseDetails::work).
WorkModel work(const Problem&) {
  return {};
}

}  // namespace

OpDefinition callable_definition() {
  OpDefinition op;
  op.name = "callable";
  op.description =
      "a caller's function (ridgeline.measure in Python): its work as the caller gave it";
  op.dtypes = {DType::f64, DType::f32, DType::tf32, DType::bf16, DType::f16, DType::i8, DType::i32};
  op.operands = operands;
  op.work = work;
  op.measured_by_caller = true;
  return op;
}

}  // namespace ridgeline::ops
