// cuDNN as the vendor of the GPU's memory-bound ops: softmax through cudnnSoftmaxForward
// (the max-subtracted algorithm, one instance per row). Loaded at run time
// (cudnn_library.hpp); without cuDNN the kernel says why. Layer and RMS normalisation come
// through cuDNN's graph API (gpu_cudnn_norm.cpp), attention too (gpu_cudnn_attention.cpp).
#include <fmt/format.h>

#include <climits>

#include "../cudnn_library.hpp"
#include "../gpu_kernels.hpp"
#include "../gpu_op_kernel.hpp"
#include "ridgeline/core/ops/rowwise.hpp"
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

namespace {

cudnnDataType_t cudnn_type(DType dtype) {
  return dtype == DType::bf16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_FLOAT;
}

class CudnnSoftmax final : public GpuOpKernel {
 public:
  CudnnSoftmax()
      : GpuOpKernel({"softmax",
                     "cuda.cudnn",
                     Device::gpu,
                     {DType::f32, DType::bf16},
                     false,
                     "cuDNN cudnnSoftmaxForward (ACCURATE: max-subtracted), each row one instance",
                     KernelRole::vendor,
                     "cudnn"}) {}
  ~CudnnSoftmax() override {
    if (desc_) cudnn().cudnnDestroyTensorDescriptor(desc_);
    if (handle_) cudnn().cudnnDestroy(handle_);
  }

 protected:
  Support supports_problem(const Problem& p) const override {
    if (Support s = cudnn_status(); !s) return Support::no("cuDNN is not loaded: " + s.reason);
    const RowShape r = row_shape(p);
    // A 4-d descriptor of n = rows, c = cols: each an int, their product too.
    if (r.rows > INT_MAX || r.cols > INT_MAX || r.rows * r.cols > INT_MAX)
      return Support::no(
          fmt::format("{} takes at most {} elements (cuDNN's int sizes)", info().id(), INT_MAX));
    return Support::yes();
  }
  void setup(const Problem& p, const std::vector<DeviceOperands>&, cudaStream_t stream) override {
    if (!handle_) RIDGELINE_CUDNN(cudnn().cudnnCreate(&handle_));
    RIDGELINE_CUDNN(cudnn().cudnnSetStream(handle_, stream));
    if (!desc_) RIDGELINE_CUDNN(cudnn().cudnnCreateTensorDescriptor(&desc_));
    const RowShape r = row_shape(p);
    RIDGELINE_CUDNN(cudnn().cudnnSetTensor4dDescriptor(
        desc_, CUDNN_TENSOR_NCHW, cudnn_type(p.dtype), static_cast<int>(r.rows),
        static_cast<int>(r.cols), 1, 1));
    notes_["library"] = fmt::format("cuDNN {}", cudnn().cudnnGetVersion());
    notes_["call"] = "cudnnSoftmaxForward(CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE)";
  }
  void launch(const DeviceOperands& o, cudaStream_t) override {
    // alpha and beta are floats for every data type but double.
    const float alpha = 1.0f, beta = 0.0f;
    RIDGELINE_CUDNN(cudnn().cudnnSoftmaxForward(handle_, CUDNN_SOFTMAX_ACCURATE,
                                                CUDNN_SOFTMAX_MODE_INSTANCE, &alpha, desc_,
                                                o.in("x"), &beta, desc_, o.out("y")));
  }

 private:
  cudnnHandle_t handle_ = nullptr;
  cudnnTensorDescriptor_t desc_ = nullptr;
};

}  // namespace

void add_cudnn_kernels(KernelCatalog& catalog) {
  catalog.add([] { return std::make_unique<CudnnSoftmax>(); });
}

}  // namespace ridgeline
