// The one JSON reader. Strict JSON through nlohmann's SAX parser, after a pass that
// rewrites what Google Benchmark writes beyond it; the handler builds the document and
// knows the path of the value being read, so an error can name the field.
#include "ridgeline/core/json_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <vector>

#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"

namespace ridgeline {

using nlohmann::json;

namespace {

// Strict JSON for nlohmann: each non-finite literal becomes `marker` (a number that does
// not occur in the text), its value kept in `nonfinite` in document order; each raw
// control character inside a string becomes a \u00XX escape. `shifts` maps a position in
// `text` back to the original: (position in `text` after a rewrite, growth so far).
struct Relaxed {
  std::string text;
  std::string marker = "0e-0";
  std::vector<double> nonfinite;
  std::vector<std::pair<std::size_t, long long>> shifts;

  std::size_t original_position(std::size_t position) const {
    long long growth = 0;
    for (const auto& [at, g] : shifts)
      if (at <= position) growth = g;
    return static_cast<std::size_t>(static_cast<long long>(position) - growth);
  }
};

// Whether `in` is strict JSON as far as relax() is concerned: no non-finite literal and no
// control character but the line breaks between values (what our writer and Google
// Benchmark write). Then the text is parsed as it is, not copied.
bool nothing_to_relax(std::string_view in) {
  for (std::string_view literal : {"NaN", "Infinity"})
    if (in.find(literal) != std::string_view::npos) return false;
  // Branch-free so that the compiler vectorises it: every byte of a large run passes here.
  unsigned char control = 0;
  for (const char ch : in) {
    const auto c = static_cast<unsigned char>(ch);
    control |= static_cast<unsigned char>((c < 0x20) & (c != '\n') & (c != '\r'));
  }
  return control == 0;
}

Relaxed relax(std::string_view in) {
  Relaxed r;
  while (in.find(r.marker) != std::string_view::npos) r.marker += '0';
  static constexpr std::pair<std::string_view, double> kLiterals[] = {
      {"-Infinity", -std::numeric_limits<double>::infinity()},
      {"Infinity", std::numeric_limits<double>::infinity()},
      {"-NaN", std::numeric_limits<double>::quiet_NaN()},
      {"NaN", std::numeric_limits<double>::quiet_NaN()}};
  r.text.reserve(in.size());
  long long growth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (in_string) {
      if (c == '\\' && i + 1 < in.size()) {
        r.text += c;
        r.text += in[++i];
      } else if (static_cast<unsigned char>(c) < 0x20) {
        r.text += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        growth += 5;
        r.shifts.emplace_back(r.text.size(), growth);
      } else {
        r.text += c;
        in_string = c != '"';
      }
      continue;
    }
    bool replaced = false;
    for (const auto& [literal, value] : kLiterals)
      if (in.substr(i, literal.size()) == literal) {
        r.text += r.marker;
        r.nonfinite.push_back(value);
        growth += static_cast<long long>(r.marker.size()) - static_cast<long long>(literal.size());
        r.shifts.emplace_back(r.text.size(), growth);
        i += literal.size() - 1;
        replaced = true;
        break;
      }
    if (replaced) continue;
    in_string = c == '"';
    r.text += c;
  }
  return r;
}

// Builds the document (nlohmann's SAX interface) and keeps the path of the open values.
class Builder {
 public:
  Builder(const Relaxed& relaxed, const JsonArraySink* sink, DuplicateKeys* duplicates)
      : relaxed_(relaxed), sink_(sink), duplicates_(duplicates) {}

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(json::number_integer_t v) { return put(v); }
  bool number_unsigned(json::number_unsigned_t v) { return put(v); }
  bool number_float(json::number_float_t v, const std::string& token) {
    if (token == relaxed_.marker && next_ < relaxed_.nonfinite.size())
      v = relaxed_.nonfinite[next_++];
    return put(v);
  }
  bool string(std::string& s) { return put(std::move(s)); }
  bool binary(json::binary_t& b) { return put(json::binary(std::move(b))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool key(std::string& k) {
    Open& top = open_.back();
    drop_discarded(top);
    const bool again = top.value->contains(k);
    top.key = k;
    if (!again) return true;
    if (!duplicates_ || (sink_ && open_.size() == 1 && k == sink_->key)) {
      duplicate_ = path();
      return false;  // refused: fail_to_parse names it
    }
    if (duplicates_->first.size() < 3) duplicates_->first.push_back(path());
    ++duplicates_->count;
    // The first is kept: the value is built under a key the object lacks, then dropped.
    top.discard = std::string(1, '\0') + k;
    while (top.value->contains(top.discard)) top.discard += '\0';
    return true;
  }
  bool end_object() {
    drop_discarded(open_.back());
    return close();
  }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& e) {
    error_position_ = position;
    error_token_ = token;
    overflow_ = e.id == 406;  // out_of_range: a number too large for a double
    // What is wrong inside a string (ill-formed UTF-8, a lone surrogate, a raw control
    // character): nlohmann's words after "- ", up to what it last read.
    const std::string_view what = e.what();
    if (const auto at = what.find("invalid string: "); at != std::string_view::npos)
      string_error_ = std::string(what.substr(at + 16, what.find("; last read", at) - at - 16));
    return false;
  }

  json& document() { return root_; }
  std::size_t error_position() const { return error_position_; }
  const std::string& error_token() const { return error_token_; }
  const std::string& string_error() const { return string_error_; }
  const std::string& duplicate() const { return duplicate_; }
  bool overflow() const { return overflow_; }
  const std::string& too_deep() const { return too_deep_; }
  // The field being read: "benchmarks[3].real_time". An open array's last element is the
  // open value inside it, except in the innermost, whose next element is being read.
  std::string path() const {
    std::string p;
    for (std::size_t i = 0; i < open_.size(); ++i) {
      const json& v = *open_[i].value;
      const std::size_t before = streaming(i) ? streamed_ : 0;  // elements handed on
      if (v.is_array())
        p += fmt::format("[{}]", before + (i + 1 < open_.size() ? v.size() - 1 : v.size()));
      else
        p += (p.empty() ? "" : ".") + open_[i].key;
    }
    return p;
  }

 private:
  struct Open {
    json* value;
    std::string key;      // the member being read (its path)
    std::string discard;  // where a second value of `key` is built, to be dropped ("": none)
  };
  static void drop_discarded(Open& o) {
    if (o.discard.empty()) return;
    o.value->erase(o.discard);
    o.discard.clear();
  }
  json* place(json&& v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Open& top = open_.back();
    if (top.value->is_array()) {
      top.value->push_back(std::move(v));
      return &top.value->back();
    }
    json& slot = (*top.value)[top.discard.empty() ? top.key : top.discard];
    slot = std::move(v);
    return &slot;
  }
  // Whether open_[i] is the sink's array: the top-level object's value under its key.
  bool streaming(std::size_t i) const {
    return sink_ && i == 1 && open_[0].value->is_object() && open_[1].value->is_array() &&
           open_[0].key == sink_->key;
  }
  // An element of the sink's array is complete: hand it on.
  void hand_on() {
    if (open_.size() != 2 || !streaming(1)) return;
    json& array = *open_[1].value;
    sink_->take(std::move(array.back()), streamed_++);
    array.erase(array.size() - 1);
  }
  bool put(json&& v) {
    place(std::move(v));
    hand_on();
    return true;
  }
  bool open(json&& container) {
    // Each open level costs memory here and in the document: a file of ten million '['
    // would cost gigabytes before anything could refuse it.
    if (open_.size() >= kMaxJsonDepth) {
      too_deep_ = path();
      if (too_deep_.empty()) too_deep_ = "(top level)";
      return false;  // refused: fail_to_parse names it
    }
    open_.push_back({place(std::move(container)), "", ""});
    return true;
  }
  bool close() {
    open_.pop_back();
    hand_on();
    return true;
  }

  const Relaxed& relaxed_;
  const JsonArraySink* sink_;
  DuplicateKeys* duplicates_;
  std::string duplicate_;     // the path of a key given twice where that is refused
  std::string too_deep_;      // the path of the value opened beyond kMaxJsonDepth
  std::size_t streamed_ = 0;  // elements of the sink's array handed on so far
  std::size_t next_ = 0;
  json root_;
  std::vector<Open> open_;
  std::size_t error_position_ = 0;
  std::string error_token_;
  std::string string_error_;
  bool overflow_ = false;
};

// What to do when a file is Google Benchmark's other output formats.
std::string other_format_hint(std::string_view text) {
  const std::string_view head = text.substr(0, 4096);
  const char* what = nullptr;
  if (head.find("name,iterations,real_time,cpu_time") != std::string_view::npos)
    what = "CSV";
  else if (head.find("Run on (") != std::string_view::npos ||
           (head.find("Benchmark") != std::string_view::npos &&
            head.find("Iterations") != std::string_view::npos))
    what = "console";
  if (!what) return "";
  return fmt::format(
      "; this is Google Benchmark's {} output: re-run with --benchmark_out=FILE "
      "--benchmark_out_format=json (or --benchmark_format=json for standard output)",
      what);
}

// The error of a parse that stopped at `byte` of the original text.
[[noreturn]] void fail_to_parse(const Builder& builder, std::size_t byte, bool truncated,
                                std::string_view head, const std::string& origin) {
  if (!builder.duplicate().empty())
    throw InputError(fmt::format("{}: {}: key given twice in one object (which value is meant?)",
                                 origin, builder.duplicate()));
  if (!builder.too_deep().empty()) {
    // The path is a long run of "[0]": its start says where, the depth says what.
    std::string where = builder.too_deep();
    if (const std::size_t cut = where.find_last_of("[.", 60);
        where.size() > 60 && cut != std::string::npos && cut > 0)
      where = where.substr(0, cut) + "...";
    throw InputError(
        fmt::format("{}: {}: arrays and objects nested more than {} deep (Ridgeline's and Google "
                    "Benchmark's documents nest fewer than 10)",
                    origin, where, kMaxJsonDepth));
  }
  if (builder.overflow()) {
    const std::string path = builder.path();
    throw InputError(fmt::format("{}: {}: number {} is too large for a double", origin,
                                 path.empty() ? "(top level)" : path, builder.error_token()));
  }
  if (!truncated && !builder.string_error().empty()) {
    const std::string path = builder.path();
    throw InputError(fmt::format("{}: not valid JSON at byte {}{}: a string with {}", origin, byte,
                                 path.empty() ? "" : " (" + path + ")", builder.string_error()));
  }
  throw InputError(fmt::format("{}: {} at byte {}{}", origin,
                               truncated ? "unexpected end of file (truncated?)" : "not valid JSON",
                               byte, truncated ? "" : other_format_hint(head)));
}

}  // namespace

json parse_json_text(std::string_view text, const std::string& origin, const JsonArraySink* sink,
                     DuplicateKeys* duplicates) {
  Relaxed relaxed;
  const bool strict = nothing_to_relax(text);
  if (!strict) relaxed = relax(text);
  Builder builder(relaxed, sink, duplicates);
  if (strict ? json::sax_parse(text, &builder) : json::sax_parse(relaxed.text, &builder))
    return std::move(builder.document());
  fail_to_parse(
      builder,
      strict ? builder.error_position() : relaxed.original_position(builder.error_position()),
      builder.error_position() >= (strict ? text.size() : relaxed.text.size()), text, origin);
}

namespace {

// A file read in chunks: whether it is strict JSON as nothing_to_relax() sees it, its size
// and its first 4 KiB (for other_format_hint). A literal split between two chunks is seen
// through the last bytes of the one before.
struct FileScan {
  bool strict = true;
  std::size_t size = 0;
  std::string head;
};

FileScan scan_file(const std::filesystem::path& file) {
  constexpr std::size_t kChunk = std::size_t{1} << 20, kCarried = 8;
  std::ifstream in = open_text_file(file);
  FileScan scan;
  std::string chunk(kCarried + kChunk, '\0');
  std::size_t carried = 0;  // the previous chunk's last bytes, at the front
  while (in.read(chunk.data() + carried, static_cast<std::streamsize>(kChunk)) || in.gcount() > 0) {
    const auto n = static_cast<std::size_t>(in.gcount());
    if (scan.head.size() < 4096)
      scan.head.append(chunk.data() + carried, std::min(n, 4096 - scan.head.size()));
    scan.size += n;
    if (!nothing_to_relax(std::string_view(chunk.data(), carried + n))) {
      scan.strict = false;
      break;  // the whole file goes to the rewriting reader: nothing more to learn
    }
    const std::size_t keep = std::min(carried + n, kCarried);
    std::memmove(chunk.data(), chunk.data() + carried + n - keep, keep);
    carried = keep;
  }
  if (in.bad())
    throw InputError(fmt::format("{}: cannot read: {}", file.string(), std::strerror(errno)));
  return scan;
}

}  // namespace

json parse_json_file(const std::filesystem::path& file, const JsonArraySink* sink,
                     DuplicateKeys* duplicates) {
  // Strict JSON (what our writer and Google Benchmark write but for NaN) is parsed from the
  // file as it is read: a run of 100,000 rows (165 MiB) is never in memory as text.
  // A pipe cannot be read twice: it is read whole.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    return parse_json_text(read_text_file(file), file.string(), sink, duplicates);
  const FileScan scan = scan_file(file);
  if (!scan.strict) return parse_json_text(read_text_file(file), file.string(), sink, duplicates);
  std::ifstream in = open_text_file(file);
  const Relaxed none;
  Builder builder(none, sink, duplicates);
  if (json::sax_parse(in, &builder)) return std::move(builder.document());
  if (in.bad())
    throw InputError(fmt::format("{}: cannot read: {}", file.string(), std::strerror(errno)));
  fail_to_parse(builder, builder.error_position(), builder.error_position() >= scan.size, scan.head,
                file.string());
}

std::string DuplicateKeys::note(const std::string& origin) const {
  if (count == 0) return "";
  std::string where;
  for (const auto& path : first) where += (where.empty() ? "" : ", ") + path;
  if (count > first.size()) where += fmt::format(" and {} more", count - first.size());
  return fmt::format(
      "{}: {} given again in the same object ({}): the first value is read, as Google "
      "Benchmark writes its own fields before user counters and custom context of the same name",
      origin, count == 1 ? "a key is" : fmt::format("{} keys are", count), where);
}

json read_json_file(const std::filesystem::path& file) {
  return parse_json_file(file, nullptr);
}

}  // namespace ridgeline
