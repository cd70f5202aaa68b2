// allreduce: y = the sum over the job's ranks of each rank's x (MPI_Allreduce, MPI_SUM), as
// one rank sees it. Every rank's x is the same here (the same seed), so y = ranks · x.
// Counted per rank, for a ring (the algorithm nccl-tests' bus bandwidth assumes): a
// reduce-scatter then an allgather, each moving (ranks - 1) / ranks of the buffer.
#include "op_definitions.hpp"

namespace ridgeline::ops {

namespace {

std::vector<OperandSpec> operands(const Problem& p) {
  const std::int64_t count = p.params.dim("count");
  return {{"x", OperandRole::input, {"count"}, count, p.dtype},
          {"y", OperandRole::output, {"count"}, count, p.dtype}};
}

// The sums: each element gets the other ranks' values, (ranks - 1) additions, shared among
// the ranks (each reduces its 1 / ranks of the buffer in the reduce-scatter).
double flops(const Problem& p) {
  const double r = dim(p, "ranks");
  return dim(p, "count") * (r - 1) / r;
}

// Memory: x read once, y written once. Network: what each rank sends (and receives), the
// bus bytes of nccl-tests: 2 (ranks - 1) / ranks of the buffer.
WorkModel work(const Problem& p) {
  const double r = dim(p, "ranks"), buffer = dim(p, "count") * in_bytes(p);
  WorkModel w = dram_work(flops(p), 2 * buffer);
  w.bytes[MemoryLevel::network] = 2 * (r - 1) / r * buffer;
  return w;
}

// Each sum of `ranks` values, in any order MPI takes.
double tolerance(const Problem& p) {
  return elementwise_tolerance(p, dim(p, "ranks"));
}

}  // namespace

OpDefinition allreduce_definition() {
  OpDefinition op;
  op.name = "allreduce";
  op.description = "sum of a buffer over every rank of an MPI job (MPI_Allreduce)";
  op.dims = {required_dim("count", "elements of the buffer"),
             required_dim("ranks", "ranks of the job (mpirun -np)")};
  op.dtypes = {DType::f32, DType::f64};
  op.example = "count=1024,ranks=2";
  op.awkward = {"count=1,ranks=2", "count=17,ranks=3", "count=4099,ranks=4"};
  op.operands = operands;
  op.work = work;
  op.tolerance = tolerance;
  op.reference = ReferenceKind::allreduce;
  return op;
}

}  // namespace ridgeline::ops
