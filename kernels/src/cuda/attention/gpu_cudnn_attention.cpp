// cuDNN as the vendor of attention: scaled dot-product attention through cuDNN's graph API
// (cudnn_sdpa_graph.hpp), planned once per problem (the fastest plan of heuristics mode A,
// the fallback list only where A has none) and run with one variant pack per operand copy.
// The scale 1/sqrt(head_dim) and the causal mask's -inf are passed by value.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <memory>

#include "../cuda_check.hpp"
#include "../cudnn_graph_kernel.hpp"
#include "../gpu_kernels.hpp"
#include "cudnn_sdpa_graph.hpp"
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

namespace {

CudnnSdpaShape sdpa_shape(const Problem& p) {
  return {p.params.dim("batch"), p.params.dim("heads"), p.params.dim("seq"),
          p.params.dim("head_dim"), p.params.attr("causal") == "1"};
}

class CudnnAttention final : public CudnnGraphKernel {
 public:
  CudnnAttention()
      : CudnnGraphKernel({"attention",
                          "cuda.cudnn",
                          Device::gpu,
                          {DType::bf16},
                          false,
                          "cuDNN's graph API: scaled dot-product attention as one fused graph "
                          "(matmul, scale, mask, softmax, matmul), the scores never stored",
                          KernelRole::vendor,
                          "cudnn"}) {}

 protected:
  Support supports_problem(const Problem& p) const override {
    if (Support s = CudnnGraphKernel::supports_problem(p); !s) return s;
    const std::int64_t d = p.params.dim("head_dim");
    if (d % 8 != 0 || d > 256)
      return Support::no(fmt::format(
          "{}: cuDNN's fused attention takes head_dim a multiple of 8 up to 256, not {}",
          info().id(), d));
    return Support::yes();
  }

  void setup(const Problem& p, const std::vector<DeviceOperands>& slots,
             cudaStream_t stream) override {
    const CudnnSdpaShape shape = sdpa_shape(p);
    auto graph = std::make_shared<CudnnSdpaGraph>(cudnn_sdpa_graph(p.dtype, shape));
    plan(graph, graph->ops(), stream, CudnnFallback::when_a_has_none);
    scale_ = 1.0f / std::sqrt(static_cast<float>(shape.head_dim));
    for (const DeviceOperands& o : slots) {
      using G = CudnnSdpaGraph;
      std::vector<std::int64_t> uids{G::kQ, G::kK, G::kV, G::kO, G::kScale};
      std::vector<void*> pointers{const_cast<void*>(o.in("Q")), const_cast<void*>(o.in("K")),
                                  const_cast<void*>(o.in("V")), o.out("O"), &scale_};
      if (shape.causal) {
        uids.push_back(G::kMasked);
        pointers.push_back(&masked_);
      }
      add_pack(o.in("Q"), uids, pointers);
    }
    notes_["call"] =
        fmt::format("cudnnBackendExecute of a {}scaled dot-product attention graph: {}",
                    shape.causal ? "causal " : "", choose_fastest(slots.front().in("Q"), stream));
  }

  void launch(const DeviceOperands& o, cudaStream_t) override { execute(o.in("Q")); }

 private:
  float scale_ = 1.0f;
  float masked_ = -std::numeric_limits<float>::infinity();
};

}  // namespace

std::vector<const CudnnDescriptor*> CudnnSdpaGraph::ops() const {
  std::vector<const CudnnDescriptor*> out;
  for (const CudnnDescriptor& op : operations) out.push_back(&op);
  return out;
}

CudnnSdpaGraph cudnn_sdpa_graph(DType dtype, const CudnnSdpaShape& s) {
  using K = CudnnTensorKind;
  CudnnSdpaGraph g;
  const cudnnDataType_t io = dtype == DType::f16 ? CUDNN_DATA_HALF : CUDNN_DATA_BFLOAT16;
  const cudnnDataType_t f32 = CUDNN_DATA_FLOAT;
  const std::int64_t b = s.batch, h = s.heads, n = s.seq, d = s.head_dim;
  std::int64_t next_virtual = CudnnSdpaGraph::kFirstVirtual;
  auto tensor = [&](std::int64_t uid, cudnnDataType_t type, const std::vector<std::int64_t>& dims,
                    const std::vector<std::int64_t>& strides,
                    K kind = K::memory) -> const CudnnDescriptor& {
    return g.tensors.emplace_back(cudnn_tensor(uid, type, dims, strides, kind));
  };
  // Scores are [b, h, seq, seq], row statistics [b, h, seq, 1].
  auto scores = [&](cudnnDataType_t type) -> const CudnnDescriptor& {
    return tensor(next_virtual++, type, {b, h, n, n}, {h * n * n, n * n, n, 1}, K::virtual_);
  };
  auto per_row = [&]() -> const CudnnDescriptor& {
    return tensor(next_virtual++, f32, {b, h, n, 1}, {h * n, n, 1, 1}, K::virtual_);
  };
  auto op = [&](CudnnDescriptor&& o) { g.operations.push_back(std::move(o)); };
  auto pointwise = [&](cudnnPointwiseMode_t mode, const CudnnDescriptor& x,
                       const CudnnDescriptor* other, const CudnnDescriptor& y) {
    op(cudnn_pointwise(mode, f32, x, other, nullptr, y));
  };

  const std::vector<std::int64_t> rows{b, h, n, d}, packed{h * n * d, n * d, d, 1},
      scalar{1, 1, 1, 1};
  const CudnnDescriptor& q = tensor(CudnnSdpaGraph::kQ, io, rows, packed);
  // K read as K^T [b, h, head_dim, seq]: the same memory with the last two strides swapped.
  const CudnnDescriptor& kt =
      tensor(CudnnSdpaGraph::kK, io, {b, h, d, n}, {h * n * d, n * d, 1, d});
  const CudnnDescriptor& v = tensor(CudnnSdpaGraph::kV, io, rows, packed);
  const CudnnDescriptor& o = tensor(CudnnSdpaGraph::kO, io, rows, packed);
  const CudnnDescriptor& scale = tensor(CudnnSdpaGraph::kScale, f32, scalar, scalar, K::by_value);

  const CudnnDescriptor& raw = scores(f32);
  op(cudnn_matmul(q, kt, raw));
  const CudnnDescriptor& scaled = scores(f32);
  pointwise(CUDNN_POINTWISE_MUL, raw, &scale, scaled);
  const CudnnDescriptor* logits = &scaled;
  if (s.causal) {
    // Query i keeps key j where i >= j (row index >= column index), else -inf.
    const CudnnDescriptor& row = scores(CUDNN_DATA_INT32);
    const CudnnDescriptor& col = scores(CUDNN_DATA_INT32);
    op(cudnn_pointwise(CUDNN_POINTWISE_GEN_INDEX, f32, scaled, nullptr, nullptr, row, 2));
    op(cudnn_pointwise(CUDNN_POINTWISE_GEN_INDEX, f32, scaled, nullptr, nullptr, col, 3));
    const CudnnDescriptor& keep = scores(CUDNN_DATA_BOOLEAN);
    op(cudnn_pointwise(CUDNN_POINTWISE_CMP_GE, CUDNN_DATA_BOOLEAN, row, &col, nullptr, keep));
    const CudnnDescriptor& masked =
        tensor(CudnnSdpaGraph::kMasked, f32, scalar, scalar, K::by_value);
    const CudnnDescriptor& kept = scores(f32);
    op(cudnn_pointwise(CUDNN_POINTWISE_BINARY_SELECT, f32, scaled, &masked, &keep, kept));
    logits = &kept;
  }
  const CudnnDescriptor& max = per_row();
  op(cudnn_reduction(CUDNN_REDUCE_TENSOR_MAX, *logits, max));
  const CudnnDescriptor& shifted = scores(f32);
  pointwise(CUDNN_POINTWISE_SUB, *logits, &max, shifted);
  const CudnnDescriptor& e = scores(f32);
  pointwise(CUDNN_POINTWISE_EXP, shifted, nullptr, e);
  const CudnnDescriptor& sum = per_row();
  op(cudnn_reduction(CUDNN_REDUCE_TENSOR_ADD, e, sum));
  // The softmax statistics (max + log sum), virtual: the pattern cuDNN's engines match has them.
  const CudnnDescriptor& log_sum = per_row();
  pointwise(CUDNN_POINTWISE_LOG, sum, nullptr, log_sum);
  const CudnnDescriptor& stats = per_row();
  pointwise(CUDNN_POINTWISE_ADD, max, &log_sum, stats);
  // P in the inputs' dtype: the second product's A operand.
  const CudnnDescriptor& probabilities = scores(io);
  pointwise(CUDNN_POINTWISE_DIV, e, &sum, probabilities);
  op(cudnn_matmul(probabilities, v, o));
  return g;
}

void add_cudnn_attention_kernels(KernelCatalog& catalog) {
  catalog.add([] { return std::make_unique<CudnnAttention>(); });
}

}  // namespace ridgeline
