// Attention as oneDNN's separate primitives: matmul (scaled, causal mask as a binary-add
// post-op), softmax in place, matmul (onednn_ops.hpp); f32 or bf16 memory throughout.
#include <cmath>
#include <limits>

#include "onednn_common.hpp"
#include "onednn_ops.hpp"

namespace ridgeline::ops {

using detail::data_type;
using detail::dtype_refusal;
using detail::OmpThreads;
using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

struct OnednnAttention::Impl {
  int threads;
  std::size_t workspace = 0;
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::matmul::primitive_desc scores_pd, context_pd;
  dnnl::softmax_forward::primitive_desc softmax_pd;
  dnnl::matmul scores_prim, context_prim;
  dnnl::softmax_forward softmax_prim;
  bool causal = false;
  std::int64_t bh = 0, seq = 0, head_dim = 0;
  std::size_t elem = 4;                   // bytes per element of Q, K, V, O and S
  dnnl::memory q, k, v, o, scores, mask;  // scores and mask are owned by oneDNN
  dnnl::memory scores_out;                // what the score matmul writes: S, or one head of it
  detail::Args scores_args, softmax_args, context_args;
};

OnednnAttention::OnednnAttention(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnAttention::~OnednnAttention() = default;

Prepared<OnednnAttention> OnednnAttention::create(std::int64_t batch, std::int64_t heads,
                                                  std::int64_t seq, std::int64_t head_dim,
                                                  bool causal, std::size_t score_budget_bytes,
                                                  int threads, DType dtype) {
  if (auto r = onednn_unavailable_reason(); !r.empty()) return {nullptr, Support::no(r)};
  if (auto r = dtype_refusal(dtype); !r.empty()) return {nullptr, Support::no(r)};
  if (auto r = detail::check_positive(
          {{"batch", batch}, {"heads", heads}, {"seq", seq}, {"head_dim", head_dim}}, threads);
      !r.empty())
    return {nullptr, Support::no(r)};
  // The score tensor S = batch * heads * seq * seq elements, checked without overflow.
  const std::size_t elem = size_of(dtype);
  std::size_t score_bytes = elem;
  for (std::int64_t d : {batch, heads, seq, seq})
    if (__builtin_mul_overflow(score_bytes, static_cast<std::size_t>(d), &score_bytes))
      return {nullptr, Support::no(fmt::format(
                           "the score tensor batch*heads*seq*seq*{} bytes overflows", elem))};
  if (score_bytes > score_budget_bytes)
    return {nullptr, Support::no(fmt::format(
                         "the score tensor (batch*heads*seq*seq*{} = {} bytes) exceeds the "
                         "budget of {} bytes",
                         elem, score_bytes, score_budget_bytes))};

  return detail::prepare<OnednnAttention>("oneDNN attention", [&] {
    OmpThreads guard(threads);
    auto impl = std::make_unique<Impl>();
    impl->threads = threads;
    auto& e = impl->engine;
    const std::int64_t bh = batch * heads;
    const dt t = data_type(dtype);
    const dnnl::memory::desc qkv_md({bh, seq, head_dim}, t, tag::abc);
    // K^T as a view of K: dims [bh, head_dim, seq], element (b, d, s) at K[b][s][d].
    const dnnl::memory::desc kt_md({bh, head_dim, seq}, t,
                                   dnnl::memory::dims{seq * head_dim, 1, head_dim});
    const dnnl::memory::desc s_md({bh, seq, seq}, t, tag::abc);
    // Causal: the same for one (batch, head), 2D; the mask is laid out as S1, in f32.
    const dnnl::memory::desc q1_md({seq, head_dim}, t, tag::ab);
    const dnnl::memory::desc kt1_md({head_dim, seq}, t, dnnl::memory::dims{1, head_dim});
    const dnnl::memory::desc s1_md({seq, seq}, t, tag::ab);
    const dnnl::memory::desc mask_md({seq, seq}, dt::f32, tag::ab);

    dnnl::primitive_attr scores_attr;
    scores_attr.set_output_scales(0, {1.0f / std::sqrt(static_cast<float>(head_dim))});
    if (causal) {
      // One (batch, head) per execution, so the mask matches S and is not broadcast.
      dnnl::post_ops post;
      post.append_binary(dnnl::algorithm::binary_add, mask_md);
      scores_attr.set_post_ops(post);
      impl->scores_pd = {{q1_md, kt1_md, s1_md}, scores_attr, e};
    } else {
      impl->scores_pd = {{qkv_md, kt_md, s_md}, scores_attr, e};
    }
    impl->scores_prim = dnnl::matmul(impl->scores_pd);
    // Softmax over the last axis of S, seen as (bh * seq) rows of seq.
    const dnnl::memory::desc rows_md({bh * seq, seq}, t, tag::ab);
    impl->softmax_pd = {{dnnl::prop_kind::forward_inference, rows_md, 1}, e};
    impl->softmax_prim = dnnl::softmax_forward(impl->softmax_pd);
    impl->context_pd = {{s_md, qkv_md, qkv_md}, e};
    impl->context_prim = dnnl::matmul(impl->context_pd);

    impl->q = detail::unbound(causal ? q1_md : qkv_md, e);
    impl->k = detail::unbound(causal ? kt1_md : kt_md, e);
    impl->v = detail::unbound(qkv_md, e);
    impl->o = detail::unbound(qkv_md, e);
    impl->scores = dnnl::memory(s_md, e);  // allocated by oneDNN
    impl->workspace = score_bytes;
    impl->causal = causal;
    impl->bh = bh;
    impl->seq = seq;
    impl->head_dim = head_dim;
    impl->elem = elem;
    // Causal: a view of one (batch, head) of S, moved along it at each step.
    impl->scores_out = causal ? detail::unbound(s1_md, e) : impl->scores;
    impl->scores_args = {
        {DNNL_ARG_SRC, impl->q}, {DNNL_ARG_WEIGHTS, impl->k}, {DNNL_ARG_DST, impl->scores_out}};
    if (causal) {
      impl->mask = dnnl::memory(mask_md, e);
      auto* m = static_cast<float*>(impl->mask.get_data_handle());
      const float minus_inf = -std::numeric_limits<float>::infinity();
      for (std::int64_t i = 0; i < seq; ++i)
        for (std::int64_t j = 0; j < seq; ++j) m[i * seq + j] = j > i ? minus_inf : 0.0f;
      impl->workspace += mask_md.get_size();
      impl->scores_args.insert({DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, impl->mask});
    }
    // The same bytes as S, seen as rows: softmax runs in place.
    const dnnl::memory rows(rows_md, e, impl->scores.get_data_handle());
    impl->softmax_args = {{DNNL_ARG_SRC, rows}, {DNNL_ARG_DST, rows}};
    impl->context_args = {
        {DNNL_ARG_SRC, impl->scores}, {DNNL_ARG_WEIGHTS, impl->v}, {DNNL_ARG_DST, impl->o}};
    return std::unique_ptr<OnednnAttention>(new OnednnAttention(std::move(impl)));
  });
}

void OnednnAttention::execute(const void* q, const void* k, const void* v, void* o) {
  OmpThreads guard(impl_->threads);
  Impl& p = *impl_;
  p.v.set_data_handle(const_cast<void*>(v));
  p.o.set_data_handle(o);
  if (!p.causal) {
    p.q.set_data_handle(const_cast<void*>(q));
    p.k.set_data_handle(const_cast<void*>(k));
    detail::run(p.scores_prim, p.stream, p.scores_args);
  } else {
    // Byte offsets: the element is f32 or bf16.
    const auto at = [&](const void* base, std::int64_t elements) {
      return const_cast<char*>(static_cast<const char*>(base)) +
             static_cast<std::size_t>(elements) * p.elem;
    };
    void* s = p.scores.get_data_handle();
    for (std::int64_t h = 0; h < p.bh; ++h) {
      p.q.set_data_handle(at(q, h * p.seq * p.head_dim));
      p.k.set_data_handle(at(k, h * p.seq * p.head_dim));
      p.scores_out.set_data_handle(at(s, h * p.seq * p.seq));
      detail::run(p.scores_prim, p.stream, p.scores_args);
    }
  }
  detail::run(p.softmax_prim, p.stream, p.softmax_args);
  detail::run(p.context_prim, p.stream, p.context_args);
}

std::string OnednnAttention::implementation() const {
  return fmt::format("matmul: {}; softmax: {}; matmul: {}", impl_->scores_pd.impl_info_str(),
                     impl_->softmax_pd.impl_info_str(), impl_->context_pd.impl_info_str());
}

std::size_t OnednnAttention::workspace_bytes() const {
  return impl_->workspace;
}

}  // namespace ridgeline::ops
