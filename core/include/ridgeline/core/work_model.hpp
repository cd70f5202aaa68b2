#pragma once
#include <map>
#include <string>

#include "ridgeline/core/problem.hpp"

namespace ridgeline {

// The analytic work a kernel must do: FLOPs, and the bytes each memory level must move at
// least (compulsory traffic: every operand read once, the output written once).
struct WorkModel {
  double flops = 0;
  std::map<std::string, double> bytes;  // memory level ("dram", ...) -> bytes
  bool operator==(const WorkModel&) const = default;
};

// 2*m*n*k*batch FLOPs; DRAM bytes (m*k + k*n + m*n) * size * batch.
WorkModel gemm_work(const Problem& problem);

}  // namespace ridgeline
