// Arithmetic ceilings of the GPU: register-only loops (FMA, mma.sync) and what cuBLASLt
// reaches at 8192^3 per dtype (fp8 where the device has it).
#include <fmt/format.h>

#include <memory>

#include "../cublas_library.hpp"
#include "../cuda_check.hpp"
#include "../gemm/cublaslt_plan.hpp"
#include "ceiling_kernels.hpp"
#include "gpu_ceiling_timing.hpp"

namespace ridgeline {

namespace {

// Operations per second of a register-only loop, its iteration count scaled to the time
// asked for.
template <typename Launch>
double loop_rate(const CeilingContext& c, Launch launch_with_iterations) {
  int iterations = 1000;
  const int repeats = scaled_repeats(c, [&] { return launch_with_iterations(iterations); });
  iterations = std::max(1000, std::min(iterations * repeats, 1 << 24));
  return best_rate(c, [&] { return launch_with_iterations(iterations); });
}

// Runs `once` (one GEMM of `flops`) as many times as fill the time asked for, best of the
// trials.
template <typename Once>
double library_rate(const CeilingContext& c, double flops, Once once) {
  const auto one = [&] {
    once();
    return flops;
  };
  const int repeats = scaled_repeats(c, one);
  return best_rate(c, [&] {
    for (int r = 0; r < repeats; ++r) once();
    return flops * repeats;
  });
}

struct LtHandle {
  cublasLtHandle_t h = nullptr;
  LtHandle() { RIDGELINE_CUBLAS(cublas().cublasLtCreate(&h)); }
  ~LtHandle() { cublas().cublasLtDestroy(h); }
  LtHandle(const LtHandle&) = delete;
  LtHandle& operator=(const LtHandle&) = delete;
};

int fill_code(DType d) {
  switch (d) {
    case DType::i8:
      return 1;
    case DType::bf16:
      return 2;
    case DType::f16:
      return 3;
    case DType::f64:
      return 4;
    default:
      return 0;
  }
}

// cuBLASLt at n^3 on uniform data filled on the device. i8 runs as C = A B^T (column-major
// TN), the only form cuBLASLt gives the IMMA tensor cores.
double cublaslt_rate(const CeilingContext& c, DType dtype, std::int64_t n) {
  const auto elements = static_cast<std::size_t>(n * n);
  DeviceBuffer a(elements * size_of(dtype)), b(elements * size_of(dtype)),
      out(elements * size_of(output_dtype(dtype))), workspace(kCublasLtWorkspaceBytes);
  launch_fill_uniform(a.get(), elements, fill_code(dtype), 1, c.stream);
  launch_fill_uniform(b.get(), elements, fill_code(dtype), 2, c.stream);
  const bool b_transposed = dtype == DType::i8;
  const DeviceGemm g{a.get(), b.get(), out.get(), n, n, n, n, n, n, false, b_transposed, dtype};
  const LtHandle handle;
  const CublasLtPlan plan(handle.h, g, workspace.bytes());
  return library_rate(c, 2.0 * static_cast<double>(n) * n * n,
                      [&] { plan.run(g, workspace.get(), workspace.bytes(), c.stream); });
}

// FP8 (e4m3) through cuBLASLt, in the layout it requires: A transposed, B not (column
// major), f32 accumulation, D in bf16.
double cublaslt_fp8_rate(const CeilingContext& c, std::int64_t n) {
  const auto elements = static_cast<std::size_t>(n * n);
  DeviceBuffer a(elements), b(elements), d(elements * 2), workspace(kCublasLtWorkspaceBytes);
  launch_fill_uniform(a.get(), elements, 5, 1, c.stream);
  launch_fill_uniform(b.get(), elements, 5, 2, c.stream);
  const CublasApi& api = cublas();
  const LtHandle handle;
  cublasLtMatmulDesc_t desc = nullptr;
  RIDGELINE_CUBLAS(api.cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  std::unique_ptr<cublasLtMatmulDescOpaque_t, cublasStatus_t (*)(cublasLtMatmulDesc_t)> desc_guard(
      desc, api.cublasLtMatmulDescDestroy);
  const cublasOperation_t t = CUBLAS_OP_T, nt = CUBLAS_OP_N;
  RIDGELINE_CUBLAS(
      api.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t));
  RIDGELINE_CUBLAS(
      api.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &nt, sizeof nt));
  const auto u = static_cast<std::uint64_t>(n);
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, ld = nullptr;
  RIDGELINE_CUBLAS(api.cublasLtMatrixLayoutCreate(&la, CUDA_R_8F_E4M3, u, u, n));
  RIDGELINE_CUBLAS(api.cublasLtMatrixLayoutCreate(&lb, CUDA_R_8F_E4M3, u, u, n));
  RIDGELINE_CUBLAS(api.cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, u, u, n));
  using Layout =
      std::unique_ptr<cublasLtMatrixLayoutOpaque_t, cublasStatus_t (*)(cublasLtMatrixLayout_t)>;
  const Layout ga(la, api.cublasLtMatrixLayoutDestroy), gb(lb, api.cublasLtMatrixLayoutDestroy),
      gd(ld, api.cublasLtMatrixLayoutDestroy);
  cublasLtMatmulPreference_t pref = nullptr;
  RIDGELINE_CUBLAS(api.cublasLtMatmulPreferenceCreate(&pref));
  std::unique_ptr<cublasLtMatmulPreferenceOpaque_t, cublasStatus_t (*)(cublasLtMatmulPreference_t)>
      pref_guard(pref, api.cublasLtMatmulPreferenceDestroy);
  const std::uint64_t bytes = kCublasLtWorkspaceBytes;
  RIDGELINE_CUBLAS(api.cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes, sizeof bytes));
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  RIDGELINE_CUBLAS(
      api.cublasLtMatmulAlgoGetHeuristic(handle.h, desc, la, lb, ld, ld, pref, 1, &result, &found));
  if (found == 0) throw std::runtime_error("cuBLASLt has no fp8 e4m3 algorithm for this device");
  const float alpha = 1, beta = 0;
  return library_rate(c, 2.0 * static_cast<double>(n) * n * n, [&] {
    RIDGELINE_CUBLAS(api.cublasLtMatmul(handle.h, desc, &alpha, a.get(), la, b.get(), lb, &beta,
                                        d.get(), ld, d.get(), ld, &result.algo, workspace.get(),
                                        workspace.bytes(), c.stream));
  });
}

}  // namespace

void measure_compute_ceilings(const CeilingContext& c, const MeasureCeiling& measure) {
  const int sms = c.device.multiprocessors;
  void* sink = c.sink;
  const cudaStream_t s = c.stream;
  measure("gpu.f64.fma", [&] {
    return compute_ceiling(
        c, "f64.fma", "f64", "gpu.f64.fma", "FMA chains in registers",
        loop_rate(c, [&](int it) { return launch_fma_peak_f64(sms * 8, 256, it, sink, s); }));
  });
  measure("gpu.f32.fma", [&] {
    return compute_ceiling(
        c, "f32.fma", "f32", "gpu.f32.fma", "FMA chains in registers",
        loop_rate(c, [&](int it) { return launch_fma_peak_f32(sms * 8, 256, it, sink, s); }));
  });
  for (const std::string kind : {"tf32", "bf16", "f16", "i8"}) {
    const std::string shape = kind == "tf32" ? "m16n8k8" : kind == "i8" ? "m16n8k32" : "m16n8k16";
    measure("gpu." + kind + ".mma_sync", [&] {
      return compute_ceiling(c, kind, kind, "gpu." + kind + ".mma_sync",
                             "mma.sync " + shape + " on registers", loop_rate(c, [&](int it) {
                               return launch_mma_peak(kind.c_str(), sms * 4, 8, it, sink, s);
                             }));
    });
  }
  // What cuBLASLt reaches: the ceiling a library kernel can reach (wgmma on Hopper,
  // which mma.sync cannot issue).
  for (DType d : {DType::f64, DType::f32, DType::tf32, DType::bf16, DType::f16, DType::i8}) {
    const std::string dt(to_string(d));
    const std::string cls = d == DType::f64 ? "f64.tensor" : d == DType::f32 ? "f32.fma" : dt;
    const std::string form = d == DType::i8 ? " (C = A B^T: column-major TN)" : "";
    measure("gpu." + dt + ".cublaslt", [&] {
      return compute_ceiling(c, cls, dt, "gpu." + dt + ".cublaslt",
                             "cuBLASLt GEMM 8192^3, uniform data" + form,
                             cublaslt_rate(c, d, 8192));
    });
  }
  if (c.device.cc_major * 10 + c.device.cc_minor >= 89)  // fp8 tensor cores: Ada and Hopper on
    measure("gpu.fp8.cublaslt", [&] {
      return compute_ceiling(c, "fp8", "fp8", "gpu.fp8.cublaslt",
                             "cuBLASLt GEMM 8192^3, e4m3 inputs (A transposed), bf16 out",
                             cublaslt_fp8_rate(c, 8192));
    });
}

}  // namespace ridgeline
