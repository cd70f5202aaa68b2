#pragma once
// Lookups in an op's definition shared by op.cpp (checking params) and op_params.cpp (the
// params grammar).
#include <fmt/format.h>

#include <string>
#include <vector>

#include "ridgeline/core/op.hpp"

namespace ridgeline::detail {

inline const DimSpec* dim_spec(const OpDefinition& op, const std::string& name) {
  for (const auto& d : op.dims)
    if (d.name == name) return &d;
  return nullptr;
}

inline const AttrSpec* attr_spec(const OpDefinition& op, const std::string& name) {
  for (const auto& a : op.attrs)
    if (a.name == name) return &a;
  return nullptr;
}

// "m, n, k", or "none".
template <typename Spec>
std::string names_of(const std::vector<Spec>& specs) {
  std::vector<std::string> names;
  for (const auto& s : specs) names.push_back(s.name);
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace ridgeline::detail
