// The kernel contract (docs/kernel-contract.md), held to by every kernel of the catalog the
// same way: each dtype it declares, each of its op's awkward problems (OpDefinition::awkward),
// one and two threads. A new kernel is tested by being registered. For each case it
// supports: outputs poisoned first, the result validated against the op's reference, its
// inputs untouched, and a second run() after the one prepare() gives the same bits; for
// each it refuses, a reason in one line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

#include "../support/probed_blas.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/kernels/validation.hpp"

namespace ridgeline {
namespace {

struct ConformanceCase {
  std::string op, backend, params;
  DType dtype;
  int threads;
  friend void PrintTo(const ConformanceCase& c, std::ostream* os) {
    *os << c.op << " " << c.backend << " " << to_string(c.dtype) << " " << c.params
        << " threads=" << c.threads;
  }
};

const KernelCatalog& conformance_catalog() {
  static const KernelCatalog c = KernelCatalog::with_builtin_kernels(probed_blas_libraries());
  return c;
}

// Kernels held to the contract that the catalog does not list: the AMX rung on the tile
// model (amx_tiles.hpp), which runs on any CPU, so its packing, tiling and tails are checked
// everywhere, not only where the tiles are (#63).
std::vector<std::unique_ptr<Kernel>> unlisted_kernels() {
  std::vector<std::unique_ptr<Kernel>> out;
  for (bool threaded : {false, true})
    out.push_back(make_packed_amx_gemm(threaded, AmxTiles::model));
  return out;
}

std::unique_ptr<Kernel> create_kernel(const ConformanceCase& c) {
  if (auto k = conformance_catalog().create(c.backend, c.op)) return k;
  for (auto& k : unlisted_kernels())
    if (k->info().backend == c.backend && k->info().op == c.op) return std::move(k);
  return nullptr;
}

Problem problem_of(const ConformanceCase& c) {
  Problem p;
  p.op = c.op;
  p.params = parse_params(op_definition(c.op), c.params);
  p.dtype = c.dtype;
  p.pattern = "normal";
  return p;
}

std::vector<ConformanceCase> conformance_cases() {
  std::vector<ConformanceCase> cases;
  std::vector<KernelInfo> kernels = conformance_catalog().kernels();
  for (const auto& k : unlisted_kernels()) kernels.push_back(k->info());
  for (const auto& k : kernels)
    for (DType dtype : k.dtypes)
      for (const std::string& params : op_definition(k.op).awkward)
        for (int threads : {1, 2})
          if (threads == 1 || k.threaded)  // the others refuse 2 (Catalog tests say so)
            cases.push_back({k.op, k.backend, params, dtype, threads});
  return cases;
}

std::string conformance_case_name(const ::testing::TestParamInfo<ConformanceCase>& info) {
  const auto& c = info.param;
  std::string name =
      fmt::format("{}_{}_{}_{}_t{}", c.op, c.backend, to_string(c.dtype), c.params, c.threads);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

// Every byte of every operand of `role`s other than output.
std::vector<std::vector<unsigned char>> inputs_of(const Operands& ops) {
  std::vector<std::vector<unsigned char>> out;
  for (const auto& e : ops.entries())
    if (e.spec.role != OperandRole::output) {
      const auto* b = static_cast<const unsigned char*>(e.buffer.raw());
      out.emplace_back(b, b + e.buffer.bytes());
    }
  return out;
}

std::vector<std::vector<unsigned char>> outputs_of(const Operands& ops) {
  std::vector<std::vector<unsigned char>> out;
  for (const auto& e : ops.entries())
    if (e.spec.role == OperandRole::output) {
      const auto* b = static_cast<const unsigned char*>(e.buffer.raw());
      out.emplace_back(b, b + e.buffer.bytes());
    }
  return out;
}

class Conformance : public ::testing::TestWithParam<ConformanceCase> {};

TEST_P(Conformance, ComputesTheOpsReferenceOrSaysWhyNot) {
  const ConformanceCase& c = GetParam();
  const Problem p = problem_of(c);
  auto kernel = create_kernel(c);
  ASSERT_TRUE(kernel);
  const Support support = kernel->supports(p, c.threads);
  if (!support) {
    // A refusal says why, in one line (the run's table and the report show it).
    EXPECT_FALSE(support.reason.empty());
    EXPECT_EQ(support.reason.find('\n'), std::string::npos) << support.reason;
    GTEST_SKIP() << support.reason;
  }
  Operands ops = allocate_operands(p);
  fill_operands(ops, "normal", 1);
  const auto inputs = inputs_of(ops);
  kernel->prepare(p, ops, c.threads);
  kernel->run();
  kernel->finish();
  const Validation v = validate(p, ops, 7);
  EXPECT_EQ(v.disposition, Disposition::passed)
      << v.message << " (max rel err " << v.max_rel_err << ", tolerance " << v.tolerance << ")";
  EXPECT_TRUE(inputs_of(ops) == inputs) << "run() wrote into an input or weight";
  // run() overwrites its outputs: a second call gives the same bits, not an accumulation.
  const auto first = outputs_of(ops);
  kernel->run();
  kernel->finish();
  EXPECT_TRUE(outputs_of(ops) == first) << "a second run() changed the outputs";
}

// One byte count per pass (#66): a kernel that runs a chain pass by pass (an unfused kernel,
// a lowering with steps) records as its work exactly what its passes move, level by level,
// so its point and the pass table read the same traffic; an unfused kernel's is the op's
// unfused model. Analytic, so it holds whether or not this machine can run the kernel.
TEST_P(Conformance, RecordsTheBytesItsPassesMove) {
  const ConformanceCase& c = GetParam();
  const Problem p = problem_of(c);
  auto kernel = create_kernel(c);
  ASSERT_TRUE(kernel);
  const bool unfused = kernel->info().role == KernelRole::unfused;
  const std::vector<PassWork> passes = kernel->passes(p);
  const bool steps = kernel->info().lowering == LoweringKind::ttgt && !passes.empty();
  if (!unfused && !steps) GTEST_SKIP() << "laps no passes: its work is the op's or its lowering's";
  ASSERT_FALSE(passes.empty()) << "an unfused kernel with no passes";
  std::map<MemoryLevel, double> summed;
  for (const auto& pass : passes)
    for (const auto& [level, bytes] : pass.work.bytes) summed[level] += bytes;
  const WorkModel recorded = kernel->work(p);
  EXPECT_EQ(recorded.bytes.size(), summed.size());
  for (const auto& [level, bytes] : summed)
    EXPECT_DOUBLE_EQ(recorded.bytes_at(level), bytes) << to_string(level);
  if (unfused) {
    EXPECT_EQ(recorded.bytes, op_unfused_work(p).bytes);
    EXPECT_DOUBLE_EQ(recorded.flops, op_work(p).flops);
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, Conformance, ::testing::ValuesIn(conformance_cases()),
                         conformance_case_name);

TEST(Conformance, EveryOpHasAwkwardProblemsItAccepts) {
  for (const auto& op : op_registry()) {
    if (op.measured_by_caller) continue;  // no kernel runs it: nothing to be awkward for
    EXPECT_GE(op.awkward.size(), 3u) << op.name;
    for (const auto& params : op.awkward) EXPECT_NO_THROW(parse_params(op, params)) << params;
  }
}

}  // namespace
}  // namespace ridgeline
