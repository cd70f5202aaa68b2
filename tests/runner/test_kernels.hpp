#pragma once
// Test-only kernels that misbehave on purpose: they exist to show the runner records
// each failure and carries on. Never registered outside the tests.
#include <cstdint>
#include <string>

#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline::testing {

// The built-in CPU ladder (no BLAS) plus: test.wrong (one wrong entry), test.segfault,
// test.abort, test.hang (never returns), test.unwritten (leaves C untouched),
// test.throws_when_timed, and collectives whose other rank failed (test.other_rank_wrong,
// test.other_rank_unprepared) or which throw part-way (test.collective_throws,
// test.collective_throws_when_timed).
KernelCatalog catalog_with_test_kernels();

// An n x n x n f64 GEMM case on `backend`, one thread.
inline CaseSpec spec(const std::string& backend, std::int64_t n) {
  return {backend, gemm_problem(Shape{n, n, n, 1}, Layout::NN, DType::f64, "normal"), 1};
}

// Two quick repetitions, a 3 s case limit.
inline RunSettings quick() {
  RunSettings s;
  s.repetitions = 2;
  s.min_time_s = 0.001;
  s.warmup_s = 0;
  s.case_timeout_s = 3;
  return s;
}

}  // namespace ridgeline::testing
