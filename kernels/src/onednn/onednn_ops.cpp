// oneDNN softmax and layer normalization as prepared objects (onednn_ops.hpp), and what
// oneDNN says of itself; matmul + bias + activation is in onednn_matmul_bias_act.cpp,
// attention in onednn_attention.cpp.
#include "onednn_ops.hpp"

#include <vector>

#include "onednn_common.hpp"

namespace ridgeline::ops {

using detail::data_type;
using detail::dtype_refusal;
using detail::OmpThreads;
using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

namespace {

const char* runtime_name(unsigned runtime) {
  switch (runtime) {
    case DNNL_RUNTIME_NONE:
      return "none";
    case DNNL_RUNTIME_SEQ:
      return "SEQ";
    case DNNL_RUNTIME_OMP:
      return "OMP";
    case DNNL_RUNTIME_TBB:
      return "TBB";
    case DNNL_RUNTIME_THREADPOOL:
      return "THREADPOOL";
    case DNNL_RUNTIME_OCL:
      return "OCL";
    case DNNL_RUNTIME_SYCL:
      return "SYCL";
  }
  return "unknown";
}

const char* isa_name(dnnl_cpu_isa_t isa) {
  switch (isa) {
    case dnnl_cpu_isa_all:
      return "all";
    case dnnl_cpu_isa_sse41:
      return "sse41";
    case dnnl_cpu_isa_avx:
      return "avx";
    case dnnl_cpu_isa_avx2:
      return "avx2";
    case dnnl_cpu_isa_avx512_mic:
      return "avx512_mic";
    case dnnl_cpu_isa_avx512_mic_4ops:
      return "avx512_mic_4ops";
    case dnnl_cpu_isa_avx512_core:
      return "avx512_core";
    case dnnl_cpu_isa_avx512_core_vnni:
      return "avx512_core_vnni";
    case dnnl_cpu_isa_avx512_core_bf16:
      return "avx512_core_bf16";
    case dnnl_cpu_isa_avx512_core_amx:
      return "avx512_core_amx";
    case dnnl_cpu_isa_avx2_vnni:
      return "avx2_vnni";
  }
  return "unknown";
}

}  // namespace

std::string onednn_version() {
  detail::note_isa_fixed();  // the query below fixes it
  const dnnl_version_t* v = dnnl_version();
  std::string hash = v->hash && std::string(v->hash) != "N/A" ? fmt::format(" {}", v->hash) : "";
  return fmt::format("oneDNN {}.{}.{}{} (cpu runtime {}, isa {})", v->major, v->minor, v->patch,
                     hash, runtime_name(v->cpu_runtime), isa_name(dnnl_get_effective_cpu_isa()));
}

std::string onednn_unavailable_reason() {
  static const std::string reason = [] {
    try {
      dnnl::engine e(dnnl::engine::kind::cpu, 0);
      return std::string();
    } catch (const dnnl::error& e) {
      return "no oneDNN CPU engine: " + detail::describe(e);
    }
  }();
  return reason;
}

// ---- softmax ------------------------------------------------------------------------------

struct OnednnSoftmax::Impl {
  int threads;
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::softmax_forward::primitive_desc pd;
  dnnl::softmax_forward prim;
  dnnl::memory src, dst;
  detail::Args args;
};

OnednnSoftmax::OnednnSoftmax(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnSoftmax::~OnednnSoftmax() = default;

Prepared<OnednnSoftmax> OnednnSoftmax::create(std::int64_t rows, std::int64_t cols, int threads,
                                              DType dtype) {
  if (auto r = onednn_unavailable_reason(); !r.empty()) return {nullptr, Support::no(r)};
  if (auto r = dtype_refusal(dtype); !r.empty()) return {nullptr, Support::no(r)};
  if (auto r = detail::check_positive({{"rows", rows}, {"cols", cols}}, threads); !r.empty())
    return {nullptr, Support::no(r)};
  return detail::prepare<OnednnSoftmax>("oneDNN softmax", [&] {
    OmpThreads guard(threads);
    auto impl = std::make_unique<Impl>();
    impl->threads = threads;
    const dnnl::memory::desc md({rows, cols}, data_type(dtype), tag::ab);
    impl->pd = {{dnnl::prop_kind::forward_inference, md, 1}, impl->engine};
    impl->prim = dnnl::softmax_forward(impl->pd);
    impl->src = detail::unbound(md, impl->engine);
    impl->dst = detail::unbound(md, impl->engine);
    impl->args = {{DNNL_ARG_SRC, impl->src}, {DNNL_ARG_DST, impl->dst}};
    return std::unique_ptr<OnednnSoftmax>(new OnednnSoftmax(std::move(impl)));
  });
}

void OnednnSoftmax::execute(const void* x, void* y) {
  OmpThreads guard(impl_->threads);
  impl_->src.set_data_handle(const_cast<void*>(x));  // oneDNN only reads its source
  impl_->dst.set_data_handle(y);
  detail::run(impl_->prim, impl_->stream, impl_->args);
}

std::string OnednnSoftmax::implementation() const {
  return detail::impl_name(impl_->pd);
}

// ---- layer normalization ------------------------------------------------------------------

struct OnednnLayerNorm::Impl {
  int threads;
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::layer_normalization_forward::primitive_desc pd;
  dnnl::layer_normalization_forward prim;
  dnnl::memory src, dst, scale, shift;
  detail::Args args;
  bool bf16 = false;
  std::vector<float> gamma, beta;  // bf16: gamma and beta widened for oneDNN 2.6
};

OnednnLayerNorm::OnednnLayerNorm(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnLayerNorm::~OnednnLayerNorm() = default;

Prepared<OnednnLayerNorm> OnednnLayerNorm::create(std::int64_t rows, std::int64_t cols, float eps,
                                                  bool rms, int threads, DType dtype) {
  if (auto r = onednn_unavailable_reason(); !r.empty()) return {nullptr, Support::no(r)};
  if (auto r = dtype_refusal(dtype); !r.empty()) return {nullptr, Support::no(r)};
  if (rms)
    return {nullptr,
            Support::no("RMSNorm: oneDNN 2.6's layer_normalization has no RMS mode (it always "
                        "subtracts the mean; the rms_norm flag came with oneDNN 3.x)")};
  if (auto r = detail::check_positive({{"rows", rows}, {"cols", cols}}, threads); !r.empty())
    return {nullptr, Support::no(r)};
  if (!(eps > 0.0f)) return {nullptr, Support::no(fmt::format("eps = {}: must be > 0", eps))};
  return detail::prepare<OnednnLayerNorm>("oneDNN layer_normalization", [&] {
    OmpThreads guard(threads);
    auto impl = std::make_unique<Impl>();
    impl->threads = threads;
    const dnnl::memory::desc md({rows, cols}, data_type(dtype), tag::ab);
    const dnnl::memory::desc vec({cols}, dt::f32, tag::a);
    impl->bf16 = dtype == DType::bf16;
    if (impl->bf16) {
      impl->gamma.resize(static_cast<std::size_t>(cols));
      impl->beta.resize(static_cast<std::size_t>(cols));
    }
    // Inference: mean and variance are computed inside and not returned.
    const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
    impl->pd = {{dnnl::prop_kind::forward_inference, md, eps, flags}, impl->engine};
    impl->prim = dnnl::layer_normalization_forward(impl->pd);
    impl->src = detail::unbound(md, impl->engine);
    impl->dst = detail::unbound(md, impl->engine);
    impl->scale = detail::unbound(vec, impl->engine);
    impl->shift = detail::unbound(vec, impl->engine);
    impl->args = {{DNNL_ARG_SRC, impl->src},
                  {DNNL_ARG_DST, impl->dst},
                  {DNNL_ARG_SCALE, impl->scale},
                  {DNNL_ARG_SHIFT, impl->shift}};
    return std::unique_ptr<OnednnLayerNorm>(new OnednnLayerNorm(std::move(impl)));
  });
}

void OnednnLayerNorm::execute(const void* x, const void* gamma, const void* beta, void* y) {
  OmpThreads guard(impl_->threads);
  impl_->src.set_data_handle(const_cast<void*>(x));
  if (impl_->bf16) {
    const auto* g = static_cast<const std::uint16_t*>(gamma);
    const auto* b = static_cast<const std::uint16_t*>(beta);
    for (std::size_t i = 0; i < impl_->gamma.size(); ++i) {
      impl_->gamma[i] = from_bf16(g[i]);
      impl_->beta[i] = from_bf16(b[i]);
    }
    gamma = impl_->gamma.data();
    beta = impl_->beta.data();
  }
  impl_->scale.set_data_handle(const_cast<void*>(gamma));
  impl_->shift.set_data_handle(const_cast<void*>(beta));
  impl_->dst.set_data_handle(y);
  detail::run(impl_->prim, impl_->stream, impl_->args);
}

std::string OnednnLayerNorm::implementation() const {
  return detail::impl_name(impl_->pd);
}

}  // namespace ridgeline::ops
