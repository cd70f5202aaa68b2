#pragma once
// Reads fields of a JSON object and, when one is missing or of the wrong type, throws an
// InputError naming the file and the full path of the field. One reader over either parser's
// values: nlohmann's (every document) and simdjson's (a large run's rows, json_value_simd.hpp).
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "ridgeline/core/error.hpp"

namespace ridgeline::detail {

using JsonType = nlohmann::json::value_t;

// nlohmann's value as the field reader sees it. A value type Value for BasicJsonFields has
// the same members.
class NlohmannValue {
 public:
  NlohmannValue(const nlohmann::json& json) : json_(&json) {}  // NOLINT: a view of it
  JsonType type() const { return json_->type(); }
  const char* type_name() const { return json_->type_name(); }
  std::optional<NlohmannValue> find(const char* key) const {
    const auto it = json_->find(key);
    if (it == json_->end()) return std::nullopt;
    return NlohmannValue(*it);
  }
  std::string string() const { return json_->get<std::string>(); }
  double number() const { return json_->get<double>(); }
  std::int64_t integer() const { return json_->get<std::int64_t>(); }
  bool boolean() const { return json_->get<bool>(); }
  // f(std::string_view key, NlohmannValue value) for each member of an object.
  template <typename F>
  void each_member(F&& f) const {
    for (const auto& [key, value] : json_->items()) f(std::string_view(key), NlohmannValue(value));
  }
  // f(NlohmannValue element, std::size_t index) for each element of an array.
  template <typename F>
  void each_element(F&& f) const {
    for (std::size_t i = 0; i < json_->size(); ++i) f(NlohmannValue((*json_)[i]), i);
  }
  const nlohmann::json& raw() const { return *json_; }

 private:
  const nlohmann::json* json_;
};

inline bool is_number(JsonType t) {
  return t == JsonType::number_float || t == JsonType::number_integer ||
         t == JsonType::number_unsigned;
}

template <typename Value>
class BasicJsonFields {
 public:
  BasicJsonFields(Value json, const std::string& origin, std::string path)
      : json_(json), origin_(origin), path_(std::move(path)) {
    if (json_.type() != JsonType::object)
      fail_at(path_, fmt::format("expected an object, got {}", json_.type_name()));
  }

  [[noreturn]] void fail_at(const std::string& path, const std::string& what) const {
    throw InputError(fmt::format("{}: {}: {}", origin_, path.empty() ? "(top level)" : path, what));
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    fail_at(child(key), what);
  }
  std::string child(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
  }
  const std::string& origin() const { return origin_; }
  // One lookup each (find, not contains then at): every field of every row comes through here.
  bool has(const char* key) const {
    const auto v = json_.find(key);
    return v && v->type() != JsonType::null;
  }

  Value get(const char* key, JsonType type) const {
    const auto v = json_.find(key);
    if (!v) fail(key, "missing");
    const JsonType t = v->type();
    bool ok = t == type || (type == JsonType::number_float && is_number(t)) ||
              (type == JsonType::number_integer && t == JsonType::number_unsigned);
    if (!ok) fail(key, fmt::format("expected {}, got {}", type_label(type), v->type_name()));
    return *v;
  }

  std::string string(const char* key) const { return get(key, JsonType::string).string(); }
  // A finite number. NaN and infinities (Google Benchmark's literals) are refused here:
  // Ridgeline's own fields never hold them.
  double number(const char* key) const {
    const double v = measured(key);
    if (!std::isfinite(v)) fail(key, fmt::format("expected a finite number, got {}", v));
    return v;
  }
  // A number that may be NaN or infinite: a value Google Benchmark could not compute, kept
  // so that readers treat it as not measured.
  double measured(const char* key) const { return get(key, JsonType::number_float).number(); }
  std::int64_t integer(const char* key) const {
    return get(key, JsonType::number_integer).integer();
  }
  bool boolean(const char* key) const { return get(key, JsonType::boolean).boolean(); }
  std::string string_or(const char* key, std::string fallback) const {
    return has(key) ? string(key) : fallback;
  }
  double number_or(const char* key, double fallback) const {
    return has(key) ? number(key) : fallback;
  }
  double measured_or(const char* key, double fallback) const {
    return has(key) ? measured(key) : fallback;
  }
  std::int64_t integer_or(const char* key, std::int64_t fallback) const {
    return has(key) ? integer(key) : fallback;
  }
  bool boolean_or(const char* key, bool fallback) const {
    return has(key) ? boolean(key) : fallback;
  }
  // A word of a typed vocabulary (DType, Device, …) read by its `parse`; an unknown word
  // names the field.
  template <typename Enum>
  Enum word(const char* key, std::optional<Enum> (*parse)(std::string_view)) const {
    const std::string text = string(key);
    const auto value = parse(text);
    if (!value) fail(key, fmt::format("unknown value '{}'", text));
    return *value;
  }
  template <typename Enum>
  Enum word_or(const char* key, std::optional<Enum> (*parse)(std::string_view),
               Enum fallback) const {
    return has(key) ? word(key, parse) : fallback;
  }
  BasicJsonFields object(const char* key) const {
    return BasicJsonFields(get(key, JsonType::object), origin_, child(key));
  }
  // The array's own value: raw() for nlohmann's, or each_element() for any.
  Value array_value(const char* key) const { return get(key, JsonType::array); }
  decltype(auto) array(const char* key) const { return array_value(key).raw(); }
  Value value() const { return json_; }
  decltype(auto) raw() const { return json_.raw(); }
  const std::string& path() const { return path_; }

 private:
  static const char* type_label(JsonType type) {
    switch (type) {
      case JsonType::string:
        return "a string";
      case JsonType::number_float:
        return "a number";
      case JsonType::number_integer:
        return "an integer";
      case JsonType::boolean:
        return "true or false";
      case JsonType::object:
        return "an object";
      case JsonType::array:
        return "an array";
      default:
        return "a value";
    }
  }

  Value json_;
  std::string origin_;
  std::string path_;
};

using JsonFields = BasicJsonFields<NlohmannValue>;

}  // namespace ridgeline::detail
