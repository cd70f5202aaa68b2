#pragma once
// Test-only kernels that misbehave on purpose: they exist to show the runner records
// each failure and carries on. Never registered outside the tests.
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline::testing {

// The built-in CPU ladder (no BLAS) plus: test.wrong (one wrong entry), test.segfault,
// test.abort, test.hang (never returns), test.unwritten (leaves C untouched).
KernelCatalog catalog_with_test_kernels();

}  // namespace ridgeline::testing
