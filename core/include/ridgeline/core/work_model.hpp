#pragma once
#include <map>
#include <string>

#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

// The analytic work a kernel must do: FLOPs, and the bytes each memory level must move at
// least (compulsory traffic: every operand read once, the output written once; a collective's
// network bytes). Each op defines its own (core/op.hpp: op_work).
struct WorkModel {
  double flops = 0;
  std::map<MemoryLevel, double> bytes;  // level (main memory, the network, ...) -> bytes
  // Levels a Run file names that the vocabulary does not spell (parse_byte_level), kept as
  // named so that the Run is written back as it was read; nothing places them.
  std::map<std::string, double> unknown_bytes;
  // The bytes at `level`; 0 where the model has none.
  double bytes_at(MemoryLevel level) const {
    const auto it = bytes.find(level);
    return it == bytes.end() ? 0.0 : it->second;
  }
  bool operator==(const WorkModel&) const = default;
};

}  // namespace ridgeline
