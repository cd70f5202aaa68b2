#include "einsum_lowering.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <utility>
#include <vector>

#include "einsum_strides.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

namespace {

bool has(const std::string& s, char ch) {
  return s.find(ch) != std::string::npos;
}

std::int64_t extent_of(const EinsumSpec& s, const std::string& indices) {
  return s.elements(indices);
}

// The group `g` as one dimension of `operand`: its indices adjacent there in g's order.
// Returns the fused dimension's stride (its last index's), or -1 where they are not.
std::int64_t fused_stride(const EinsumSpec& s, const std::string& operand, const std::string& g) {
  if (g.empty()) return 0;
  const std::size_t at = operand.find(g);
  if (at == std::string::npos) return -1;
  return stride_of(operand, g.back(), s);
}

// One operand as a rows x cols matrix of the GEMM (A: m x k, B: k x n), PackedGemm's
// convention: plain, x[r * ld + c] (cols at stride 1); transposed, x[c * ld + r]. An empty
// group is one index of extent 1, at any stride. The reason where neither fits.
Support matrix_of(const EinsumSpec& s, const std::string& operand, const char* name,
                  const std::string& rows, const std::string& cols, std::int64_t& ld,
                  bool& transposed) {
  const std::int64_t sr = fused_stride(s, operand, rows), sc = fused_stride(s, operand, cols);
  if (sr < 0 || sc < 0)
    return Support::no(fmt::format(
        "{} ({}) does not hold the indices '{}' together in that order: a copy is needed", name,
        operand, sr < 0 ? rows : cols));
  if (cols.empty() || sc == 1) {
    transposed = false;
    ld = rows.empty() ? 1 : sr;
  } else if (rows.empty() || sr == 1) {
    transposed = true;
    ld = sc;
  } else {
    return Support::no(
        fmt::format("{} ({}) has neither '{}' nor '{}' at stride 1: a copy is needed", name,
                    operand, rows, cols));
  }
  return Support::yes();
}

// The offset in `operand` of each point of the indices `group` (row-major over them, the
// last fastest); {0} for an empty group.
std::vector<std::int64_t> group_offsets(const EinsumSpec& s, const std::string& operand,
                                        const std::string& group) {
  std::vector<std::int64_t> out{0};
  for (char ch : group) {
    const std::int64_t extent = s.extents.at(ch), stride = stride_of(operand, ch, s);
    std::vector<std::int64_t> next;
    next.reserve(out.size() * static_cast<std::size_t>(extent));
    for (std::int64_t base : out)
      for (std::int64_t i = 0; i < extent; ++i) next.push_back(base + i * stride);
    out = std::move(next);
  }
  return out;
}

}  // namespace

EinsumGroups einsum_groups(const EinsumSpec& s) {
  EinsumGroups g;
  for (char ch : s.c) {
    const bool in_a = has(s.a, ch), in_b = has(s.b, ch);
    (in_a && in_b ? g.batch : in_a ? g.m : g.n) += ch;
  }
  for (char ch : s.a)
    if (!has(s.c, ch)) (has(s.b, ch) ? g.k : g.summed_a) += ch;
  for (char ch : s.b)
    if (!has(s.c, ch) && !has(s.a, ch)) g.summed_b += ch;
  return g;
}

Support gemm_lowering_support(const EinsumSpec& s) {
  const EinsumGroups g = einsum_groups(s);
  if (!g.summed_a.empty() || !g.summed_b.empty()) {
    std::vector<std::string> which;  // "'j' in B", "'i' and 'k' in A"
    for (const auto& [summed, operand] : {std::pair{&g.summed_a, "A"}, {&g.summed_b, "B"}}) {
      if (summed->empty()) continue;
      std::vector<std::string> quoted;
      for (char ch : *summed) quoted.push_back(fmt::format("'{}'", ch));
      which.push_back(fmt::format("{} in {}", fmt::join(quoted, " and "), operand));
    }
    const bool one = g.summed_a.size() + g.summed_b.size() == 1;
    return Support::no(
        fmt::format("{} {} summed within {} operand only: no GEMM lowering (the loop nest runs it)",
                    fmt::join(which, ", "), one ? "is" : "are each", one ? "one" : "its"));
  }
  return Support::yes();
}

WorkModel ttgt_work(const Problem& problem) {
  const EinsumSpec s = einsum_spec(problem);
  WorkModel w = op_work(problem);
  w.bytes[MemoryLevel::main] +=
      ttgt_added_elements(s, ttgt_plan(s)) * static_cast<double>(size_of(problem.dtype));
  return w;
}

TtgtPlan ttgt_plan(const EinsumSpec& s) {
  const EinsumGroups g = einsum_groups(s);
  TtgtPlan p;
  p.a = g.batch + g.m + g.k;
  p.b = g.batch + g.k + g.n;
  p.c = g.batch + g.m + g.n;
  p.permute_a = p.a != s.a;
  p.permute_b = p.b != s.b;
  p.permute_c = p.c != s.c;
  p.batch = extent_of(s, g.batch);
  p.m = extent_of(s, g.m);
  p.n = extent_of(s, g.n);
  p.k = extent_of(s, g.k);
  return p;
}

std::vector<LoweringStep> ttgt_steps(const TtgtPlan& p, bool lapped) {
  std::vector<LoweringStep> steps;
  const auto permute = [&](bool needed, const std::string& operand) {
    if (needed) steps.push_back({StepKind::permute, operand, lapped ? "permute_" + operand : ""});
  };
  permute(p.permute_a, "A");
  permute(p.permute_b, "B");
  steps.push_back({StepKind::gemm, "gemm", lapped ? "gemm" : ""});
  permute(p.permute_c, "C");
  return steps;
}

KernelInfo declared_lowering(KernelInfo info, LoweringKind kind) {
  info.lowering = kind;
  return info;
}

double ttgt_added_elements(const EinsumSpec& s, const TtgtPlan& p) {
  double e = 0;
  if (p.permute_a) e += 2.0 * static_cast<double>(s.elements(s.a));
  if (p.permute_b) e += 2.0 * static_cast<double>(s.elements(s.b));
  if (p.permute_c) e += 2.0 * static_cast<double>(s.elements(s.c));
  return e;
}

Support strided_view(const EinsumSpec& s, StridedView& v) {
  if (Support ok = gemm_lowering_support(s); !ok) return ok;
  const EinsumGroups g = einsum_groups(s);
  // C must end in m then n (or n then m: the product transposed, A and B swapping roles).
  const std::string tail_mn = g.m + g.n, tail_nm = g.n + g.m;
  const auto ends_with = [&](const std::string& t) {
    return s.c.size() >= t.size() && s.c.compare(s.c.size() - t.size(), t.size(), t) == 0;
  };
  StridedView out;
  out.swapped = !ends_with(tail_mn) && ends_with(tail_nm);
  if (!ends_with(tail_mn) && !out.swapped)
    return Support::no(fmt::format(
        "C ({}) does not end in its indices from A ('{}') then those from B ('{}'): a copy is "
        "needed",
        s.c, g.m, g.n));
  const std::string& left = out.swapped ? s.b : s.a;
  const std::string& right = out.swapped ? s.a : s.b;
  const std::string& rows = out.swapped ? g.n : g.m;
  const std::string& cols = out.swapped ? g.m : g.n;
  if (Support ok = matrix_of(s, left, out.swapped ? "B" : "A", rows, g.k, out.lda, out.ta); !ok)
    return ok;
  if (Support ok = matrix_of(s, right, out.swapped ? "A" : "B", g.k, cols, out.ldb, out.tb); !ok)
    return ok;
  out.m = extent_of(s, rows);
  out.n = extent_of(s, cols);
  out.k = extent_of(s, g.k);
  for (char ch : g.batch) {
    out.batch_extent.push_back(s.extents.at(ch));
    out.batch_a.push_back(stride_of(left, ch, s));
    out.batch_b.push_back(stride_of(right, ch, s));
    out.batch_c.push_back(stride_of(s.c, ch, s));
    out.batches *= s.extents.at(ch);
  }
  v = out;
  return Support::yes();
}

std::vector<BatchOffsets> dense_batch_offsets(const TtgtPlan& p) {
  std::vector<BatchOffsets> out;
  for (std::int64_t i = 0; i < p.batch; ++i)
    out.push_back({i * p.m * p.k, i * p.k * p.n, i * p.m * p.n});
  return out;
}

StridedView dense_view(const TtgtPlan& p) {
  StridedView v;
  v.m = p.m;
  v.n = p.n;
  v.k = v.lda = p.k;
  v.ldb = p.n;
  v.batches = p.batch;
  return v;
}

std::vector<BatchOffsets> batch_offsets(const StridedView& v) {
  std::vector<BatchOffsets> out;
  out.reserve(static_cast<std::size_t>(v.batches));
  for (std::int64_t i = 0; i < v.batches; ++i) {
    std::int64_t rest = i;
    BatchOffsets o;
    for (std::size_t d = v.batch_extent.size(); d-- > 0;) {
      const std::int64_t j = rest % v.batch_extent[d];
      rest /= v.batch_extent[d];
      o.a += j * v.batch_a[d];
      o.b += j * v.batch_b[d];
      o.c += j * v.batch_c[d];
    }
    out.push_back(o);
  }
  return out;
}

std::string describe(const StridedView& v) {
  return fmt::format("{} products of {}x{}x{} (lda {}{}, ldb {}{}){}", v.batches, v.m, v.n, v.k,
                     v.lda, v.ta ? ", transposed" : "", v.ldb, v.tb ? ", transposed" : "",
                     v.swapped ? ", as C^T = B^T A^T" : "");
}

GettView gett_view(const EinsumSpec& s) {
  const EinsumGroups g = einsum_groups(s);
  GettView v;
  v.swapped = !s.c.empty() && g.m.find(s.c.back()) != std::string::npos;
  const std::string& left = v.swapped ? s.b : s.a;
  const std::string& right = v.swapped ? s.a : s.b;
  const std::string& rows = v.swapped ? g.n : g.m;
  const std::string& cols = v.swapped ? g.m : g.n;
  v.m = extent_of(s, rows);
  v.n = extent_of(s, cols);
  v.k = extent_of(s, g.k);
  v.layout.a_m = group_offsets(s, left, rows);
  v.layout.a_k = group_offsets(s, left, g.k);
  v.layout.b_k = group_offsets(s, right, g.k);
  v.layout.b_n = group_offsets(s, right, cols);
  v.layout.c_m = group_offsets(s, s.c, rows);
  v.layout.c_n = group_offsets(s, s.c, cols);
  const std::vector<std::int64_t> a = group_offsets(s, left, g.batch),
                                  b = group_offsets(s, right, g.batch),
                                  c = group_offsets(s, s.c, g.batch);
  for (std::size_t i = 0; i < c.size(); ++i) v.batches.push_back({a[i], b[i], c[i]});
  return v;
}

StridedCall strided_call(const Problem& problem, Operands& operands) {
  StridedCall call;
  strided_view(einsum_spec(problem), call.view);
  call.left = operands.at(call.view.swapped ? "B" : "A").raw();
  call.right = operands.at(call.view.swapped ? "A" : "B").raw();
  call.c = operands.at("C").raw();
  call.offsets = batch_offsets(call.view);
  return call;
}

}  // namespace ridgeline
