#pragma once
// More than two operands: an einsum network ("ij,jk,kl->il") is contracted a pair at a time,
// and the order (the contraction path) decides the FLOPs, often by orders of magnitude.
// Paths as opt_einsum writes them: each step contracts two operands of the current list
// (their positions), removes them and appends the result. Each step is itself a
// two-operand einsum, costed by the op's work model (2 FLOPs per point of the step's index
// space; each operand and the result once).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline {

struct EinsumNetwork {
  std::vector<std::string> inputs;  // each operand's indices
  std::string output;
  std::map<char, std::int64_t> extents;
};

// Two or more operands and an explicit output, each term as einsum's; "" or the reason.
std::string einsum_network_error(std::string_view equation);
// The network of an equation einsum_network_error accepts, with its extents.
EinsumNetwork einsum_network(std::string_view equation, std::string_view extents);

struct EinsumPathStep {
  std::size_t left = 0, right = 0;  // positions in the current operand list
  std::string equation;             // "ij,jk->ik": the step as a two-operand einsum
  double flops = 0, bytes = 0;      // the step's work model
};

struct EinsumPath {
  std::string how;          // "optimal", "2nd by FLOPs", "greedy", "left to right"
  bool runner_up = false;   // a next cheapest path: shown where its steps ran
  bool as_written = false;  // the order written (left to right), whatever its name here
  std::vector<EinsumPathStep> steps;
  double flops = 0, bytes = 0;  // summed over the steps
};

// Operands contracted in the order written: ((A B) C) D.
EinsumPath einsum_path_left_to_right(const EinsumNetwork& n, std::size_t element_bytes);
// opt_einsum's greedy path: at each step, of the pairs sharing an index, the one whose
// result is smallest beside its operands (ties: fewer FLOPs); an outer product (the
// smallest) only where no pair shares an index.
EinsumPath einsum_path_greedy(const EinsumNetwork& n, std::size_t element_bytes);
// Every order of pairs tried: the fewest FLOPs in all (ties: fewer bytes). For at most
// kMostOptimalOperands operands (6: 2,700 orders).
inline constexpr std::size_t kMostOptimalOperands = 6;
EinsumPath einsum_path_optimal(const EinsumNetwork& n, std::size_t element_bytes);
// The same search keeping the `count` cheapest paths, each a different set of steps,
// cheapest first: "optimal", "2nd by FLOPs", "3rd by FLOPs", ... (ties in FLOPs
// broken by bytes)
std::vector<EinsumPath> einsum_paths_cheapest(const EinsumNetwork& n, std::size_t element_bytes,
                                              std::size_t count);

// What `ridgeline einsum` runs for a network: the optimal path (greedy beyond six
// operands) and up to `runners_up` next cheapest ones that cost at most kRunnerUpFactor x
// its FLOPs and its bytes (a path with the same FLOPs may move fewer bytes), the greedy
// one, and the left-to-right one a framework takes, fewest FLOPs first, each once.
inline constexpr double kRunnerUpFactor = 10;
std::vector<EinsumPath> einsum_paths(const EinsumNetwork& n, std::size_t element_bytes,
                                     std::size_t runners_up = 2);

// "i=1000,j=10": the extents of a step's indices, in index order.
std::string step_extents(const EinsumNetwork& n, const std::string& step_equation);
// The einsum op's params of every step of `paths`, each once, in path order:
// `equation="ij,jk->ik"/extents="i=1000,j=10,k=1000"`.
std::vector<std::string> einsum_step_params(const EinsumNetwork& n,
                                            const std::vector<EinsumPath>& paths);

}  // namespace ridgeline
