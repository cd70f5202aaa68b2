#include "ridgeline/core/op.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/problem.hpp"

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

std::string_view to_string(OperandRole role) {
  switch (role) {
    case OperandRole::input:
      return "input";
    case OperandRole::weight:
      return "weight";
    case OperandRole::output:
      return "output";
  }
  return "?";
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

namespace {

const DimSpec* dim_spec(const OpDefinition& op, const std::string& name) {
  for (const auto& d : op.dims)
    if (d.name == name) return &d;
  return nullptr;
}

const AttrSpec* attr_spec(const OpDefinition& op, const std::string& name) {
  for (const auto& a : op.attrs)
    if (a.name == name) return &a;
  return nullptr;
}

template <typename Spec>
std::string names_of(const std::vector<Spec>& specs) {
  std::vector<std::string> names;
  for (const auto& s : specs) names.push_back(s.name);
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

OpParams checked_params(const OpDefinition& op, const OpParams& given) {
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
    if (std::find(spec->values.begin(), spec->values.end(), value) == spec->values.end())
      throw InputError(fmt::format("{}: {}={} is not one of {}", op.name, name, value,
                                   fmt::join(spec->values, ", ")));
  }
  for (const auto& a : op.attrs) {
    const auto it = given.attrs.find(a.name);
    out.attrs[a.name] = it != given.attrs.end() ? it->second : a.values.front();
  }
  return out;
}

std::string params_label(const Problem& problem) {
  const OpDefinition& op = op_definition(problem.op);
  std::vector<std::string> dims;
  // In the op's order; a parameter the problem lacks (a default-constructed one) is left out.
  for (const auto& d : op.dims) {
    const auto it = problem.params.dims.find(d.name);
    if (it == problem.params.dims.end() || (d.default_value && it->second == *d.default_value))
      continue;
    dims.push_back(fmt::format("{}={}", d.name, it->second));
  }
  std::string label = fmt::format("{}", fmt::join(dims, ","));
  for (const auto& a : op.attrs) {
    const auto it = problem.params.attrs.find(a.name);
    if (it != problem.params.attrs.end()) label += fmt::format("/{}={}", a.name, it->second);
  }
  return label;
}

namespace {

// "a=1,b=2/c=x" as name-value pairs; InputError (naming `who`) on an item that is not one.
std::vector<std::pair<std::string, std::string>> split_params(std::string_view who,
                                                              std::string_view text) {
  std::vector<std::pair<std::string, std::string>> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find_first_of(",/", start), text.size());
    const std::string_view item = text.substr(start, end - start);
    start = end + 1;
    if (item.empty()) {
      if (end == text.size()) break;
      throw InputError(fmt::format("{}: an empty parameter in '{}'", who, text));
    }
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      throw InputError(fmt::format("{}: '{}' is not name=value", who, item));
    items.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return items;
}

bool declares_dim(const OpDefinition& op, const std::string& name) {
  return dim_spec(op, name) != nullptr;
}

bool declares_attr(const OpDefinition& op, const std::string& name) {
  return attr_spec(op, name) != nullptr;
}

// Sets one parameter: a dimension must be a whole number.
void assign(const OpDefinition& op, OpParams& params, const std::string& name,
            const std::string& value) {
  if (declares_attr(op, name)) {
    params.attrs[name] = value;
    return;
  }
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec == std::errc::result_out_of_range && ptr == value.data() + value.size())
    throw InputError(fmt::format("{}: {}={} is too large (a dimension is at most {})", op.name,
                                 name, value, std::numeric_limits<std::int64_t>::max()));
  if (ec != std::errc() || ptr != value.data() + value.size())
    throw InputError(fmt::format("{}: {}={} is not a whole number", op.name, name, value));
  params.dims[name] = v;
}

}  // namespace

OpParams parse_params(const OpDefinition& op, std::string_view text) {
  OpParams given;
  for (const auto& [name, value] : split_params(op.name, text)) {
    if (!declares_dim(op, name) && !declares_attr(op, name))
      throw InputError(fmt::format("{}: unknown parameter '{}' (dimensions: {}; attributes: {})",
                                   op.name, name, names_of(op.dims), names_of(op.attrs)));
    assign(op, given, name, value);
  }
  return checked_params(op, given);
}

bool apply_params(Problem& problem, std::string_view overrides) {
  const OpDefinition& op = op_definition(problem.op);
  const auto items = split_params(problem.op, overrides);
  for (const auto& [name, value] : items)
    if (!declares_dim(op, name) && !declares_attr(op, name)) return false;
  OpParams changed = problem.params;
  for (const auto& [name, value] : items) assign(op, changed, name, value);
  problem.params = checked_params(op, changed);
  return true;
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

double op_unfused_footprint(const Problem& problem) {
  const auto dram = [](const WorkModel& w) {
    const auto it = w.bytes.find("dram");
    return it == w.bytes.end() ? 0.0 : it->second;
  };
  double bytes = dram(op_work(problem));
  for (const auto& pass : op_unfused_passes(problem)) bytes = std::max(bytes, dram(pass.work) / 2);
  return bytes;
}

std::string pass_time_metric(std::size_t index, const std::string& pass) {
  return fmt::format("pass_time.{}.{}", index + 1, pass);
}

std::uint64_t operand_bytes(const Problem& problem) {
  std::uint64_t bytes = 0;
  for (const auto& o : op_definition(problem.op).operands(problem))
    bytes += static_cast<std::uint64_t>(o.elements) * size_of(o.dtype);
  return bytes;
}

}  // namespace ridgeline
