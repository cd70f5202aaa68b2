// The params grammar of case names and the command line: "m=1024,n=1024/act=relu", items
// separated by ',' or '/', a free-form attribute's value in double quotes where it holds a
// separator ("equation=\"bthr,bThr->bhtT\""), '\' escaping '"' and '\' inside them.
#include <fmt/format.h>

#include <charconv>
#include <limits>

#include "op_specs.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/problem.hpp"

namespace ridgeline {

namespace {

constexpr std::string_view kNeedsQuotes = ",/=\"\\ \t\n\r";

struct Item {
  std::string name, value;
};

// The quoted value starting at text[start] (a '"'): the value unescaped, and the index past
// the closing quote; InputError (naming `who`) where it does not close.
std::pair<std::string, std::size_t> read_quoted(std::string_view who, std::string_view text,
                                                std::size_t start) {
  std::string value;
  for (std::size_t i = start + 1; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      value += text[++i];
    } else if (text[i] == '"') {
      return {value, i + 1};
    } else {
      value += text[i];
    }
  }
  throw InputError(fmt::format("{}: the quote opened in '{}' is not closed", who, text));
}

// "a=1,b=2/c=x" as name-value pairs; InputError (naming `who`) on an item that is not one.
std::vector<Item> split_params(std::string_view who, std::string_view text) {
  std::vector<Item> items;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t eq = text.find('=', start);
    const std::size_t sep = std::min(text.find_first_of(",/", start), text.size());
    if (sep == start) throw InputError(fmt::format("{}: an empty parameter in '{}'", who, text));
    if (eq == std::string_view::npos || eq > sep || eq == start)
      throw InputError(
          fmt::format("{}: '{}' is not name=value", who, text.substr(start, sep - start)));
    Item item{std::string(text.substr(start, eq - start)), ""};
    std::size_t end = 0;
    if (eq + 1 < text.size() && text[eq + 1] == '"') {
      std::tie(item.value, end) = read_quoted(who, text, eq + 1);
      if (end < text.size() && text[end] != ',' && text[end] != '/')
        throw InputError(
            fmt::format("{}: '{}' continues after its closing quote", who, text.substr(start)));
    } else {
      end = sep;
      item.value = std::string(text.substr(eq + 1, end - eq - 1));
      if (item.value.empty())
        throw InputError(
            fmt::format("{}: '{}' is not name=value", who, text.substr(start, end - start)));
    }
    items.push_back(std::move(item));
    start = end + 1;  // a separator at the very end is allowed, as before
  }
  return items;
}

bool declares(const OpDefinition& op, const std::string& name) {
  return detail::dim_spec(op, name) || detail::attr_spec(op, name);
}

// Sets one parameter: a dimension must be a whole number.
void assign(const OpDefinition& op, OpParams& params, const std::string& name,
            const std::string& value) {
  if (detail::attr_spec(op, name)) {
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

std::string quoted_param(std::string_view value) {
  if (!value.empty() && value.find_first_of(kNeedsQuotes) == std::string_view::npos)
    return std::string(value);
  std::string out = "\"";
  for (const char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string params_label(const OpDefinition& op, const OpParams& params) {
  std::vector<std::string> dims;
  // In the op's order; a parameter the problem lacks (a default-constructed one) is left out.
  for (const auto& d : op.dims) {
    const auto it = params.dims.find(d.name);
    if (it == params.dims.end() || (d.default_value && it->second == *d.default_value)) continue;
    dims.push_back(fmt::format("{}={}", d.name, it->second));
  }
  std::string label = fmt::format("{}", fmt::join(dims, ","));
  for (const auto& a : op.attrs) {
    const auto it = params.attrs.find(a.name);
    if (it == params.attrs.end()) continue;
    if (!label.empty()) label += '/';  // no leading separator when every dim is a default
    label += fmt::format("{}={}", a.name, quoted_param(it->second));
  }
  return label;
}

std::string params_label(const Problem& problem) {
  return params_label(op_definition(problem.op), problem.params);
}

OpParams parse_params(const OpDefinition& op, std::string_view text) {
  OpParams given;
  for (const auto& [name, value] : split_params(op.name, text)) {
    if (!declares(op, name))
      throw InputError(fmt::format("{}: unknown parameter '{}' (dimensions: {}; attributes: {})",
                                   op.name, name, detail::names_of(op.dims),
                                   detail::names_of(op.attrs)));
    assign(op, given, name, value);
  }
  return checked_params(op, given);
}

bool apply_params(Problem& problem, std::string_view overrides) {
  const OpDefinition& op = op_definition(problem.op);
  const auto items = split_params(problem.op, overrides);
  for (const auto& [name, value] : items)
    if (!declares(op, name)) return false;
  OpParams changed = problem.params;
  for (const auto& [name, value] : items) assign(op, changed, name, value);
  problem.params = checked_params(op, changed);
  return true;
}

}  // namespace ridgeline
