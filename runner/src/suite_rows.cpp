#include "suite_rows.hpp"

#include <algorithm>

#include "ridgeline/core/op.hpp"

namespace ridgeline {

namespace {

bool serves(const KernelInfo& k, SuiteKernels kernels, const std::string& op, KernelRole role,
            DType dtype) {
  return k.op == op && k.role == role && k.device == kernels.device &&
         (role == KernelRole::vendor || k.family == kernels.own_family) &&
         std::find(k.dtypes.begin(), k.dtypes.end(), dtype) != k.dtypes.end();
}

}  // namespace

std::vector<CaseSpec> expand_suite_rows(const KernelCatalog& catalog, SuiteKernels kernels,
                                        const std::vector<SuiteRow>& rows,
                                        const std::vector<int>& threads) {
  std::vector<CaseSpec> cases;
  for (int t : threads)
    for (const SuiteRow& row : rows)
      for (const std::string op : row.ops)
        for (const SuiteShapes& shapes : row.shapes)
          for (const char* params : shapes.params)
            for (KernelRole role : row.roles)
              for (const KernelInfo& k : catalog.kernels())
                if (serves(k, kernels, op, role, shapes.dtype)) {
                  Problem p;
                  p.op = op;
                  p.params = parse_params(op_definition(op), params);
                  p.dtype = shapes.dtype;
                  cases.push_back({k.backend, p, t});
                }
  return cases;
}

std::vector<int> one_and_all(int cpus) {
  return cpus > 1 ? std::vector<int>{1, cpus} : std::vector<int>{1};
}

namespace {

// The backends a pick names on `threads` threads, in order.
std::vector<std::string> picked(const KernelCatalog& catalog, const KernelPick& pick, int threads) {
  const bool threaded = threads > 1;
  std::vector<std::string> backends;
  switch (pick.kind) {
    case KernelPick::Kind::named:
      if (const char* name = threaded ? pick.threaded : pick.one_thread) backends.push_back(name);
      break;
    case KernelPick::Kind::best_packed:
      if (auto packed = best_packed_backend(threaded)) backends.push_back(*packed);
      break;
    case KernelPick::Kind::every_blas:
      for (const KernelInfo& k : catalog.kernels())
        if (k.op == "gemm" && k.family == kBlasFamily && (k.threaded || !threaded))
          backends.push_back(k.backend);
      break;
    case KernelPick::Kind::every_gpu_gemm:
      for (const KernelInfo& k : catalog.kernels())
        if (k.device == Device::gpu && k.op == "gemm") backends.push_back(k.backend);
      break;
  }
  return backends;
}

// The dtypes a GEMM backend runs: those its kernel lists; f32 and f64 for one not in this
// build (its cases then say why).
std::vector<DType> gemm_dtypes(const KernelCatalog& catalog, const std::string& backend) {
  if (const KernelInfo* info = catalog.find(backend)) return info->dtypes;
  return {DType::f32, DType::f64};
}

bool within_limit(const GemmRow& row, const std::string& backend, const Shape& s) {
  for (const SizeLimit& limit : row.limits)
    if (limit.backend == backend) return std::max({s.m, s.n, s.k}) <= limit.largest;
  return true;
}

}  // namespace

std::vector<GemmForms> in_every_dtype(const std::vector<Shape>& shapes) {
  std::vector<GemmForms> forms;
  for (DType dtype : all_dtypes()) forms.push_back({dtype, shapes});
  return forms;
}

std::vector<CaseSpec> expand_gemm_rows(const KernelCatalog& catalog,
                                       const std::vector<GemmRow>& rows,
                                       const std::vector<int>& threads) {
  std::vector<CaseSpec> cases;
  for (int t : threads)
    for (const GemmRow& row : rows) {
      std::vector<std::string> backends;
      for (const KernelPick& pick : row.kernels)
        for (std::string& b : picked(catalog, pick, t))
          if (std::find(backends.begin(), backends.end(), b) == backends.end())
            backends.push_back(std::move(b));
      for (const std::string& backend : backends)
        for (DType dtype : gemm_dtypes(catalog, backend))
          for (const GemmForms& forms : row.forms)
            if (forms.dtype == dtype)
              for (const Shape& shape : forms.shapes)
                for (Layout layout : forms.layouts)
                  if (within_limit(row, backend, shape))
                    cases.push_back({backend, gemm_problem(shape, layout, dtype, "normal"), t});
    }
  return cases;
}

std::vector<CaseSpec> expand_pattern_rows(const KernelCatalog& catalog,
                                          const std::vector<PatternRow>& rows, int cpus) {
  std::vector<CaseSpec> cases;
  for (const PatternRow& row : rows)
    for (int t : row.all_threads ? one_and_all(cpus) : std::vector<int>{1})
      for (const std::string& backend : picked(catalog, row.kernel, t)) {
        if (!catalog.find(backend, row.op)) continue;
        Problem p;
        p.op = row.op;
        p.params = parse_params(op_definition(row.op), row.params);
        p.dtype = row.dtype;
        for (const PatternRun& run : row.runs) {
          CaseSpec c{backend, p, t};
          c.problem.pattern = run.pattern;
          c.fp_env = run.env;
          cases.push_back(std::move(c));
        }
      }
  return cases;
}

}  // namespace ridgeline
