#include "ridgeline/core/ops/einsum_path.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>

#include "ridgeline/core/ops/einsum.hpp"

namespace ridgeline {

namespace {

std::vector<std::string> split_inputs(std::string_view in) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t comma = in.find(',', at);
    out.emplace_back(in.substr(at, comma == std::string_view::npos ? in.npos : comma - at));
    if (comma == std::string_view::npos) return out;
    at = comma + 1;
  }
}

double elements(const EinsumNetwork& n, const std::string& indices) {
  double e = 1;
  for (char ch : indices) e *= static_cast<double>(n.extents.at(ch));
  return e;
}

bool has(const std::string& s, char ch) {
  return s.find(ch) != std::string::npos;
}

// An operand of the network as contraction goes on: its indices, and which of the inputs
// it is made of (a bit each), which orders the two operands of every step the same way
// whatever order the path takes: the one of the lower inputs first. So one contraction is
// one step equation, and one path one set of them, however it was found.
struct Operand {
  std::string indices;
  std::uint64_t inputs = 0;
};

std::vector<Operand> inputs_of(const EinsumNetwork& n) {
  std::vector<Operand> out;
  for (std::size_t k = 0; k < n.inputs.size(); ++k) out.push_back({n.inputs[k], 1ull << k});
  return out;
}

// Contracts operands[i] and operands[j]: the result keeps the indices the output or another
// remaining operand still needs (the output's own order at the last step).
EinsumPathStep contract(const EinsumNetwork& n, std::vector<Operand>& operands, std::size_t i,
                        std::size_t j, std::size_t element_bytes) {
  const bool in_order = operands[i].inputs < operands[j].inputs;
  const Operand first = operands[in_order ? i : j], second = operands[in_order ? j : i];
  const std::string &a = first.indices, &b = second.indices;
  std::string kept;
  if (operands.size() == 2) {
    kept = n.output;
  } else {
    for (char ch : a + b) {
      if (has(kept, ch)) continue;
      bool needed = has(n.output, ch);
      for (std::size_t k = 0; k < operands.size() && !needed; ++k)
        needed = k != i && k != j && has(operands[k].indices, ch);
      if (needed) kept += ch;
    }
  }
  std::string all = a;
  for (char ch : b)
    if (!has(all, ch)) all += ch;
  EinsumPathStep step;
  step.left = i;
  step.right = j;
  step.equation = fmt::format("{},{}->{}", a, b, kept);
  step.flops = 2 * elements(n, all);
  step.bytes =
      (elements(n, a) + elements(n, b) + elements(n, kept)) * static_cast<double>(element_bytes);
  operands.erase(operands.begin() + static_cast<std::ptrdiff_t>(std::max(i, j)));
  operands.erase(operands.begin() + static_cast<std::ptrdiff_t>(std::min(i, j)));
  operands.push_back({kept, first.inputs | second.inputs});
  return step;
}

void add(EinsumPath& p, EinsumPathStep step) {
  p.flops += step.flops;
  p.bytes += step.bytes;
  p.steps.push_back(std::move(step));
}

bool cheaper(double flops, double bytes, double best_flops, double best_bytes) {
  return flops < best_flops || (flops == best_flops && bytes < best_bytes);
}

// A path's steps as a set: two orders that make the same contractions (A B, then C D; or
// C D, then A B) are one path.
std::vector<std::string> step_set(const EinsumPath& p) {
  std::vector<std::string> out;
  for (const EinsumPathStep& st : p.steps) out.push_back(st.equation);
  std::sort(out.begin(), out.end());
  return out;
}

// The `count` cheapest completions of `operands`, tried exhaustively, each another set of
// steps, cheapest first.
void search(const EinsumNetwork& n, std::vector<Operand> operands, EinsumPath& so_far,
            std::vector<EinsumPath>& best, std::size_t count, std::size_t element_bytes) {
  if (operands.size() == 1) {
    const std::vector<std::string> steps = step_set(so_far);
    for (EinsumPath& b : best)
      if (step_set(b) == steps) {
        if (cheaper(so_far.flops, so_far.bytes, b.flops, b.bytes)) b = so_far;
        return;
      }
    const auto at = std::find_if(best.begin(), best.end(), [&](const EinsumPath& b) {
      return cheaper(so_far.flops, so_far.bytes, b.flops, b.bytes);
    });
    best.insert(at, so_far);
    if (best.size() > count) best.pop_back();
    return;
  }
  if (best.size() == count && so_far.flops > best.back().flops) return;  // cannot make the list
  for (std::size_t i = 0; i < operands.size(); ++i)
    for (std::size_t j = i + 1; j < operands.size(); ++j) {
      std::vector<Operand> next = operands;
      const EinsumPathStep step = contract(n, next, i, j, element_bytes);
      const EinsumPath saved = so_far;
      add(so_far, step);
      search(n, std::move(next), so_far, best, count, element_bytes);
      so_far = saved;
    }
}

}  // namespace

std::string einsum_network_error(std::string_view equation) {
  if (equation.find("...") != std::string_view::npos)
    return "broadcasting (...) is not supported: name every index";
  const std::size_t arrow = equation.find("->");
  if (arrow == std::string_view::npos)
    return "give the output explicitly (\"ij,jk,kl->il\"): NumPy's implicit output is not "
           "supported";
  const std::vector<std::string> inputs = split_inputs(equation.substr(0, arrow));
  const std::string output(equation.substr(arrow + 2));
  if (inputs.size() < 2) return "one operand: einsum contracts two or more (\"ij,jk->ik\")";
  if (inputs.size() > 64) return fmt::format("{} operands: at most 64", inputs.size());
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const std::string which = fmt::format("operand {}", k + 1);
    if (std::string e = einsum_term_error(inputs[k], which.c_str()); !e.empty()) return e;
  }
  if (std::string e = einsum_term_error(output, "the output"); !e.empty()) return e;
  for (char ch : output)
    if (std::none_of(inputs.begin(), inputs.end(),
                     [&](const std::string& t) { return has(t, ch); }))
      return fmt::format("output index '{}' is in no operand", ch);
  return "";
}

EinsumNetwork einsum_network(std::string_view equation, std::string_view extents) {
  if (const std::string why = einsum_network_error(equation); !why.empty())
    throw std::invalid_argument(why);
  const std::size_t arrow = equation.find("->");
  EinsumNetwork n{split_inputs(equation.substr(0, arrow)), std::string(equation.substr(arrow + 2)),
                  einsum_extents(extents)};
  for (const std::string& t : n.inputs)
    for (char ch : t)
      if (!n.extents.count(ch))
        throw std::invalid_argument(fmt::format("index '{}' has no extent", ch));
  for (const auto& [index, extent] : n.extents)
    if (std::none_of(n.inputs.begin(), n.inputs.end(),
                     [&, i = index](const std::string& t) { return has(t, i); }))
      throw std::invalid_argument(
          fmt::format("index '{}' is given an extent but is not in the equation", index));
  return n;
}

EinsumPath einsum_path_left_to_right(const EinsumNetwork& n, std::size_t element_bytes) {
  EinsumPath p;
  p.how = "left to right";
  p.as_written = true;
  std::vector<Operand> operands = inputs_of(n);
  add(p, contract(n, operands, 0, 1, element_bytes));
  // Then the result so far (last in the list) with the next operand written (first).
  while (operands.size() > 1) add(p, contract(n, operands, operands.size() - 1, 0, element_bytes));
  return p;
}

EinsumPath einsum_path_greedy(const EinsumNetwork& n, std::size_t element_bytes) {
  EinsumPath p;
  p.how = "greedy";
  std::vector<Operand> operands = inputs_of(n);
  while (operands.size() > 1) {
    // opt_einsum's greedy choice: of the pairs that share an index, the one whose result
    // is smallest beside its two operands (the most memory removed); ties, fewer FLOPs.
    // Only where no pair shares one, an outer product: the smallest result.
    const auto shares = [](const std::string& a, const std::string& b) {
      return std::any_of(a.begin(), a.end(), [&](char ch) { return has(b, ch); });
    };
    bool any_shared = false;
    for (std::size_t i = 0; i < operands.size() && !any_shared; ++i)
      for (std::size_t j = i + 1; j < operands.size() && !any_shared; ++j)
        any_shared = shares(operands[i].indices, operands[j].indices);
    std::size_t bi = 0, bj = 1;
    double best_cost = std::numeric_limits<double>::infinity(), best_flops = best_cost;
    for (std::size_t i = 0; i < operands.size(); ++i)
      for (std::size_t j = i + 1; j < operands.size(); ++j) {
        if (any_shared && !shares(operands[i].indices, operands[j].indices)) continue;
        std::vector<Operand> trial = operands;
        const EinsumPathStep s = contract(n, trial, i, j, element_bytes);
        const double kept = elements(n, trial.back().indices);
        const double cost =
            any_shared ? kept - elements(n, operands[i].indices) - elements(n, operands[j].indices)
                       : kept;
        if (cost < best_cost || (cost == best_cost && s.flops < best_flops)) {
          best_cost = cost;
          best_flops = s.flops;
          bi = i;
          bj = j;
        }
      }
    add(p, contract(n, operands, bi, bj, element_bytes));
  }
  return p;
}

std::vector<EinsumPath> einsum_paths_cheapest(const EinsumNetwork& n, std::size_t element_bytes,
                                              std::size_t count) {
  if (n.inputs.size() > kMostOptimalOperands)
    throw std::invalid_argument(fmt::format("{} operands: the exhaustive search takes at most {}",
                                            n.inputs.size(), kMostOptimalOperands));
  EinsumPath so_far;
  std::vector<EinsumPath> best;
  search(n, inputs_of(n), so_far, best, std::max<std::size_t>(count, 1), element_bytes);
  static const char* const names[] = {"optimal", "2nd by FLOPs", "3rd by FLOPs"};
  for (std::size_t k = 0; k < best.size(); ++k) {
    best[k].how = k < 3 ? names[k] : fmt::format("{}th by FLOPs", k + 1);
    best[k].runner_up = k > 0;
  }
  return best;
}

EinsumPath einsum_path_optimal(const EinsumNetwork& n, std::size_t element_bytes) {
  return einsum_paths_cheapest(n, element_bytes, 1).front();
}

std::vector<EinsumPath> einsum_paths(const EinsumNetwork& n, std::size_t element_bytes,
                                     std::size_t runners_up) {
  std::vector<EinsumPath> out;
  // Each path once: one with the same steps as a path shown already is left out.
  const auto add = [&](EinsumPath p) {
    for (EinsumPath& shown : out)
      if (step_set(shown) == step_set(p)) {
        shown.as_written = shown.as_written || p.as_written;
        return;
      }
    out.push_back(std::move(p));
  };
  const bool optimal = n.inputs.size() <= kMostOptimalOperands;
  if (optimal) {
    const std::vector<EinsumPath> cheapest =
        einsum_paths_cheapest(n, element_bytes, 1 + runners_up);
    const EinsumPath& best = cheapest.front();
    for (const EinsumPath& p : cheapest)  // runners-up within 10x the optimum's work
      if (&p == &best ||
          (p.flops <= kRunnerUpFactor * best.flops && p.bytes <= kRunnerUpFactor * best.bytes))
        add(p);
  } else {
    add(einsum_path_greedy(n, element_bytes));
  }
  if (optimal) add(einsum_path_greedy(n, element_bytes));  // a second prediction, if other
  add(einsum_path_left_to_right(n, element_bytes));
  std::stable_sort(out.begin(), out.end(),
                   [](const EinsumPath& a, const EinsumPath& b) { return a.flops < b.flops; });
  return out;
}

std::string step_extents(const EinsumNetwork& n, const std::string& step_equation) {
  std::string out;
  for (const auto& [index, extent] : n.extents)
    if (step_equation.find(index) != std::string::npos)
      out += fmt::format("{}{}={}", out.empty() ? "" : ",", index, extent);
  return out;
}

std::vector<std::string> einsum_step_params(const EinsumNetwork& n,
                                            const std::vector<EinsumPath>& paths) {
  std::vector<std::string> out;
  for (const EinsumPath& p : paths)
    for (const EinsumPathStep& st : p.steps)
      if (std::string c = fmt::format("equation=\"{}\"/extents=\"{}\"", st.equation,
                                      step_extents(n, st.equation));
          std::find(out.begin(), out.end(), c) == out.end())
        out.push_back(std::move(c));
  return out;
}

}  // namespace ridgeline
