#include "ridgeline/core/op.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>

#include "op_specs.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/problem.hpp"
#include "ridgeline/core/spelling.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

std::int64_t OpParams::dim(std::string_view name) const {
  const auto it = dims.find(std::string(name));
  if (it == dims.end()) throw std::logic_error(fmt::format("no dimension '{}'", name));
  return it->second;
}

const std::string& OpParams::attr(std::string_view name) const {
  const auto it = attrs.find(std::string(name));
  if (it == attrs.end()) throw std::logic_error(fmt::format("no attribute '{}'", name));
  return it->second;
}

namespace {

constexpr Spelling<OperandRole> kOperandRoles[] = {
    {OperandRole::input, "input", {}},
    {OperandRole::weight, "weight", {}},
    {OperandRole::output, "output", {}},
};
static_assert(spelled_in_order(kOperandRoles, OperandRole::output));

}  // namespace

std::string_view to_string(OperandRole role) {
  return spelling_of(kOperandRoles, role).json;
}

const OpDefinition* find_op(std::string_view name) {
  for (const auto& op : op_registry())
    if (op.name == name) return &op;
  return nullptr;
}

const OpDefinition& op_definition(std::string_view name) {
  if (const OpDefinition* op = find_op(name)) return *op;
  std::vector<std::string> known;
  for (const auto& op : op_registry()) known.push_back(op.name);
  throw InputError(fmt::format("unknown op '{}' (known: {})", name, fmt::join(known, ", ")));
}

OpParams checked_params(const OpDefinition& op, const OpParams& given) {
  using detail::attr_spec, detail::dim_spec, detail::names_of;
  OpParams out;
  for (const auto& [name, value] : given.dims) {
    const DimSpec* spec = dim_spec(op, name);
    if (!spec)
      throw InputError(fmt::format("{}: unknown dimension '{}' (its dimensions: {})", op.name, name,
                                   names_of(op.dims)));
    if (value < spec->min)
      throw InputError(
          fmt::format("{}: {}={} is below its minimum of {}", op.name, name, value, spec->min));
    if (spec->max && value > *spec->max)
      throw InputError(
          fmt::format("{}: {}={} is above its maximum of {}", op.name, name, value, *spec->max));
  }
  for (const auto& d : op.dims) {
    const auto it = given.dims.find(d.name);
    if (it != given.dims.end())
      out.dims[d.name] = it->second;
    else if (d.default_value)
      out.dims[d.name] = *d.default_value;
    else
      throw InputError(
          fmt::format("{}: dimension '{}' is missing ({})", op.name, d.name, d.meaning));
  }
  for (const auto& [name, value] : given.attrs) {
    const AttrSpec* spec = attr_spec(op, name);
    if (!spec)
      throw InputError(fmt::format("{}: unknown attribute '{}' (its attributes: {})", op.name, name,
                                   names_of(op.attrs)));
    if (spec->free_form()) {
      if (const std::string why = spec->check(value); !why.empty())
        throw InputError(fmt::format("{}: {}={}: {}", op.name, name, quoted_param(value), why));
    } else if (std::find(spec->values.begin(), spec->values.end(), value) == spec->values.end()) {
      throw InputError(fmt::format("{}: {}={} is not one of {}", op.name, name, value,
                                   fmt::join(spec->values, ", ")));
    }
  }
  for (const auto& a : op.attrs) {
    const auto it = given.attrs.find(a.name);
    if (it != given.attrs.end())
      out.attrs[a.name] = it->second;
    else if (!a.values.empty())
      out.attrs[a.name] = a.values.front();
    else
      throw InputError(
          fmt::format("{}: attribute '{}' is missing ({})", op.name, a.name, a.meaning));
  }
  if (op.consistent)
    if (const std::string why = op.consistent(out); !why.empty())
      throw InputError(fmt::format("{}: {}", op.name, why));
  return out;
}

Problem example_problem(const OpDefinition& op, DType dtype) {
  Problem p;
  p.op = op.name;
  p.params = parse_params(op, op.example);
  p.dtype = dtype;
  return p;
}

WorkModel op_work(const Problem& problem) {
  return op_definition(problem.op).work(problem);
}

std::vector<PassWork> op_unfused_passes(const Problem& problem) {
  const OpDefinition& op = op_definition(problem.op);
  return op.unfused_passes ? op.unfused_passes(problem) : std::vector<PassWork>{};
}

WorkModel op_unfused_work(const Problem& problem) {
  WorkModel w = op_work(problem);
  const std::vector<PassWork> passes = op_unfused_passes(problem);
  if (passes.empty()) return w;
  w.bytes.clear();
  for (const auto& pass : passes)
    for (const auto& [level, bytes] : pass.work.bytes) w.bytes[level] += bytes;
  return w;
}

WorkModel role_work(const Problem& problem, KernelRole role) {
  return role == KernelRole::unfused ? op_unfused_work(problem) : op_work(problem);
}

double op_unfused_footprint(const Problem& problem) {
  double bytes = op_work(problem).bytes_at(MemoryLevel::main);
  for (const auto& pass : op_unfused_passes(problem))
    bytes = std::max(bytes, pass.work.bytes_at(MemoryLevel::main) / 2);
  return bytes;
}

std::string pass_time_metric(std::size_t index, const std::string& pass) {
  return fmt::format("pass_time.{}.{}", index + 1, pass);
}

std::string pass_bytes_metric(std::size_t index, const std::string& pass) {
  return fmt::format("pass_bytes.{}.{}", index + 1, pass);
}

std::string pass_flops_metric(std::size_t index, const std::string& pass) {
  return fmt::format("pass_flops.{}.{}", index + 1, pass);
}

std::uint64_t operand_bytes(const Problem& problem) {
  std::uint64_t bytes = 0;
  for (const auto& o : op_definition(problem.op).operands(problem))
    bytes += static_cast<std::uint64_t>(o.elements) * size_of(o.dtype);
  return bytes;
}

}  // namespace ridgeline
