#pragma once
// simdjson's DOM value as the field reader (json_fields.hpp) sees it: the same members as
// NlohmannValue. Only built with RIDGELINE_WITH_SIMDJSON.
#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "json_fields.hpp"

namespace ridgeline::detail {

class SimdValue {
 public:
  explicit SimdValue(simdjson::dom::element element) : element_(element) {}
  JsonType type() const {
    switch (element_.type()) {
      case simdjson::dom::element_type::ARRAY:
        return JsonType::array;
      case simdjson::dom::element_type::OBJECT:
        return JsonType::object;
      case simdjson::dom::element_type::INT64:
        return JsonType::number_integer;
      case simdjson::dom::element_type::UINT64:
        return JsonType::number_unsigned;
      case simdjson::dom::element_type::DOUBLE:
        return JsonType::number_float;
      case simdjson::dom::element_type::STRING:
        return JsonType::string;
      case simdjson::dom::element_type::BOOL:
        return JsonType::boolean;
      case simdjson::dom::element_type::NULL_VALUE:
        return JsonType::null;
    }
    return JsonType::discarded;
  }
  // nlohmann's own names, so that messages read the same whichever parser read the value.
  const char* type_name() const { return nlohmann::json(type()).type_name(); }
  // The first of duplicate keys, as the other reader keeps it (json_file.hpp); the fast
  // path leaves a row with any to that reader, which notes them.
  std::optional<SimdValue> find(const char* key) const {
    const std::string_view wanted(key);
    for (auto field : object())
      if (field.key == wanted) return SimdValue(field.value);
    return std::nullopt;
  }
  std::string string() const { return std::string(value(element_.get_string())); }
  double number() const { return value(element_.get_double()); }
  std::int64_t integer() const {
    if (element_.type() == simdjson::dom::element_type::UINT64)
      return static_cast<std::int64_t>(value(element_.get_uint64()));
    return value(element_.get_int64());
  }
  bool boolean() const { return value(element_.get_bool()); }
  template <typename F>
  void each_member(F&& f) const {
    for (auto field : object()) f(field.key, SimdValue(field.value));
  }
  template <typename F>
  void each_element(F&& f) const {
    std::size_t i = 0;
    const simdjson::dom::array elements = value(element_.get_array());
    for (auto e : elements) f(SimdValue(e), i++);
  }
  simdjson::dom::element raw() const { return element_; }

 private:
  simdjson::dom::object object() const { return value(element_.get_object()); }
  // The field reader checks types before reading a value; a failure here is a bug.
  template <typename T>
  static T value(simdjson::simdjson_result<T> r) {
    T v{};
    if (std::move(r).get(v) != simdjson::SUCCESS)
      throw std::logic_error("simdjson: a value of another type");
    return v;
  }
  simdjson::dom::element element_;
};

}  // namespace ridgeline::detail
