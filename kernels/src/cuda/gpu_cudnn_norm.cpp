// cuDNN as the vendor of layernorm and rmsnorm: one normalisation-forward operation
// (inference phase) in cuDNN's graph API (cudnn_graph.hpp), planned once per problem and run
// with one variant pack per operand copy. x and y in the problem's dtype; gamma and beta in
// f32 as cuDNN's normalisation engines take them (a bf16 problem's are widened once per copy
// before timing); epsilon passed by value.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include "cuda_check.hpp"
#include "cudnn_library.hpp"
#include "cudnn_norm_graph.hpp"
#include "device_buffer.hpp"
#include "gpu_kernels.hpp"
#include "gpu_op_kernel.hpp"
#include "ridgeline/core/ops/rowwise.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "rowwise_launchers.hpp"

namespace ridgeline {

namespace {

class CudnnNorm final : public GpuOpKernel {
 public:
  explicit CudnnNorm(RowwiseOpName op)
      : GpuOpKernel(
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
  ~CudnnNorm() override {
    packs_.clear();
    plan_ = nullptr;
    plans_.reset();
    graph_.reset();
    if (handle_) cudnn().cudnnDestroy(handle_);
  }

 protected:
  Support supports_problem(const Problem&) const override {
    if (Support s = cudnn_status(); !s) return Support::no("cuDNN is not loaded: " + s.reason);
    return Support::yes();
  }

  void setup(const Problem& p, const std::vector<DeviceOperands>& slots,
             cudaStream_t stream) override {
    if (!handle_) RIDGELINE_CUDNN(cudnn().cudnnCreate(&handle_));
    RIDGELINE_CUDNN(cudnn().cudnnSetStream(handle_, stream));
    packs_.clear();
    plan_ = nullptr;
    plans_.reset();
    const RowShape r = row_shape(p);
    graph_ = std::make_unique<CudnnNormGraph>(cudnn_norm_graph(op_, p.dtype, r.rows, r.cols));
    plans_ = std::make_unique<CudnnPlans>(cudnn_plans(handle_, {graph_->operation.get()}));
    const std::int64_t workspace = cudnn_workspace_bytes(*plans_);
    if (workspace_.bytes() < static_cast<std::size_t>(workspace))
      workspace_ = DeviceBuffer(static_cast<std::size_t>(workspace));

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
      packs_.emplace(o.in("x"), cudnn_variant_pack(uids, pointers, workspace_.get()));
    }
    RIDGELINE_CUDA(cudaStreamSynchronize(stream));
    // The fastest plan on the first copy.
    const CudnnChoice choice =
        cudnn_fastest_plan(handle_, *plans_, packs_.at(slots.front().in("x")), stream);
    plan_ = choice.plan;
    notes_["library"] = fmt::format("cuDNN {}", cudnn().cudnnGetVersion());
    notes_["call"] = fmt::format("cudnnBackendExecute of a {} forward graph: {}",
                                 op_ == RowwiseOp::layernorm ? "layer-norm" : "RMS-norm",
                                 cudnn_choice_note(choice));
    if (p.dtype == DType::bf16)
      notes_["weights"] = "each copy's bf16 gamma (and beta) widened to f32 once, before timing";
  }

  void launch(const DeviceOperands& o, cudaStream_t) override {
    RIDGELINE_CUDNN(
        cudnn().cudnnBackendExecute(handle_, plan_->plan->get(), packs_.at(o.in("x")).get()));
  }

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
  cudnnHandle_t handle_ = nullptr;
  std::unique_ptr<CudnnNormGraph> graph_;
  std::unique_ptr<CudnnPlans> plans_;
  const CudnnPlan* plan_ = nullptr;  // the fastest of plans_
  DeviceBuffer workspace_;
  std::map<const void*, DeviceBuffer> widened_;
  std::map<const void*, CudnnDescriptor> packs_;  // by the copy's x
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
