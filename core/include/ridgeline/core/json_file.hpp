#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>

namespace ridgeline {

// Parses a JSON file; an unreadable, truncated or malformed file is an InputError naming
// the file and the byte where parsing stopped.
nlohmann::json read_json_file(const std::filesystem::path& file);

}  // namespace ridgeline
