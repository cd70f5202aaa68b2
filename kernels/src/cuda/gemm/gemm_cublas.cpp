// cuBLAS and cuBLASLt as catalog entries. Both libraries are column-major: a row-major
// C = op(A) op(B) is computed as the column-major C^T = op(B)^T op(A)^T, B first.
#include <fmt/format.h>

#include <cstdint>
#include <map>

#include "../cublas_library.hpp"
#include "../cuda_check.hpp"
#include "../gpu_kernels.hpp"
#include "../rowwise/rowwise_launchers.hpp"
#include "cublaslt_plan.hpp"
#include "gpu_gemm_kernel.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

namespace {

struct CublasTypes {
  cudaDataType_t input;
  cudaDataType_t output;
  cublasComputeType_t compute;
  cudaDataType_t scale;
  const char* name;  // for notes
};

CublasTypes cublas_types(DType d) {
  switch (d) {
    case DType::f64:
      return {CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F, "64F/64F compute 64F"};
    case DType::f32:
      return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, "32F/32F compute 32F"};
    case DType::tf32:
      return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F,
              "32F/32F compute 32F_FAST_TF32"};
    case DType::bf16:
      return {CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, "16BF/32F compute 32F"};
    case DType::f16:
      return {CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, "16F/32F compute 32F"};
    case DType::i8:
      return {CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, CUDA_R_32I, "8I/32I compute 32I"};
    case DType::i32:
      break;
  }
  throw std::logic_error("no cuBLAS types for " + std::string(to_string(d)));
}

// i8: in layout NT (C = A B^T, column-major TN) the libraries use the IMMA tensor cores
// and take m, n, k multiples of 4; in the other layouts they fall back to kernels that ran
// 9x slower on an H100 and refused 100x60x36 (CUBLAS_STATUS_NOT_SUPPORTED) while taking
// 256^3 and 512x384x320: those layouts are offered at multiples of 32 only.
Support integer_shape(const KernelInfo& info, const Problem& p) {
  if (p.dtype != DType::i8) return Support::yes();
  const Shape s = gemm_shape(p);
  const std::int64_t multiple = gemm_layout(p) == Layout::NT ? 4 : 32;
  if (s.m % multiple || s.n % multiple || s.k % multiple)
    return Support::no(fmt::format(
        "{} i8 needs m, n and k to be multiples of {} in layout {} (4 in layout NT, the "
        "column-major TN form of the IMMA tensor cores)",
        info.id(), multiple, to_string(gemm_layout(p))));
  return Support::yes();
}

// After the device check (GpuGemmKernel::supports): the libraries are loaded here, on a
// machine with a GPU, and their absence is the reason.
Support library_and_shape(const KernelInfo& info, const Problem& p) {
  if (Support s = cublas_status(); !s) return s;
  return integer_shape(info, p);
}

// gemm: cuBLAS alone. gemm_bias_act (cuda.unfused): the cuBLAS GEMM writes C, then a bias
// pass and an activation pass each read and write C, as an eager framework runs the three.
class CublasGemm final : public GpuGemmKernel {
 public:
  explicit CublasGemm(KernelInfo info) : GpuGemmKernel(std::move(info)) {}

 protected:
  Support supports_gemm(const Problem& p) const override { return library_and_shape(info(), p); }
  void setup_gemm(const DeviceGemm& g, const std::vector<DeviceGemm>&,
                  cudaStream_t stream) override {
    handle_.on(stream);
    RIDGELINE_CUBLAS(cublas().cublasSetMathMode(handle_.get(), CUBLAS_DEFAULT_MATH));
    int version = 0;
    RIDGELINE_CUBLAS(cublas().cublasGetVersion(handle_.get(), &version));
    notes_["library"] = fmt::format("cuBLAS {}", version);
    notes_["call"] = g.dtype == DType::f64 ? "cublasDgemm"
                     : g.dtype == DType::f32
                         ? "cublasSgemm"
                         : fmt::format("cublasGemmEx {}", cublas_types(g.dtype).name);
  }
  void launch_gemm(const DeviceGemm& g, cudaStream_t stream) override {
    const ColumnMajorGemm v =
        column_major_view(g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.transpose_a, g.transpose_b);
    const cublasOperation_t op_b = v.transpose_first ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t op_a = v.transpose_second ? CUBLAS_OP_T : CUBLAS_OP_N;
    const int m = static_cast<int>(v.m), n = static_cast<int>(v.n), k = static_cast<int>(v.k);
    const int ld_first = static_cast<int>(v.ld_first), ld_second = static_cast<int>(v.ld_second),
              ldc = static_cast<int>(v.ld_out);
    if (g.dtype == DType::f64) {
      RIDGELINE_CUBLAS(cublas().cublasDgemm(handle_.get(), op_b, op_a, m, n, k, &scalars_.f64[0],
                                            static_cast<const double*>(g.b), ld_first,
                                            static_cast<const double*>(g.a), ld_second,
                                            &scalars_.f64[1], static_cast<double*>(g.c), ldc));
    } else if (g.dtype == DType::f32) {
      RIDGELINE_CUBLAS(cublas().cublasSgemm(handle_.get(), op_b, op_a, m, n, k, &scalars_.f32[0],
                                            static_cast<const float*>(g.b), ld_first,
                                            static_cast<const float*>(g.a), ld_second,
                                            &scalars_.f32[1], static_cast<float*>(g.c), ldc));
    } else {
      const CublasTypes t = cublas_types(g.dtype);
      RIDGELINE_CUBLAS(cublas().cublasGemmEx(handle_.get(), op_b, op_a, m, n, k,
                                             scalars_.alpha(t.scale), g.b, t.input, ld_first, g.a,
                                             t.input, ld_second, scalars_.beta(t.scale), g.c,
                                             t.output, ldc, t.compute, CUBLAS_GEMM_DEFAULT));
    }
    if (g.epilogue == Epilogue::none) return;
    float* c = static_cast<float*>(g.c);  // f32 C: output_dtype of f32 and bf16
    launch_bias_pass(c, g.bias, g.dtype, g.m, g.n, stream);
    launch_activation_pass(c, g.m * g.n, g.epilogue == Epilogue::bias_relu ? 0 : 1, stream);
  }

 private:
  CublasHandle handle_;
  UnitScalars scalars_;
};

// cuBLASLt: the plan built once per prepare(), the algorithm picked by the library's
// heuristic with a 32 MiB workspace; for gemm_bias_act with the bias and activation as the
// plan's epilogue (CUBLASLT_EPILOGUE_RELU_BIAS, _GELU_BIAS).
class CublasLtGemm final : public GpuGemmKernel {
 public:
  explicit CublasLtGemm(KernelInfo info) : GpuGemmKernel(std::move(info)) {}
  ~CublasLtGemm() override {
    plan_.reset();
    if (handle_) cublas().cublasLtDestroy(handle_);
  }

 protected:
  Support supports_gemm(const Problem& p) const override { return library_and_shape(info(), p); }
  void setup_gemm(const DeviceGemm& g, const std::vector<DeviceGemm>& copies,
                  cudaStream_t stream) override {
    if (!handle_) RIDGELINE_CUBLAS(cublas().cublasLtCreate(&handle_));
    if (workspace_.bytes() == 0) workspace_ = DeviceBuffer(kCublasLtWorkspaceBytes);
    plan_ = std::make_unique<CublasLtPlan>(handle_, g, workspace_.bytes());
    notes_["library"] = fmt::format("cuBLASLt {}", cublas().cublasLtGetVersion());
    notes_["call"] = plan_->description();
    widened_.clear();
    if (g.epilogue != Epilogue::none && g.dtype == DType::bf16) {
      // Every copy's bias widened here, before any call is timed.
      for (const DeviceGemm& c : copies) {
        DeviceBuffer& f32 = widened_[c.bias];
        f32 = DeviceBuffer(static_cast<std::size_t>(c.n) * sizeof(float));
        launch_widen_bf16(c.bias, static_cast<float*>(f32.get()), c.n, stream);
      }
      RIDGELINE_CUDA(cudaStreamSynchronize(stream));
      notes_["bias"] =
          "each copy's bf16 bias widened to f32 once, before timing (the epilogue takes C's type)";
    }
  }
  void launch_gemm(const DeviceGemm& g, cudaStream_t stream) override {
    plan_->run(with_f32_bias(g), workspace_.get(), workspace_.bytes(), stream);
  }

 private:
  cublasLtHandle_t handle_ = nullptr;
  // gemm_bias_act in bf16: this copy's bias as f32, widened in setup_gemm.
  DeviceGemm with_f32_bias(DeviceGemm g) const {
    if (g.epilogue == Epilogue::none || g.dtype != DType::bf16) return g;
    g.bias = widened_.at(g.bias).get();
    return g;
  }

  std::unique_ptr<CublasLtPlan> plan_;
  DeviceBuffer workspace_;
  std::map<const void*, DeviceBuffer> widened_;
};

}  // namespace

CublasLtPlan::CublasLtPlan(cublasLtHandle_t handle, const DeviceGemm& g,
                           std::size_t workspace_bytes)
    : handle_(handle) {
  const CublasTypes t = cublas_types(g.dtype);
  scale_ = t.scale;
  try {
    RIDGELINE_CUBLAS(cublas().cublasLtMatmulDescCreate(&desc_, t.compute, t.scale));
    const ColumnMajorGemm v =
        column_major_view(g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.transpose_a, g.transpose_b);
    const cublasOperation_t op_b = v.transpose_first ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t op_a = v.transpose_second ? CUBLAS_OP_T : CUBLAS_OP_N;
    RIDGELINE_CUBLAS(cublas().cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA,
                                                             &op_b, sizeof(op_b)));
    RIDGELINE_CUBLAS(cublas().cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB,
                                                             &op_a, sizeof(op_a)));
    if (g.epilogue != Epilogue::none) {
      // C^T's rows are C's columns: the bias of length n is broadcast along them, in C's
      // type (a bf16 bias with f32 C: CUBLAS_STATUS_INVALID_VALUE on an H100, cuBLASLt 13.0).
      epilogue_ = true;
      const cublasLtEpilogue_t e = g.epilogue == Epilogue::bias_relu ? CUBLASLT_EPILOGUE_RELU_BIAS
                                                                     : CUBLASLT_EPILOGUE_GELU_BIAS;
      const cudaDataType_t bias_type = t.output;
      RIDGELINE_CUBLAS(cublas().cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                                               &e, sizeof(e)));
      RIDGELINE_CUBLAS(cublas().cublasLtMatmulDescSetAttribute(
          desc_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type, sizeof(bias_type)));
      RIDGELINE_CUBLAS(cublas().cublasLtMatmulDescSetAttribute(
          desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &g.bias, sizeof(g.bias)));
    }
    const auto u = [](std::int64_t x) { return static_cast<std::uint64_t>(x); };
    RIDGELINE_CUBLAS(cublas().cublasLtMatrixLayoutCreate(&first_, t.input, u(v.first_rows),
                                                         u(v.first_cols), v.ld_first));
    RIDGELINE_CUBLAS(cublas().cublasLtMatrixLayoutCreate(&second_, t.input, u(v.second_rows),
                                                         u(v.second_cols), v.ld_second));
    RIDGELINE_CUBLAS(cublas().cublasLtMatrixLayoutCreate(&out_, t.output, u(v.out_rows),
                                                         u(v.out_cols), v.ld_out));
    cublasLtMatmulPreference_t preference = nullptr;
    RIDGELINE_CUBLAS(cublas().cublasLtMatmulPreferenceCreate(&preference));
    const std::uint64_t bytes = workspace_bytes;
    cublasLtMatmulHeuristicResult_t result{};
    int found = 0;
    cublasStatus_t s = cublas().cublasLtMatmulPreferenceSetAttribute(
        preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes, sizeof(bytes));
    if (s == CUBLAS_STATUS_SUCCESS)
      s = cublas().cublasLtMatmulAlgoGetHeuristic(handle_, desc_, first_, second_, out_, out_,
                                                  preference, 1, &result, &found);
    cublas().cublasLtMatmulPreferenceDestroy(preference);
    cublas_check(s, "cublasLtMatmulAlgoGetHeuristic");
    if (found == 0)
      throw std::runtime_error(
          fmt::format("cublasLtMatmulAlgoGetHeuristic found no algorithm for {} {}",
                      to_string(g.dtype), t.name));
    algo_ = result.algo;
    description_ =
        fmt::format("cublasLtMatmul {}{}, workspace {} MiB (heuristic asks {} B)", t.name,
                    g.epilogue == Epilogue::bias_relu        ? ", epilogue RELU_BIAS"
                    : g.epilogue == Epilogue::bias_gelu_tanh ? ", epilogue GELU_BIAS"
                                                             : "",
                    workspace_bytes >> 20, result.workspaceSize);
  } catch (...) {
    release();
    throw;
  }
}

CublasLtPlan::~CublasLtPlan() {
  release();
}

void CublasLtPlan::release() {
  if (desc_) cublas().cublasLtMatmulDescDestroy(desc_);
  if (first_) cublas().cublasLtMatrixLayoutDestroy(first_);
  if (second_) cublas().cublasLtMatrixLayoutDestroy(second_);
  if (out_) cublas().cublasLtMatrixLayoutDestroy(out_);
  desc_ = nullptr;
  first_ = second_ = out_ = nullptr;
}

void CublasLtPlan::run(const DeviceGemm& g, void* workspace, std::size_t workspace_bytes,
                       cudaStream_t stream) const {
  if (epilogue_)  // this slot's bias
    RIDGELINE_CUBLAS(cublas().cublasLtMatmulDescSetAttribute(
        desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &g.bias, sizeof(g.bias)));
  RIDGELINE_CUBLAS(cublas().cublasLtMatmul(handle_, desc_, scalars_.alpha(scale_), g.b, first_, g.a,
                                           second_, scalars_.beta(scale_), g.c, out_, g.c, out_,
                                           &algo_, workspace, workspace_bytes, stream));
}

void add_cublas_kernels(KernelCatalog& catalog) {
  catalog.add([] {
    return std::make_unique<CublasGemm>(
        KernelInfo{"gemm",
                   "cuda.cublas",
                   Device::gpu,
                   {DType::f64, DType::f32, DType::tf32, DType::bf16, DType::f16, DType::i8},
                   false,
                   "cuBLAS: cublasDgemm/cublasSgemm, cublasGemmEx for tf32, bf16, f16, i8",
                   KernelRole::vendor});
  });
  catalog.add([] {
    return std::make_unique<CublasLtGemm>(
        KernelInfo{"gemm",
                   "cuda.cublaslt",
                   Device::gpu,
                   {DType::f32, DType::tf32, DType::bf16, DType::f16, DType::i8},
                   false,
                   "cuBLASLt: cublasLtMatmul with the heuristic's first algorithm",
                   KernelRole::vendor});
  });
  catalog.add([] {
    return std::make_unique<CublasGemm>(
        KernelInfo{"gemm_bias_act",
                   "cuda.unfused",
                   Device::gpu,
                   {DType::f32, DType::bf16},
                   false,
                   "cuBLAS writes C, then a bias kernel and an activation kernel each read and "
                   "write C",
                   KernelRole::unfused,
                   "cuda"});
  });
  catalog.add([] {
    return std::make_unique<CublasLtGemm>(
        KernelInfo{"gemm_bias_act",
                   "cuda.cublaslt",
                   Device::gpu,
                   {DType::f32, DType::bf16},
                   false,
                   "cuBLASLt with the bias and activation as its epilogue (RELU_BIAS, GELU_BIAS)",
                   KernelRole::vendor});
  });
}

}  // namespace ridgeline
