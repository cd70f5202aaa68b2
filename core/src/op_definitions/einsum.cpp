// einsum: C = the contraction of A and B that an equation in NumPy's notation names
// ("ij,jk->ik", "bthr,bThr->bhtT"), each index's extent given by name. Every output element
// is a sum over the contracted indices of one product: 2 FLOPs (a multiply and an add) for
// each point of the whole index space, a sum-only index (in one input, not the output)
// included. Compulsory bytes: each operand once. A lowering that copies (a transpose) adds
// its own bytes in its kernel's work model.
#include "ridgeline/core/ops/einsum.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "op_definitions.hpp"

namespace ridgeline {

namespace {

struct Terms {
  std::string a, b, c;
};

// Splits "ab,bc->ac"; the reason in `why` where it is not two operands and an output.
Terms split(std::string_view eq, std::string& why) {
  const std::size_t arrow = eq.find("->");
  if (eq.find("...") != std::string_view::npos) {
    why = "broadcasting (...) is not supported: name every index";
    return {};
  }
  if (arrow == std::string_view::npos) {
    why = "give the output explicitly (\"ij,jk->ik\"): NumPy's implicit output is not supported";
    return {};
  }
  const std::string_view in = eq.substr(0, arrow), out = eq.substr(arrow + 2);
  const std::size_t comma = in.find(',');
  if (comma == std::string_view::npos) {
    why = "one operand: einsum here contracts two (\"ij,jk->ik\")";
    return {};
  }
  if (in.find(',', comma + 1) != std::string_view::npos) {
    why = "more than two operands: a chain is a contraction path of pairs, not one op";
    return {};
  }
  return {std::string(in.substr(0, comma)), std::string(in.substr(comma + 1)), std::string(out)};
}

// "b=8,t=1024" -> extents; the reason in `why` where malformed.
std::map<char, std::int64_t> parse_extents(std::string_view text, std::string& why) {
  std::map<char, std::int64_t> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find(',', at), text.size());
    const std::string_view item = text.substr(at, end - at);
    const std::size_t eq = item.find('=');
    if (eq != 1 || !std::isalpha(static_cast<unsigned char>(item[0]))) {
      why = fmt::format("'{}' is not index=extent (one letter, then a positive integer)", item);
      return {};
    }
    std::int64_t value = 0;
    const std::string_view number = item.substr(2);
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec == std::errc::result_out_of_range && ptr == number.data() + number.size()) {
      why = fmt::format("the extent of '{}' is '{}': out of range (at most {})", item[0], number,
                        std::numeric_limits<std::int64_t>::max());
      return {};
    }
    if (ec != std::errc() || ptr != number.data() + number.size() || value < 1) {
      why = fmt::format("the extent of '{}' is '{}': a positive integer", item[0], number);
      return {};
    }
    if (!out.emplace(item[0], value).second) {
      why = fmt::format("index '{}' is given two extents", item[0]);
      return {};
    }
    at = end + 1;
  }
  return out;
}

// The equation and the extents together: every index has an extent, none is left over,
// and no operand is too large to count.
std::string consistent(const OpParams& params) {
  std::string why;
  const Terms t = split(params.attr("equation"), why);
  const auto extents = parse_extents(params.attr("extents"), why);
  if (!why.empty()) return why;
  std::set<char> used;
  for (const std::string* term : {&t.a, &t.b, &t.c})
    for (char ch : *term) {
      used.insert(ch);
      if (!extents.count(ch)) return fmt::format("index '{}' has no extent", ch);
    }
  for (const auto& [index, extent] : extents)
    if (!used.count(index))
      return fmt::format("index '{}' is given an extent but is not in the equation", index);
  double points = 1;
  for (const auto& [index, extent] : extents) points *= static_cast<double>(extent);
  if (points > 0x1p62) return "the index space has more than 2^62 points";
  return "";
}

}  // namespace

std::int64_t EinsumSpec::elements(std::string_view indices) const {
  std::int64_t n = 1;
  for (char ch : indices) n *= extents.at(ch);
  return n;
}

std::string EinsumSpec::contracted() const {
  std::string out;
  for (char ch : a + b)
    if (c.find(ch) == std::string::npos && out.find(ch) == std::string::npos) out += ch;
  return out;
}

std::string einsum_term_error(const std::string& term, const char* which) {
  std::set<char> seen;
  for (char ch : term) {
    if (!std::isalpha(static_cast<unsigned char>(ch)))
      return fmt::format("'{}' in {} is not an index (a-z, A-Z)", ch, which);
    if (!seen.insert(ch).second)
      return fmt::format(
          "index '{}' appears twice in {} (traces and diagonals are not "
          "supported)",
          ch, which);
  }
  return "";
}

std::map<char, std::int64_t> einsum_extents(std::string_view extents) {
  std::string why;
  auto out = parse_extents(extents, why);
  if (!why.empty()) throw std::invalid_argument(why);
  return out;
}

std::string einsum_equation_error(std::string_view equation) {
  std::string why;
  const Terms t = split(equation, why);
  if (!why.empty()) return why;
  for (const auto& [term, which] :
       {std::pair{&t.a, "the first operand"}, {&t.b, "the second operand"}, {&t.c, "the output"}})
    if (std::string e = einsum_term_error(*term, which); !e.empty()) return e;
  for (char ch : t.c)
    if (t.a.find(ch) == std::string::npos && t.b.find(ch) == std::string::npos)
      return fmt::format("output index '{}' is in neither operand", ch);
  return "";
}

std::string einsum_extents_error(std::string_view extents) {
  std::string why;
  parse_extents(extents, why);
  return why;
}

EinsumSpec einsum_spec(const Problem& p) {
  std::string why;
  const Terms t = split(p.params.attr("equation"), why);
  return {t.a, t.b, t.c, parse_extents(p.params.attr("extents"), why)};
}

namespace ops {

namespace {

std::string equation_check(std::string_view v) {
  return einsum_equation_error(v);
}
std::string extents_check(std::string_view v) {
  return einsum_extents_error(v);
}

std::vector<OperandSpec> operands(const Problem& p) {
  const EinsumSpec s = einsum_spec(p);
  auto dims = [](const std::string& indices) {
    std::vector<std::string> d;
    for (char ch : indices) d.emplace_back(1, ch);
    return d;
  };
  return {{"A", OperandRole::input, dims(s.a), s.elements(s.a), p.dtype},
          {"B", OperandRole::input, dims(s.b), s.elements(s.b), p.dtype},
          {"C", OperandRole::output, dims(s.c), s.elements(s.c), output_dtype(p.dtype)}};
}

WorkModel work(const Problem& p) {
  const EinsumSpec s = einsum_spec(p);
  double points = 1;
  for (const auto& [index, extent] : s.extents) points *= static_cast<double>(extent);
  const double bytes =
      (static_cast<double>(s.elements(s.a)) + static_cast<double>(s.elements(s.b))) * in_bytes(p) +
      static_cast<double>(s.elements(s.c)) * out_bytes(p);
  return dram_work(2 * points, bytes);
}

// As a GEMM's: each output is a sum of K products, K the contracted indices' extent.
double tolerance(const Problem& p) {
  const EinsumSpec s = einsum_spec(p);
  const double k = static_cast<double>(s.elements(s.contracted()));
  return 16.0 * std::sqrt(k) * unit_roundoff(output_dtype(p.dtype));
}

}  // namespace

OpDefinition einsum_definition() {
  OpDefinition op;
  op.name = "einsum";
  op.description = "a two-operand contraction in NumPy's notation, each index's extent by name";
  AttrSpec equation;
  equation.name = "equation";
  equation.meaning = "the contraction, \"bthr,bThr->bhtT\"";
  equation.check = equation_check;
  AttrSpec extents;
  extents.name = "extents";
  extents.meaning = "each index's extent, \"b=8,t=1024,h=16,r=64,T=1024\"";
  extents.check = extents_check;
  op.attrs = {equation, extents};
  op.consistent = consistent;
  op.dtypes = {DType::f32, DType::f64};
  op.example = R"(equation="ij,jk->ik"/extents="i=64,j=64,k=64")";
  // A GEMM, a batched product with a transposed operand, an outer product, a sum-only index,
  // a 4-index contraction and extents of 1 and primes.
  op.awkward = {R"(equation="ij,jk->ik"/extents="i=1,j=1,k=1")",
                R"(equation="ij,jk->ik"/extents="i=17,j=13,k=19")",
                R"(equation="bthr,bThr->bhtT"/extents="b=2,t=5,h=3,r=7,T=4")",
                R"(equation="i,j->ij"/extents="i=31,j=9")",
                R"(equation="ik,jk->i"/extents="i=5,j=3,k=11")",
                R"(equation="abcd,cdef->abef"/extents="a=3,b=2,c=5,d=4,e=2,f=3")",
                // Each way a GEMM lowering reads an operand: B transposed (attention scores),
                // A transposed, C as the transposed product, the batch index last in C (a
                // copy), an outer product of matrices.
                R"(equation="bhqd,bhkd->bhqk"/extents="b=2,h=3,q=5,k=7,d=3")",
                R"(equation="ji,jk->ik"/extents="i=7,j=5,k=3")",
                R"(equation="ij,kj->ki"/extents="i=5,j=3,k=7")",
                R"(equation="bij,bjk->ikb"/extents="b=3,i=5,j=7,k=2")",
                R"(equation="ab,cd->abcd"/extents="a=3,b=5,c=2,d=7")",
                // Contracted indices in other orders in A and B, over more k steps than a
                // packed GEMM's block, C as the transposed product (GETT's gathers).
                R"(equation="aeb,bfe->fa"/extents="a=37,b=29,e=23,f=41")"};
  op.operands = operands;
  op.work = work;
  op.tolerance = tolerance;
  op.reference = ReferenceKind::einsum;
  return op;
}

}  // namespace ops

}  // namespace ridgeline
