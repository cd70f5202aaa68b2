#pragma once
// The one JSON reader: every document Ridgeline reads (a Run, its journal, a machine model,
// Google Benchmark's own output, a cache) goes through it.
#include <cstddef>
#include <filesystem>
#include <functional>
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

// Where the elements of one top-level array go as each is read, instead of into the
// document: a Run of 100,000 rows never holds them all as JSON at once. The array stays in
// the document, empty; errors inside an element still name it ("benchmarks[7].name").
struct JsonArraySink {
  std::string key;  // the top-level object's key whose array is streamed
  std::function<void(nlohmann::json&& element, std::size_t index)> take;
};

// A file parsed as it is read, its elements of `sink`'s array handed on: the text is never
// in memory whole unless it needs Google Benchmark's non-finite literals or control
// characters rewritten. Errors as read_json_file's.
nlohmann::json parse_json_file(const std::filesystem::path& file, const JsonArraySink* sink);

// The same for text already in memory; `origin` names it in errors. With `sink`, the
// elements of its array are handed to it as they are read.
nlohmann::json parse_json_text(std::string_view text, const std::string& origin,
                               const JsonArraySink* sink = nullptr);

}  // namespace ridgeline
