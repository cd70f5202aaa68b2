// A Run document read a chunk at a time: the top-level object's members are found by their
// brackets and quotes alone, each row of "benchmarks" is parsed by simdjson and read by the
// field reader (json_fields.hpp over SimdValue), every other member (the context) by the
// one JSON reader (json_file.hpp). Anything unexpected (a key given twice too) gives up, and
// read_run_file reads the file again with the reader that names the error or notes the
// keys: this path never has to explain one.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "json_value_simd.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "run_rows_fast.hpp"

namespace ridgeline::detail {

namespace {

struct GiveUp {};  // not the shape this path reads: the caller's reader takes over

// The file's bytes from `pos` on, read 4 MiB at a time; what lies before `pos` is dropped
// between values (compact()), so a value's bytes stay put while it is scanned.
class Bytes {
 public:
  explicit Bytes(const std::filesystem::path& file) : in_(open_text_file(file)) {}

  // The byte at `i` (an absolute index into buf_), reading more as needed; -1 at the end.
  int at(std::size_t i) {
    while (i >= buf_.size())
      if (!more()) return -1;
    return static_cast<unsigned char>(buf_[i]);
  }
  std::size_t pos = 0;
  int skip_space() {
    for (int c;; ++pos)
      if ((c = at(pos)) != ' ' && c != '\n' && c != '\r' && c != '\t') return c;
  }
  void expect(char c) {
    if (skip_space() != c) throw GiveUp{};
    ++pos;
  }
  // The end of the value starting at `pos` (after skip_space()). Every byte of a run passes
  // here: strings are skipped with memchr, and the buffer is refilled only at its end.
  std::size_t value_end() {
    const int first = at(pos);
    if (first != '{' && first != '[' && first != '"') {  // a number, true, false or null
      std::size_t i = pos;
      for (int c; (c = at(i)) != -1 && c != ',' && c != '}' && c != ']' && c != ' ' && c != '\n' &&
                  c != '\r' && c != '\t';
           ++i) {
      }
      if (i == pos) throw GiveUp{};
      return i;
    }
    int depth = 0;
    bool in_string = false;
    std::size_t string_begin = 0;
    for (std::size_t i = pos;;) {
      const char* data = buf_.data();
      const std::size_t n = buf_.size();
      while (i < n) {
        if (in_string) {
          const auto* quote = static_cast<const char*>(std::memchr(data + i, '"', n - i));
          if (!quote) {
            i = n;
            break;
          }
          const auto q = static_cast<std::size_t>(quote - data);
          std::size_t k = q;
          while (k > string_begin && data[k - 1] == '\\') --k;
          i = q + 1;
          if ((q - k) % 2 == 1) continue;  // an escaped quote
          in_string = false;
          if (depth == 0) return i;
          continue;
        }
        const char c = data[i++];
        if (c == '"') {
          in_string = true;
          string_begin = i;
        } else if (c == '{' || c == '[') {
          ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
          return i;
        }
      }
      if (!more()) throw GiveUp{};
    }
  }
  std::string_view text(std::size_t begin, std::size_t end) const {
    return std::string_view(buf_).substr(begin, end - begin);
  }
  void compact() {
    if (pos < (std::size_t{4} << 20)) return;
    buf_.erase(0, pos);
    pos = 0;
  }

 private:
  bool more() {
    if (!in_) return false;
    const std::size_t old = buf_.size();
    buf_.resize(old + (std::size_t{4} << 20));
    in_.read(buf_.data() + old, static_cast<std::streamsize>(buf_.size() - old));
    buf_.resize(old + static_cast<std::size_t>(in_.gcount()));
    if (in_.bad()) throw GiveUp{};
    return buf_.size() > old;
  }
  std::ifstream in_;
  std::string buf_;
};

// A key's fingerprint: equal keys have equal ones, so equal fingerprints in one object are
// a key perhaps given twice (the other reader tells). Integers, not strings, are sorted:
// sorting the keys themselves cost 10% of reading a run of 100,000 rows.
std::uint64_t fingerprint(std::string_view key) {
  std::uint64_t head = 0, tail = 0;
  std::memcpy(&head, key.data(), std::min<std::size_t>(key.size(), 8));
  if (key.size() > 8) std::memcpy(&tail, key.data() + key.size() - 8, 8);
  return (head * 0x9E3779B97F4A7C15u) ^ ((tail + key.size()) * 0xC2B2AE3D27D4EB4Fu);
}

// Whether any object in `e` may give a key twice: the other reader notes them (json_file.hpp).
// One walk over the tape; each object's fingerprints above `prints`' size on entry.
bool may_repeat_a_key(simdjson::dom::element e, std::vector<std::uint64_t>& prints) {
  const std::size_t begin = prints.size();
  if (simdjson::dom::object object; e.get_object().get(object) == simdjson::SUCCESS) {
    for (auto field : object) {
      prints.push_back(fingerprint(field.key));
      const auto type = field.value.type();
      if ((type == simdjson::dom::element_type::OBJECT ||
           type == simdjson::dom::element_type::ARRAY) &&
          may_repeat_a_key(field.value, prints))
        return true;
    }
    const auto first = prints.begin() + static_cast<std::ptrdiff_t>(begin);
    std::sort(first, prints.end());
    const bool repeated = std::adjacent_find(first, prints.end()) != prints.end();
    prints.resize(begin);
    return repeated;
  }
  if (simdjson::dom::array elements; e.get_array().get(elements) == simdjson::SUCCESS)
    for (auto element : elements) {
      const auto type = element.type();
      if ((type == simdjson::dom::element_type::OBJECT ||
           type == simdjson::dom::element_type::ARRAY) &&
          may_repeat_a_key(element, prints))
        return true;
    }
  return false;
}

}  // namespace

std::optional<Run> read_run_rows_fast(const std::filesystem::path& file, const std::string& origin,
                                      const std::function<void(CaseResult&& row)>& each_row,
                                      std::size_t& delivered) {
  try {
    Bytes b(file);
    simdjson::dom::parser parser;
    // Shallower than the other reader's bound (a row sits two levels down in the document):
    // a row deeper than this is left to that reader, which refuses it or reads it.
    if (parser.allocate(4096, kMaxJsonDepth / 2) != simdjson::SUCCESS) throw GiveUp{};
    nlohmann::json top = nlohmann::json::object();
    std::vector<std::uint64_t> prints;
    b.expect('{');
    if (b.skip_space() == '}') throw GiveUp{};  // no rows: the other reader says so
    for (;;) {
      if (b.skip_space() != '"') throw GiveUp{};
      const std::size_t key_end = b.value_end();
      const std::string key(b.text(b.pos + 1, key_end - 1));
      if (key.find('\\') != std::string::npos || top.contains(key)) throw GiveUp{};
      b.pos = key_end;
      b.expect(':');
      b.skip_space();
      if (key == "benchmarks") {
        top[key] = nlohmann::json::array();
        b.expect('[');
        if (b.skip_space() == ']') {
          ++b.pos;
        } else {
          for (std::size_t i = 0;; ++i) {
            b.compact();
            b.skip_space();
            const std::size_t end = b.value_end();
            const std::string_view row = b.text(b.pos, end);
            simdjson::dom::element element;
            if (parser.parse(row.data(), row.size()).get(element) != simdjson::SUCCESS ||
                may_repeat_a_key(element, prints))
              throw GiveUp{};
            CaseResult result;
            try {
              result = case_result_from(SimdValue(element), origin,
                                        "benchmarks[" + std::to_string(i) + "]");
            } catch (const InputError&) {
              throw GiveUp{};
            }
            each_row(std::move(result));
            ++delivered;
            b.pos = end;
            const int next = b.skip_space();
            ++b.pos;
            if (next == ']') break;
            if (next != ',') throw GiveUp{};
          }
        }
      } else {
        const std::size_t end = b.value_end();
        DuplicateKeys duplicates;
        try {
          top[key] = parse_json_text(b.text(b.pos, end), origin, nullptr, &duplicates);
        } catch (const InputError&) {
          throw GiveUp{};
        }
        if (duplicates.count) throw GiveUp{};
        b.pos = end;
      }
      const int next = b.skip_space();
      ++b.pos;
      if (next == '}') break;
      if (next != ',') throw GiveUp{};
    }
    if (b.skip_space() != -1) throw GiveUp{};
    try {
      return run_from_json(top, origin);
    } catch (const InputError&) {
      throw GiveUp{};
    }
  } catch (const GiveUp&) {
    return std::nullopt;
  }
}

bool fast_run_reader_built() {
  return true;
}

}  // namespace ridgeline::detail
