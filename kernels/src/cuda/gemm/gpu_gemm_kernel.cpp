#include "gpu_gemm_kernel.hpp"

#include <string>

#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

DeviceGemm GpuGemmKernel::view(const DeviceOperands& operands) const {
  DeviceGemm d = dims_;
  d.a = operands.in("A");
  d.b = operands.in("B");
  d.c = operands.out("C");
  if (operands.has("bias")) d.bias = operands.in("bias");
  return d;
}

void GpuGemmKernel::setup(const Problem& problem, const std::vector<DeviceOperands>& slots,
                          cudaStream_t stream) {
  const Shape s = gemm_shape(problem);
  dims_ = {};
  dims_.m = s.m;
  dims_.n = s.n;
  dims_.k = s.k;
  dims_.lda = lda_of(problem);
  dims_.ldb = ldb_of(problem);
  dims_.ldc = s.n;
  dims_.transpose_a = transposes_a(gemm_layout(problem));
  dims_.transpose_b = transposes_b(gemm_layout(problem));
  dims_.dtype = problem.dtype;
  // gemm_bias_act: the activation its attribute names, after the bias.
  if (const auto act = problem.params.attrs.find("act"); act != problem.params.attrs.end())
    dims_.epilogue = act->second == "relu" ? Epilogue::bias_relu : Epilogue::bias_gelu_tanh;
  std::vector<DeviceGemm> copies;
  for (const auto& slot : slots) copies.push_back(view(slot));
  setup_gemm(copies.at(0), copies, stream);
}

}  // namespace ridgeline
