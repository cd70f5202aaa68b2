#pragma once
// The einsum op's own view of its params, for its kernels and reference: a contraction of
// two operands written in NumPy's notation ("bthr,bThr->bhtT") with each index's extent.
// Every operand is dense and row-major in the order its indices are written.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "ridgeline/core/problem.hpp"

namespace ridgeline {

struct EinsumSpec {
  std::string a, b, c;                   // each operand's indices, in storage order
  std::map<char, std::int64_t> extents;  // every index's extent
  // Elements of an operand with these indices (1 for a scalar).
  std::int64_t elements(std::string_view indices) const;
  // Indices of the inputs that are not in the output: summed over.
  std::string contracted() const;
};

// The equation's syntax: two operands and an explicit output, indices a-z and A-Z, no
// index twice within an operand (a trace) or in the output, every output index in an input;
// "" when it is such an equation, else the reason in one line.
std::string einsum_equation_error(std::string_view equation);
// "b=8,t=1024": every extent a positive integer; "" or the reason.
std::string einsum_extents_error(std::string_view extents);
// The extents by index (std::invalid_argument with the reason where malformed).
std::map<char, std::int64_t> einsum_extents(std::string_view extents);
// One term of an equation: indices a-z and A-Z, none twice; "" or the reason, naming the
// term as `which` ("the first operand", "operand 3").
std::string einsum_term_error(const std::string& term, const char* which);

// The problem's equation and extents (checked_params has verified them).
EinsumSpec einsum_spec(const Problem& problem);

}  // namespace ridgeline
