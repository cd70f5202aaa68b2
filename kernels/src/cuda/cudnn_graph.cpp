#include "cudnn_graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "cuda_check.hpp"
#include "cudnn_library.hpp"

namespace ridgeline {

namespace {

void check(cudnnStatus_t s, const std::string& what) {
  if (s == CUDNN_STATUS_SUCCESS) return;
  std::string detail = cudnn_last_error();
  throw std::runtime_error(fmt::format("cuDNN {} failed: {}{}", what,
                                       cudnn().cudnnGetErrorString(s),
                                       detail.empty() ? "" : " (" + detail + ")"));
}

}  // namespace

std::string cudnn_last_error() {
  char message[512] = {};
  cudnn().cudnnGetLastErrorString(message, sizeof message);
  return message;
}

CudnnDescriptor::CudnnDescriptor(cudnnBackendDescriptorType_t type) {
  check(cudnn().cudnnBackendCreateDescriptor(type, &d_),
        fmt::format("cudnnBackendCreateDescriptor({})", static_cast<int>(type)));
}

CudnnDescriptor::~CudnnDescriptor() {
  if (d_) cudnn().cudnnBackendDestroyDescriptor(d_);
}

CudnnDescriptor& CudnnDescriptor::set(cudnnBackendAttributeName_t name,
                                      cudnnBackendAttributeType_t type, std::int64_t count,
                                      const void* values) {
  check(cudnn().cudnnBackendSetAttribute(d_, name, type, count, values),
        fmt::format("setting attribute {}", static_cast<int>(name)));
  return *this;
}

CudnnDescriptor& CudnnDescriptor::set(cudnnBackendAttributeName_t name,
                                      const CudnnDescriptor& value) {
  const cudnnBackendDescriptor_t raw = value.get();
  return set(name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw);
}

CudnnDescriptor& CudnnDescriptor::finalize() {
  check(cudnn().cudnnBackendFinalize(d_), "cudnnBackendFinalize");
  return *this;
}

CudnnDescriptor cudnn_tensor(std::int64_t uid, cudnnDataType_t type,
                             const std::vector<std::int64_t>& dims,
                             const std::vector<std::int64_t>& strides, CudnnTensorKind kind) {
  CudnnDescriptor t(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  const std::int64_t alignment = 16;
  t.set(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type)
      .set(CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, static_cast<std::int64_t>(dims.size()),
           dims.data())
      .set(CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, static_cast<std::int64_t>(strides.size()),
           strides.data())
      .set(CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid)
      .set(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment);
  const bool yes = true;
  if (kind == CudnnTensorKind::by_value)
    t.set(CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &yes);
  if (kind == CudnnTensorKind::virtual_)
    t.set(CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &yes);
  t.finalize();
  return t;
}

CudnnDescriptor cudnn_pointwise(cudnnPointwiseMode_t mode, cudnnDataType_t math,
                                const CudnnDescriptor& x, const CudnnDescriptor* b,
                                const CudnnDescriptor* t, const CudnnDescriptor& y,
                                std::int64_t axis) {
  CudnnDescriptor pw(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
  pw.set(CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode)
      .set(CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &math);
  if (mode == CUDNN_POINTWISE_GEN_INDEX)
    pw.set(CUDNN_ATTR_POINTWISE_AXIS, CUDNN_TYPE_INT64, 1, &axis);
  pw.finalize();
  CudnnDescriptor op(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
  op.set(CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, pw)
      .set(CUDNN_ATTR_OPERATION_POINTWISE_XDESC, x)
      .set(CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y);
  if (b) op.set(CUDNN_ATTR_OPERATION_POINTWISE_BDESC, *b);
  if (t) op.set(CUDNN_ATTR_OPERATION_POINTWISE_TDESC, *t);
  const float one = 1.0f;
  op.set(CUDNN_ATTR_OPERATION_POINTWISE_ALPHA1, CUDNN_TYPE_FLOAT, 1, &one)
      .set(CUDNN_ATTR_OPERATION_POINTWISE_ALPHA2, CUDNN_TYPE_FLOAT, 1, &one)
      .finalize();
  return op;
}

CudnnDescriptor cudnn_reduction(cudnnReduceTensorOp_t reduce, const CudnnDescriptor& x,
                                const CudnnDescriptor& y) {
  const cudnnDataType_t f32 = CUDNN_DATA_FLOAT;
  CudnnDescriptor r(CUDNN_BACKEND_REDUCTION_DESCRIPTOR);
  r.set(CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f32)
      .set(CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &reduce)
      .finalize();
  CudnnDescriptor op(CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR);
  op.set(CUDNN_ATTR_OPERATION_REDUCTION_DESC, r)
      .set(CUDNN_ATTR_OPERATION_REDUCTION_XDESC, x)
      .set(CUDNN_ATTR_OPERATION_REDUCTION_YDESC, y)
      .finalize();
  return op;
}

CudnnDescriptor cudnn_matmul(const CudnnDescriptor& a, const CudnnDescriptor& b,
                             const CudnnDescriptor& c) {
  const cudnnDataType_t f32 = CUDNN_DATA_FLOAT;
  CudnnDescriptor m(CUDNN_BACKEND_MATMUL_DESCRIPTOR);
  m.set(CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f32).finalize();
  CudnnDescriptor op(CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR);
  op.set(CUDNN_ATTR_OPERATION_MATMUL_ADESC, a)
      .set(CUDNN_ATTR_OPERATION_MATMUL_BDESC, b)
      .set(CUDNN_ATTR_OPERATION_MATMUL_CDESC, c)
      .set(CUDNN_ATTR_OPERATION_MATMUL_DESC, m)
      .finalize();
  return op;
}

namespace {

// cuDNN's global index of the engine behind an engine config; -1 where it does not say.
std::int64_t engine_index(cudnnBackendDescriptor_t config) {
  cudnnBackendDescriptor_t engine = nullptr;
  if (cudnn().cudnnBackendCreateDescriptor(CUDNN_BACKEND_ENGINE_DESCRIPTOR, &engine) !=
      CUDNN_STATUS_SUCCESS)
    return -1;
  std::int64_t n = 0, index = -1;
  if (cudnn().cudnnBackendGetAttribute(config, CUDNN_ATTR_ENGINECFG_ENGINE,
                                       CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n,
                                       &engine) != CUDNN_STATUS_SUCCESS ||
      cudnn().cudnnBackendGetAttribute(engine, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1,
                                       &n, &index) != CUDNN_STATUS_SUCCESS)
    index = -1;
  cudnn().cudnnBackendDestroyDescriptor(engine);
  return index;
}

}  // namespace

CudnnPlans cudnn_plans(cudnnHandle_t handle, const std::vector<const CudnnDescriptor*>& ops,
                       CudnnFallback fallback) {
  constexpr std::int64_t kMostConfigs = 32;
  CudnnPlans out;
  out.kept.reserve(3 + 2 * kMostConfigs);  // the references below stay valid
  std::vector<cudnnBackendDescriptor_t> raw_ops;
  for (const CudnnDescriptor* op : ops) raw_ops.push_back(op->get());
  CudnnDescriptor& graph = out.kept.emplace_back(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
  graph
      .set(CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR,
           static_cast<std::int64_t>(raw_ops.size()), raw_ops.data())
      .set(CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle)
      .finalize();
  std::string refusals;
  // Mode A's configs first, then the fallback list's engines A did not offer.
  for (const cudnnBackendHeurMode_t mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK}) {
    if (mode == CUDNN_HEUR_MODE_FALLBACK && fallback == CudnnFallback::when_a_has_none &&
        !out.plans.empty())
      break;
    CudnnDescriptor& heuristics = out.kept.emplace_back(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    heuristics.set(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph)
        .set(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode)
        .finalize();
    std::int64_t count = 0;
    check(cudnn().cudnnBackendGetAttribute(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                           CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
          "counting the heuristics' engine configs");
    out.configs += static_cast<int>(count);
    count = std::min(count, kMostConfigs);
    std::vector<cudnnBackendDescriptor_t> configs;
    for (std::int64_t i = 0; i < count; ++i)
      configs.push_back(out.kept.emplace_back(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR).get());
    std::int64_t got = 0;
    if (count > 0)
      check(cudnn().cudnnBackendGetAttribute(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                             CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &got,
                                             configs.data()),
            "reading the heuristics' engine configs");
    const char* mode_name = mode == CUDNN_HEUR_MODE_A ? "A" : "fallback";
    for (std::int64_t i = 0; i < got; ++i) {
      const cudnnBackendDescriptor_t config = configs[static_cast<std::size_t>(i)];
      const std::int64_t engine = engine_index(config);
      bool seen = false;
      for (const CudnnPlan& p : out.plans) seen = seen || (engine >= 0 && p.engine == engine);
      if (seen) continue;
      auto plan = std::make_unique<CudnnDescriptor>(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
      plan->set(CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle)
          .set(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &config);
      const cudnnStatus_t s = cudnn().cudnnBackendFinalize(plan->get());
      if (s != CUDNN_STATUS_SUCCESS) {
        refusals += fmt::format("; {} config {}: {} {}", mode_name, i,
                                cudnn().cudnnGetErrorString(s), cudnn_last_error());
        continue;
      }
      CudnnPlan& p = out.plans.emplace_back();
      std::int64_t n = 0;
      check(cudnn().cudnnBackendGetAttribute(plan->get(), CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                             CUDNN_TYPE_INT64, 1, &n, &p.workspace_bytes),
            "reading the plan's workspace size");
      p.plan = std::move(plan);
      p.config = static_cast<int>(i);
      p.engine = engine;
      p.mode = mode_name;
    }
  }
  if (out.plans.empty())
    throw std::runtime_error(
        fmt::format("cuDNN has no engine for this graph: {} configs from the heuristics{}",
                    out.configs, refusals));
  return out;
}

std::vector<double> cudnn_time_plans(cudnnHandle_t handle, const CudnnPlans& plans,
                                     const CudnnDescriptor& pack, cudaStream_t stream, int runs) {
  cudaEvent_t start = nullptr, stop = nullptr;
  RIDGELINE_CUDA(cudaEventCreate(&start));
  RIDGELINE_CUDA(cudaEventCreate(&stop));
  std::vector<double> best;
  for (const CudnnPlan& p : plans.plans) {
    // A plan that fails to run is never the fastest (infinity), and the others still run.
    double fastest = std::numeric_limits<double>::infinity();
    if (cudnn().cudnnBackendExecute(handle, p.plan->get(), pack.get()) == CUDNN_STATUS_SUCCESS)
      for (int r = 0; r < runs; ++r) {
        float ms = 0;
        if (cudaEventRecord(start, stream) != cudaSuccess ||
            cudnn().cudnnBackendExecute(handle, p.plan->get(), pack.get()) !=
                CUDNN_STATUS_SUCCESS ||
            cudaEventRecord(stop, stream) != cudaSuccess ||
            cudaEventSynchronize(stop) != cudaSuccess ||
            cudaEventElapsedTime(&ms, start, stop) != cudaSuccess)
          break;
        fastest = std::min(fastest, ms * 1e-3);
      }
    best.push_back(fastest);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  // A failed launch leaves an error behind: the next checked call would report it.
  RIDGELINE_CUDA(cudaGetLastError());
  return best;
}

std::int64_t cudnn_workspace_bytes(const CudnnPlans& plans) {
  std::int64_t bytes = 0;
  for (const CudnnPlan& p : plans.plans) bytes = std::max(bytes, p.workspace_bytes);
  return bytes;
}

CudnnChoice cudnn_fastest_plan(cudnnHandle_t handle, const CudnnPlans& plans,
                               const CudnnDescriptor& pack, cudaStream_t stream) {
  const std::vector<double> times = cudnn_time_plans(handle, plans, pack, stream, 3);
  const std::size_t best =
      static_cast<std::size_t>(std::min_element(times.begin(), times.end()) - times.begin());
  if (times[best] == std::numeric_limits<double>::infinity())
    throw std::runtime_error(
        fmt::format("cuDNN: none of the {} plans that finalised ran", times.size()));
  return {&plans.plans[best], times[best], times.front(), times.size()};
}

std::string cudnn_choice_note(const CudnnChoice& c) {
  return fmt::format(
      "engine config {} of heuristics mode {} (engine {}), the fastest of the {} plans that "
      "finalised ({:.1f} against {:.1f} us for mode A's first; best of 3 calls each at setup), "
      "workspace {} B",
      c.plan->config, c.plan->mode, c.plan->engine, c.plans, c.seconds * 1e6, c.first_seconds * 1e6,
      c.plan->workspace_bytes);
}

CudnnDescriptor cudnn_variant_pack(const std::vector<std::int64_t>& uids,
                                   const std::vector<void*>& pointers, void* workspace) {
  CudnnDescriptor pack(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
  pack.set(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64,
           static_cast<std::int64_t>(uids.size()), uids.data())
      .set(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR,
           static_cast<std::int64_t>(pointers.size()), pointers.data())
      .set(CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace)
      .finalize();
  return pack;
}

}  // namespace ridgeline
