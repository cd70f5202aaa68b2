#include "cudnn_graph_kernel.hpp"

#include <fmt/format.h>

#include "cudnn_library.hpp"

namespace ridgeline {

CudnnGraphKernel::~CudnnGraphKernel() {
  packs_.clear();
  plan_ = nullptr;
  plans_.reset();
  graph_.reset();
  if (handle_) cudnn().cudnnDestroy(handle_);
}

Support CudnnGraphKernel::supports_problem(const Problem&) const {
  if (Support s = cudnn_status(); !s) return Support::no("cuDNN is not loaded: " + s.reason);
  return Support::yes();
}

void CudnnGraphKernel::plan(std::shared_ptr<const void> graph,
                            const std::vector<const CudnnDescriptor*>& ops, cudaStream_t stream,
                            CudnnFallback fallback) {
  if (!handle_) RIDGELINE_CUDNN(cudnn().cudnnCreate(&handle_));
  RIDGELINE_CUDNN(cudnn().cudnnSetStream(handle_, stream));
  packs_.clear();
  plan_ = nullptr;
  plans_.reset();
  graph_ = std::move(graph);
  plans_ = std::make_unique<CudnnPlans>(cudnn_plans(handle_, ops, fallback));
  const std::int64_t workspace = cudnn_workspace_bytes(*plans_);
  if (workspace_.bytes() < static_cast<std::size_t>(workspace))
    workspace_ = DeviceBuffer(static_cast<std::size_t>(workspace));
  notes_["library"] = fmt::format("cuDNN {}", cudnn().cudnnGetVersion());
}

void CudnnGraphKernel::add_pack(const void* key, const std::vector<std::int64_t>& uids,
                                const std::vector<void*>& pointers) {
  packs_.emplace(key, cudnn_variant_pack(uids, pointers, workspace_.get()));
}

std::string CudnnGraphKernel::choose_fastest(const void* key, cudaStream_t stream) {
  const CudnnChoice choice = cudnn_fastest_plan(handle_, *plans_, packs_.at(key), stream);
  plan_ = choice.plan;
  return cudnn_choice_note(choice);
}

void CudnnGraphKernel::execute(const void* key) {
  RIDGELINE_CUDNN(cudnn().cudnnBackendExecute(handle_, plan_->plan->get(), packs_.at(key).get()));
}

}  // namespace ridgeline
