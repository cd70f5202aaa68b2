// Built without oneDNN (RIDGELINE_WITH_ONEDNN=OFF, or oneDNN not found when configuring):
// the ops exist and every create() says why they cannot run.
#include "onednn_ops.hpp"

#ifndef RIDGELINE_ONEDNN_OFF_REASON
#error "RIDGELINE_ONEDNN_OFF_REASON must say why oneDNN is off (kernels/CMakeLists.txt)"
#endif

namespace ridgeline::ops {

namespace {
Support off() {
  return Support::no(onednn_unavailable_reason());
}
}  // namespace

std::string onednn_version() {
  return {};
}
std::string onednn_unavailable_reason() {
  return "oneDNN is not built in: " RIDGELINE_ONEDNN_OFF_REASON;
}
struct OnednnSoftmax::Impl {};
OnednnSoftmax::OnednnSoftmax(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnSoftmax::~OnednnSoftmax() = default;
Prepared<OnednnSoftmax> OnednnSoftmax::create(std::int64_t, std::int64_t, int, DType) {
  return {nullptr, off()};
}
void OnednnSoftmax::execute(const void*, void*) {}
std::string OnednnSoftmax::implementation() const {
  return {};
}

struct OnednnLayerNorm::Impl {};
OnednnLayerNorm::OnednnLayerNorm(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnLayerNorm::~OnednnLayerNorm() = default;
Prepared<OnednnLayerNorm> OnednnLayerNorm::create(std::int64_t, std::int64_t, float, bool, int,
                                                  DType) {
  return {nullptr, off()};
}
void OnednnLayerNorm::execute(const void*, const void*, const void*, void*) {}
std::string OnednnLayerNorm::implementation() const {
  return {};
}

struct OnednnMatmulBiasAct::Impl {};
OnednnMatmulBiasAct::OnednnMatmulBiasAct(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnMatmulBiasAct::~OnednnMatmulBiasAct() = default;
Prepared<OnednnMatmulBiasAct> OnednnMatmulBiasAct::create(std::int64_t, std::int64_t, std::int64_t,
                                                          Activation, int, DType) {
  return {nullptr, off()};
}
void OnednnMatmulBiasAct::execute(const void*, const void*, const void*, float*) {}
std::string OnednnMatmulBiasAct::implementation() const {
  return {};
}

struct OnednnStridedMatmul::Impl {};
OnednnStridedMatmul::OnednnStridedMatmul(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnStridedMatmul::~OnednnStridedMatmul() = default;
Prepared<OnednnStridedMatmul> OnednnStridedMatmul::create(const std::vector<std::int64_t>&,
                                                          std::int64_t, std::int64_t, std::int64_t,
                                                          const StridedMatrix&,
                                                          const StridedMatrix&,
                                                          const StridedMatrix&, int, DType) {
  return {nullptr, off()};
}
void OnednnStridedMatmul::execute(const void*, const void*, void*) {}
std::string OnednnStridedMatmul::implementation() const {
  return {};
}
std::string onednn_cap_isa_below_amx() {
  return onednn_unavailable_reason();
}
std::string onednn_isa_refusal(bool) {
  return onednn_unavailable_reason();
}

struct OnednnAttention::Impl {};
OnednnAttention::OnednnAttention(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnAttention::~OnednnAttention() = default;
Prepared<OnednnAttention> OnednnAttention::create(std::int64_t, std::int64_t, std::int64_t,
                                                  std::int64_t, bool, std::size_t, int, DType) {
  return {nullptr, off()};
}
void OnednnAttention::execute(const void*, const void*, const void*, void*) {}
std::string OnednnAttention::implementation() const {
  return {};
}
std::size_t OnednnAttention::workspace_bytes() const {
  return 0;
}

}  // namespace ridgeline::ops
