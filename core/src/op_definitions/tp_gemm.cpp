// tp_gemm: a tensor-parallel (row-parallel) linear layer as one rank runs it: the inner
// dimension k is split among the ranks, each multiplies its shard, A_r (m × k/ranks) by B_r
// (k/ranks × n), into a partial C, and an allreduce sums the partials into C = A B on every
// rank (Megatron-LM's row-parallel layer). Every rank's shards are the same here (the same
// seed), so C = ranks · A_r B_r.
#include <fmt/format.h>

#include "op_definitions.hpp"
#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline::ops {

namespace {

double shard(const Problem& p) {
  return dim(p, "k") / dim(p, "ranks");
}

std::vector<OperandSpec> operands(const Problem& p) {
  const std::int64_t m = p.params.dim("m"), n = p.params.dim("n");
  const std::int64_t ks = p.params.dim("k") / p.params.dim("ranks");
  return {{"A", OperandRole::input, {"m", "k/ranks"}, m * ks, p.dtype},
          {"B", OperandRole::input, {"k/ranks", "n"}, ks * n, p.dtype},
          {"C", OperandRole::output, {"m", "n"}, m * n, p.dtype}};
}

// The shard's product, 2 m n k/ranks, and the allreduce's sums of the partial C, m n
// (ranks - 1) / ranks (allreduce.cpp). Memory: the shards read once, C written once. Network:
// the allreduce's bus bytes, 2 (ranks - 1) / ranks of C.
WorkModel work(const Problem& p) {
  const double m = dim(p, "m"), n = dim(p, "n"), r = dim(p, "ranks"), e = in_bytes(p);
  WorkModel w = dram_work(2 * m * n * shard(p) + m * n * (r - 1) / r,
                          (m * shard(p) + shard(p) * n + m * n) * e);
  w.bytes[MemoryLevel::network] = 2 * (r - 1) / r * m * n * e;
  return w;
}

std::string consistent(const OpParams& params) {
  const std::int64_t k = params.dim("k"), r = params.dim("ranks");
  return k % r == 0 ? ""
                    : fmt::format(
                          "k={} does not split evenly among ranks={} (each rank takes "
                          "k/ranks of the inner dimension)",
                          k, r);
}

// The shard's dot products of k/ranks terms, then the sum of `ranks` partials.
double tolerance(const Problem& p) {
  return gemm_tolerance(p) + elementwise_tolerance(p, dim(p, "ranks"));
}

}  // namespace

OpDefinition tp_gemm_definition() {
  OpDefinition op;
  op.name = "tp_gemm";
  op.description =
      "tensor-parallel GEMM: each rank's k/ranks shard multiplied, then an "
      "allreduce of C";
  op.dims = {required_dim("m", "rows of C"), required_dim("n", "columns of C"),
             required_dim("k", "the inner dimension, split among the ranks"),
             required_dim("ranks", "ranks of the job (mpirun -np)")};
  op.dtypes = {DType::f32, DType::f64};
  op.example = "m=64,n=64,k=64,ranks=2";
  op.awkward = {"m=1,n=1,k=2,ranks=2", "m=37,n=53,k=87,ranks=3", "m=130,n=67,k=300,ranks=4"};
  op.operands = operands;
  op.work = work;
  op.consistent = consistent;
  op.tolerance = tolerance;
  op.reference = ReferenceKind::tp_gemm;
  return op;
}

}  // namespace ridgeline::ops
