// oneDNN's matmul with its bias and activation as post-ops, a prepared object
// (onednn_ops.hpp): gemm_bias_act's vendor kernel.
#include "onednn_common.hpp"
#include "onednn_ops.hpp"

namespace ridgeline::ops {

using detail::data_type;
using detail::dtype_refusal;
using detail::OmpThreads;
using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

// ---- matmul + bias + activation -----------------------------------------------------------

struct OnednnMatmulBiasAct::Impl {
  int threads;
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul prim;
  dnnl::memory a, b, bias, c;
  detail::Args args;
};

OnednnMatmulBiasAct::OnednnMatmulBiasAct(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnMatmulBiasAct::~OnednnMatmulBiasAct() = default;

Prepared<OnednnMatmulBiasAct> OnednnMatmulBiasAct::create(std::int64_t m, std::int64_t n,
                                                          std::int64_t k, Activation act,
                                                          int threads, DType dtype) {
  if (auto r = onednn_unavailable_reason(); !r.empty()) return {nullptr, Support::no(r)};
  if (auto r = dtype_refusal(dtype); !r.empty()) return {nullptr, Support::no(r)};
  if (auto r = detail::check_positive({{"m", m}, {"n", n}, {"k", k}}, threads); !r.empty())
    return {nullptr, Support::no(r)};
  return detail::prepare<OnednnMatmulBiasAct>("oneDNN matmul+bias+" + to_string(act), [&] {
    OmpThreads guard(threads);
    auto impl = std::make_unique<Impl>();
    impl->threads = threads;
    const dnnl::memory::desc a_md({m, k}, data_type(dtype), tag::ab);
    const dnnl::memory::desc b_md({k, n}, data_type(dtype), tag::ab);
    const dnnl::memory::desc bias_md({1, n}, data_type(dtype), tag::ab);
    const dnnl::memory::desc c_md({m, n}, dt::f32, tag::ab);
    dnnl::post_ops post;
    post.append_eltwise(1.0f,
                        act == Activation::relu ? dnnl::algorithm::eltwise_relu
                                                : dnnl::algorithm::eltwise_gelu_tanh,
                        0.0f, 0.0f);
    dnnl::primitive_attr attr;
    attr.set_post_ops(post);
    impl->pd = {{a_md, b_md, bias_md, c_md}, attr, impl->engine};
    impl->prim = dnnl::matmul(impl->pd);
    impl->a = detail::unbound(a_md, impl->engine);
    impl->b = detail::unbound(b_md, impl->engine);
    impl->bias = detail::unbound(bias_md, impl->engine);
    impl->c = detail::unbound(c_md, impl->engine);
    impl->args = {{DNNL_ARG_SRC, impl->a},
                  {DNNL_ARG_WEIGHTS, impl->b},
                  {DNNL_ARG_BIAS, impl->bias},
                  {DNNL_ARG_DST, impl->c}};
    return std::unique_ptr<OnednnMatmulBiasAct>(new OnednnMatmulBiasAct(std::move(impl)));
  });
}

void OnednnMatmulBiasAct::execute(const void* a, const void* b, const void* bias, float* c) {
  OmpThreads guard(impl_->threads);
  impl_->a.set_data_handle(const_cast<void*>(a));
  impl_->b.set_data_handle(const_cast<void*>(b));
  impl_->bias.set_data_handle(const_cast<void*>(bias));
  impl_->c.set_data_handle(c);
  detail::run(impl_->prim, impl_->stream, impl_->args);
}

std::string OnednnMatmulBiasAct::implementation() const {
  return detail::impl_name(impl_->pd);
}

}  // namespace ridgeline::ops
