#pragma once
// A suite as data: rows that name ops, their shapes and dtypes, and the kernel roles to run
// them with; the kernels of each role come from the catalog. A new fused kernel, or a vendor
// for an op, joins every suite row that names its op and role by being registered. The GEMM
// suites' rows name their kernels (a rung of the ladder, every BLAS, every GEMM of the GPU),
// and the patterns suites' a kernel, a problem and the inputs to run it on.
#include <cstdint>
#include <string_view>
#include <vector>

#include "ridgeline/core/fp_env.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/vocabulary.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

// Params as the command line takes them ("rows=4096,cols=4096", "m=64,n=64,k=64/act=relu"),
// all in one dtype.
struct SuiteShapes {
  DType dtype = DType::f32;
  std::vector<const char*> params;
};

struct SuiteRow {
  std::vector<const char*> ops;
  std::vector<SuiteShapes> shapes;
  std::vector<KernelRole> roles;
};

// The roles as the suites' rows spell them.
inline constexpr KernelRole kUnfused = KernelRole::unfused, kFused = KernelRole::fused,
                            kVendor = KernelRole::vendor;

// Where a suite's kernels come from: the device, and the family of its own fused and
// unfused kernels ("cpu", "cuda"); a vendor of any family serves the vendor role.
struct SuiteKernels {
  Device device = Device::cpu;
  std::string_view own_family;
};

// For each thread count, each row, op, shapes, params and role in that order: a case for
// every kernel of the role that lists the dtype (in catalog order). A role no kernel fills
// adds nothing.
std::vector<CaseSpec> expand_suite_rows(const KernelCatalog& catalog, SuiteKernels kernels,
                                        const std::vector<SuiteRow>& rows,
                                        const std::vector<int>& threads);

// {1}, or {1, cpus} on a machine with several: the thread counts most suites run.
std::vector<int> one_and_all(int cpus);

// A kernel a GEMM or patterns row names, for a thread count: a backend by name (one on one
// thread, one on several; nullptr: none there), or what this machine's catalog decides.
struct KernelPick {
  enum class Kind {
    named,
    best_packed,     // the packed rung this CPU runs best (catalog.hpp: best_packed_backend)
    every_blas,      // each BLAS library's GEMM in catalog order; on several threads, the
                     // threaded ones
    every_gpu_gemm,  // each GEMM kernel of the GPU in catalog order
  };
  Kind kind = Kind::named;
  const char* one_thread = nullptr;
  const char* threaded = nullptr;
};

inline constexpr KernelPick kBestPacked{KernelPick::Kind::best_packed},
    kEveryBlas{KernelPick::Kind::every_blas}, kEveryGpuGemm{KernelPick::Kind::every_gpu_gemm};

// One dtype's GEMMs in a row: each shape in each layout.
struct GemmForms {
  DType dtype = DType::f32;
  std::vector<Shape> shapes;
  std::vector<Layout> layouts{Layout::NN};
};

// The largest m, n or k a backend is worth running at (the naive loop at 4096^3 takes
// minutes).
struct SizeLimit {
  std::string_view backend;
  std::int64_t largest = 0;
};

// A GEMM row: the kernels its picks name, in order (a backend once per thread count), each
// on the dtypes it lists that the row has forms for, normal inputs. A named backend that is
// not in this build still has its cases, in f32 and f64, which then say why.
struct GemmRow {
  std::vector<KernelPick> kernels;
  std::vector<GemmForms> forms;
  std::vector<SizeLimit> limits;
};

// The same shapes (NN) in every dtype: each kernel runs those it lists.
std::vector<GemmForms> in_every_dtype(const std::vector<Shape>& shapes);

// For each thread count, each row, kernel, dtype, shape and layout in that order.
std::vector<CaseSpec> expand_gemm_rows(const KernelCatalog& catalog,
                                       const std::vector<GemmRow>& rows,
                                       const std::vector<int>& threads);

// An input pattern in a floating-point environment.
struct PatternRun {
  const char* pattern = nullptr;
  FpEnv env = FpEnv::ieee;
};

// A patterns row: the kernel its pick names, where the catalog has it, on one problem, on
// one thread or on one and all, each run in turn.
struct PatternRow {
  KernelPick kernel;
  const char* op = nullptr;
  DType dtype = DType::f32;
  const char* params = nullptr;
  bool all_threads = false;
  std::vector<PatternRun> runs;
};

// Each row, thread count, kernel and run in that order.
std::vector<CaseSpec> expand_pattern_rows(const KernelCatalog& catalog,
                                          const std::vector<PatternRow>& rows, int cpus);

}  // namespace ridgeline
