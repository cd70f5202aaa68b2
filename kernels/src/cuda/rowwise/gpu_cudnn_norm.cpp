// cuDNN as the vendor of layernorm and rmsnorm: one normalisation-forward operation
// (inference phase) in cuDNN's graph API (cudnn_graph.hpp), planned once per problem and run
// with one variant pack per operand copy. x and y in the problem's dtype; gamma and beta in
// f32 as cuDNN's normalisation engines take them (a bf16 problem's are widened once per copy
// before timing); epsilon passed by value.
#include <fmt/format.h>

#include <map>

#include "../cuda_check.hpp"
#include "../cudnn_graph_kernel.hpp"
#include "../device_buffer.hpp"
#include "../gpu_kernels.hpp"
#include "../gpu_op_kernel.hpp"
#include "cudnn_norm_graph.hpp"
#include "ridgeline/core/ops/rowwise.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "rowwise_launchers.hpp"

namespace ridgeline {

namespace {

class CudnnNorm final : public CudnnGraphKernel {
 public:
  explicit CudnnNorm(RowwiseOpName op)
      : CudnnGraphKernel(
            {std::string(op.name),
             "cuda.cudnn",
             Device::gpu,
             {DType::f32, DType::bf16},
             false,
             fmt::format("cuDNN's graph API: one {} forward operation (inference)",
                         op.op == RowwiseOp::layernorm ? "CUDNN_LAYER_NORM" : "CUDNN_RMS_NORM"),
             KernelRole::vendor,
             "cudnn"}),
        op_(op.op) {}

 protected:
  void setup(const Problem& p, const std::vector<DeviceOperands>& slots,
             cudaStream_t stream) override {
    const RowShape r = row_shape(p);
    auto graph = std::make_shared<CudnnNormGraph>(cudnn_norm_graph(op_, p.dtype, r.rows, r.cols));
    plan(graph, {graph->operation.get()}, stream, CudnnFallback::always);
    // Per operand copy: gamma and beta in f32, then the copy's variant pack.
    widened_.clear();
    for (const DeviceOperands& o : slots) {
      std::vector<std::int64_t> uids{CudnnNormGraph::kX, CudnnNormGraph::kY, CudnnNormGraph::kScale,
                                     CudnnNormGraph::kEpsilon};
      std::vector<void*> pointers{const_cast<void*>(o.in("x")), o.out("y"),
                                  f32(o.in("gamma"), p, r.cols, stream), &epsilon_};
      if (has_beta(op_)) {
        uids.push_back(CudnnNormGraph::kBias);
        pointers.push_back(f32(o.in("beta"), p, r.cols, stream));
      }
      add_pack(o.in("x"), uids, pointers);
    }
    RIDGELINE_CUDA(cudaStreamSynchronize(stream));
    // The fastest plan on the first copy.
    notes_["call"] = fmt::format("cudnnBackendExecute of a {} forward graph: {}",
                                 op_ == RowwiseOp::layernorm ? "layer-norm" : "RMS-norm",
                                 choose_fastest(slots.front().in("x"), stream));
    if (p.dtype == DType::bf16)
      notes_["weights"] = "each copy's bf16 gamma (and beta) widened to f32 once, before timing";
  }

  void launch(const DeviceOperands& o, cudaStream_t) override { execute(o.in("x")); }

 private:
  // The weight as f32: itself for an f32 problem, else a widened copy made here.
  void* f32(const void* weight, const Problem& p, std::int64_t n, cudaStream_t stream) {
    if (p.dtype == DType::f32) return const_cast<void*>(weight);
    DeviceBuffer& wide = widened_[weight];
    wide = DeviceBuffer(static_cast<std::size_t>(n) * sizeof(float));
    launch_widen_bf16(weight, static_cast<float*>(wide.get()), n, stream);
    return wide.get();
  }

  RowwiseOp op_;
  std::map<const void*, DeviceBuffer> widened_;
  float epsilon_ = kNormEpsilon;
};

}  // namespace

CudnnNormGraph cudnn_norm_graph(RowwiseOp op, DType dtype, std::int64_t rows, std::int64_t cols) {
  using U = CudnnNormGraph;
  CudnnNormGraph g;
  const cudnnDataType_t io = dtype == DType::bf16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_FLOAT;
  // x and y as (rows, cols, 1, 1); gamma and beta as (1, cols, 1, 1).
  const std::vector<std::int64_t> rows_dims{rows, cols, 1, 1}, strides{cols, 1, cols, cols},
      vec_dims{1, cols, 1, 1}, one{1, 1, 1, 1};
  g.tensors.push_back(cudnn_tensor(U::kX, io, rows_dims, strides));
  g.tensors.push_back(cudnn_tensor(U::kY, io, rows_dims, strides));
  g.tensors.push_back(cudnn_tensor(U::kScale, CUDNN_DATA_FLOAT, vec_dims, strides));
  g.tensors.push_back(
      cudnn_tensor(U::kEpsilon, CUDNN_DATA_FLOAT, one, one, CudnnTensorKind::by_value));
  if (has_beta(op))
    g.tensors.push_back(cudnn_tensor(U::kBias, CUDNN_DATA_FLOAT, vec_dims, strides));
  const cudnnBackendNormMode_t mode =
      op == RowwiseOp::layernorm ? CUDNN_LAYER_NORM : CUDNN_RMS_NORM;
  const cudnnBackendNormFwdPhase_t phase = CUDNN_NORM_FWD_INFERENCE;
  g.operation = std::make_unique<CudnnDescriptor>(CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR);
  g.operation->set(CUDNN_ATTR_OPERATION_NORM_FWD_MODE, CUDNN_TYPE_NORM_MODE, 1, &mode)
      .set(CUDNN_ATTR_OPERATION_NORM_FWD_PHASE, CUDNN_TYPE_NORM_FWD_PHASE, 1, &phase)
      .set(CUDNN_ATTR_OPERATION_NORM_FWD_XDESC, g.tensors[0])
      .set(CUDNN_ATTR_OPERATION_NORM_FWD_YDESC, g.tensors[1])
      .set(CUDNN_ATTR_OPERATION_NORM_FWD_SCALE_DESC, g.tensors[2])
      .set(CUDNN_ATTR_OPERATION_NORM_FWD_EPSILON_DESC, g.tensors[3]);
  if (has_beta(op)) g.operation->set(CUDNN_ATTR_OPERATION_NORM_FWD_BIAS_DESC, g.tensors[4]);
  g.operation->finalize();
  return g;
}

void add_cudnn_norm_kernels(KernelCatalog& catalog) {
  for (const RowwiseOpName& op : kRowwiseOps)
    if (has_gamma(op.op)) catalog.add([op] { return std::make_unique<CudnnNorm>(op); });
}

}  // namespace ridgeline
