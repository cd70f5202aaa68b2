#pragma once
// The one JSON reader: every document Ridgeline reads (a Run, its journal, a machine model,
// Google Benchmark's own output, a cache) goes through it.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline {

// How deep arrays and objects may nest in a document read: a hostile file of ten million '['
// is refused at this depth, naming it, instead of costing gigabytes.
inline constexpr std::size_t kMaxJsonDepth = 128;

// Keys given more than once in one object. JSON leaves their meaning open, and Google
// Benchmark writes them: a user counter named "real_time" or "iterations", or custom
// context named like its own, follows its own field of that name, unchecked (fixture
// gbench-1.7.1-counter-clash.json). A reader given this keeps the first value, the
// library's own (nlohmann and Python's json would keep the user's), and collects the keys
// for a note; one not given it refuses the file, naming the first.
struct DuplicateKeys {
  std::vector<std::string> first;  // the paths of the first few ("benchmarks[3].real_time")
  std::size_t count = 0;
  // "ORIGIN: a key is given twice in one object (benchmarks[3].real_time): …", or "".
  std::string note(const std::string& origin) const;
};

// Parses a JSON file; an unreadable, truncated or malformed file is an InputError naming
// the file and the byte where parsing stopped, a number too large for a double names the
// field, and so does a key given twice in one object and a value nested deeper than
// kMaxJsonDepth. Accepts what Google Benchmark writes
// beyond strict JSON: `NaN`, `-NaN`,
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
// characters rewritten. Errors as read_json_file's, but for duplicate keys where `duplicates`
// is given: they are collected there. The sink's own key given twice is an error: its two
// arrays would both be handed on.
nlohmann::json parse_json_file(const std::filesystem::path& file, const JsonArraySink* sink,
                               DuplicateKeys* duplicates = nullptr);

// The same for text already in memory; `origin` names it in errors. With `sink`, the
// elements of its array are handed to it as they are read.
nlohmann::json parse_json_text(std::string_view text, const std::string& origin,
                               const JsonArraySink* sink = nullptr,
                               DuplicateKeys* duplicates = nullptr);

}  // namespace ridgeline
