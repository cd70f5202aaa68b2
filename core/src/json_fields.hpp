#pragma once
// Reads fields of a JSON object and, when one is missing or of the wrong type, throws an
// InputError naming the file and the full path of the field.
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "ridgeline/core/error.hpp"

namespace ridgeline::detail {

class JsonFields {
 public:
  JsonFields(const nlohmann::json& json, const std::string& origin, std::string path)
      : json_(json), origin_(origin), path_(std::move(path)) {
    if (!json_.is_object())
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
    const auto it = json_.find(key);
    return it != json_.end() && !it->is_null();
  }

  const nlohmann::json& get(const char* key, nlohmann::json::value_t type) const {
    const auto it = json_.find(key);
    if (it == json_.end()) fail(key, "missing");
    const auto& v = *it;
    bool ok = v.type() == type ||
              (type == nlohmann::json::value_t::number_float && v.is_number()) ||
              (type == nlohmann::json::value_t::number_integer && v.is_number_integer());
    if (!ok) fail(key, fmt::format("expected {}, got {}", type_label(type), v.type_name()));
    return v;
  }

  std::string string(const char* key) const {
    return get(key, nlohmann::json::value_t::string).get<std::string>();
  }
  // A finite number. NaN and infinities (Google Benchmark's literals) are refused here:
  // Ridgeline's own fields never hold them.
  double number(const char* key) const {
    const double v = measured(key);
    if (!std::isfinite(v)) fail(key, fmt::format("expected a finite number, got {}", v));
    return v;
  }
  // A number that may be NaN or infinite: a value Google Benchmark could not compute, kept
  // so that readers treat it as not measured.
  double measured(const char* key) const {
    return get(key, nlohmann::json::value_t::number_float).get<double>();
  }
  std::int64_t integer(const char* key) const {
    return get(key, nlohmann::json::value_t::number_integer).get<std::int64_t>();
  }
  bool boolean(const char* key) const {
    return get(key, nlohmann::json::value_t::boolean).get<bool>();
  }
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
  JsonFields object(const char* key) const {
    return JsonFields(get(key, nlohmann::json::value_t::object), origin_, child(key));
  }
  const nlohmann::json& array(const char* key) const {
    return get(key, nlohmann::json::value_t::array);
  }
  const nlohmann::json& raw() const { return json_; }
  const std::string& path() const { return path_; }

 private:
  static const char* type_label(nlohmann::json::value_t type) {
    switch (type) {
      case nlohmann::json::value_t::string:
        return "a string";
      case nlohmann::json::value_t::number_float:
        return "a number";
      case nlohmann::json::value_t::number_integer:
        return "an integer";
      case nlohmann::json::value_t::boolean:
        return "true or false";
      case nlohmann::json::value_t::object:
        return "an object";
      case nlohmann::json::value_t::array:
        return "an array";
      default:
        return "a value";
    }
  }

  const nlohmann::json& json_;
  std::string origin_;
  std::string path_;
};

}  // namespace ridgeline::detail
