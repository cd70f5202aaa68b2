#include "cudnn_graph.hpp"

#include <fmt/format.h>

#include <stdexcept>

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
                             const std::vector<std::int64_t>& strides, bool by_value) {
  CudnnDescriptor t(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  const std::int64_t alignment = 16;
  t.set(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type)
      .set(CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, static_cast<std::int64_t>(dims.size()),
           dims.data())
      .set(CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, static_cast<std::int64_t>(strides.size()),
           strides.data())
      .set(CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid)
      .set(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment);
  if (by_value) t.set(CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &by_value);
  t.finalize();
  return t;
}

CudnnPlan cudnn_plan(cudnnHandle_t handle, const std::vector<const CudnnDescriptor*>& ops) {
  CudnnPlan out;
  out.kept.reserve(64);  // at most 2 + 32 descriptors: the references below stay valid
  std::vector<cudnnBackendDescriptor_t> raw_ops;
  for (const CudnnDescriptor* op : ops) raw_ops.push_back(op->get());
  CudnnDescriptor& graph = out.kept.emplace_back(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
  graph
      .set(CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR,
           static_cast<std::int64_t>(raw_ops.size()), raw_ops.data())
      .set(CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle)
      .finalize();
  CudnnDescriptor& heuristics = out.kept.emplace_back(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
  const cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_A;
  heuristics.set(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, out.kept.front())
      .set(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode)
      .finalize();
  std::int64_t count = 0;
  check(cudnn().cudnnBackendGetAttribute(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                         CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
        "counting the heuristics' engine configs");
  if (count > 32) count = 32;
  std::vector<cudnnBackendDescriptor_t> configs;
  const std::size_t first = out.kept.size();
  for (std::int64_t i = 0; i < count; ++i)
    configs.push_back(out.kept.emplace_back(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR).get());
  std::int64_t got = 0;
  if (count > 0)
    check(cudnn().cudnnBackendGetAttribute(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                           CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &got,
                                           configs.data()),
          "reading the heuristics' engine configs");
  std::string refusals;
  for (std::int64_t i = 0; i < got; ++i) {
    auto plan = std::make_unique<CudnnDescriptor>(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    plan->set(CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle)
        .set(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, out.kept[first + i]);
    const cudnnStatus_t s = cudnn().cudnnBackendFinalize(plan->get());
    if (s != CUDNN_STATUS_SUCCESS) {
      refusals +=
          fmt::format("; config {}: {} {}", i, cudnn().cudnnGetErrorString(s), cudnn_last_error());
      continue;
    }
    std::int64_t n = 0;
    check(cudnn().cudnnBackendGetAttribute(plan->get(), CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                           CUDNN_TYPE_INT64, 1, &n, &out.workspace_bytes),
          "reading the plan's workspace size");
    out.plan = std::move(plan);
    out.config = static_cast<int>(i);
    return out;
  }
  throw std::runtime_error(fmt::format(
      "cuDNN has no engine for this graph: {} configs from the heuristics{}", got, refusals));
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
