#pragma once
#include <map>
#include <string>

namespace ridgeline {

// The analytic work a kernel must do: FLOPs, and the bytes each memory level must move at
// least (compulsory traffic: every operand read once, the output written once). Each op
// defines its own (core/op.hpp: op_work).
struct WorkModel {
  double flops = 0;
  std::map<std::string, double> bytes;  // memory level (kMainMemory "dram", ...) -> bytes
  bool operator==(const WorkModel&) const = default;
};

}  // namespace ridgeline
