#pragma once
// The one JSON reader: every document Ridgeline reads (a Run, its journal, a machine model,
// Google Benchmark's own output, a cache) goes through it.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ridgeline {

// Parses a JSON file; an unreadable, truncated or malformed file is an InputError naming
// the file and the byte where parsing stopped, a number too large for a double names the
// field. Accepts what Google Benchmark writes beyond strict JSON: `NaN`, `-NaN`,
// `Infinity` and `-Infinity` (kept as non-finite doubles: values it could not compute)
// and raw control characters inside strings.
nlohmann::json read_json_file(const std::filesystem::path& file);

// The same for text already in memory; `origin` names it in errors.
nlohmann::json parse_json_text(std::string_view text, const std::string& origin);

}  // namespace ridgeline
