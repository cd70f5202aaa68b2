// What this machine can show about data without power counters: the same kernels on every
// input pattern, and subnormal inputs with the IEEE environment against FTZ/DAZ. A CPU that
// takes a microcode assist for subnormal operands or results runs the subnormal cases
// slower under ieee and at full speed under ftz_daz; one that handles them in hardware
// shows no difference. Either is a measurement.
#include "pattern_suites.hpp"

#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "suite_rows.hpp"

namespace ridgeline {

namespace {

const char* const kEveryPattern[] = {"normal",      "zeros",    "constant", "uniform",
                                     "integer",     "sparse50", "sparse90", "mantissa2",
                                     "sign_random", "subnormal"};

CaseSpec with(CaseSpec c, const char* pattern, FpEnv env) {
  c.problem.pattern = pattern;
  c.fp_env = env;
  return c;
}

// normal and subnormal, each under ieee and ftz_daz.
void subnormal_pairs(std::vector<CaseSpec>& cases, const CaseSpec& base) {
  for (FpEnv env : {FpEnv::ieee, FpEnv::ftz_daz})
    for (const char* pattern : {"normal", "subnormal"}) cases.push_back(with(base, pattern, env));
}

}  // namespace

std::vector<CaseSpec> patterns_suite(const KernelCatalog& catalog, int cpus) {
  std::vector<CaseSpec> cases;
  // The packed GEMM at 1024^3, f32, 1 thread: every pattern, then subnormals under FTZ/DAZ.
  if (auto packed = best_packed_backend(false)) {
    const CaseSpec gemm{*packed, gemm_problem(Shape{1024, 1024, 1024, 1}), 1};
    for (const char* pattern : kEveryPattern) cases.push_back(with(gemm, pattern, FpEnv::ieee));
    cases.push_back(with(gemm, "subnormal", FpEnv::ftz_daz));
    cases.push_back(with(gemm, "normal", FpEnv::ftz_daz));
  }
  // A vendor BLAS on the same problem (1 thread: its own threads are beyond MXCSR's reach).
  if (catalog.find("blas.openblas"))
    subnormal_pairs(cases, {"blas.openblas", gemm_problem(Shape{1024, 1024, 1024, 1}), 1});
  // The fused eltwise chain, 8 ops on 2^22 elements (16 MiB), on 1 and all threads.
  Problem chain;
  chain.op = "eltwise_chain";
  chain.params = parse_params(op_definition("eltwise_chain"), "n=4194304,L=8");
  for (int t : one_and_all(cpus)) subnormal_pairs(cases, {"cpu.fused", chain, t});
  return cases;
}

}  // namespace ridgeline
