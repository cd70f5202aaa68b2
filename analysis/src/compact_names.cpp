// A table's case names cut to what tells its rows apart (overview.hpp).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ridgeline/analysis/overview.hpp"

namespace ridgeline {

namespace {

// A run name's parts: "op/backend/dtype/m=1,n=2/layout=NN/threads=1" is op, backend and
// dtype by position, then each key=value by its key. `segment` numbers the '/' parts, so
// that the parts kept from one segment are joined by ',' again.
struct Token {
  std::string key, text;
  std::size_t segment = 0;
};

std::vector<Token> tokens_of(const std::string& name) {
  std::vector<Token> out;
  std::size_t segment = 0, begin = 0;
  while (begin <= name.size()) {
    std::size_t end = name.find('/', begin);
    if (end == std::string::npos) end = name.size();
    const std::string part = name.substr(begin, end - begin);
    if (part.find('=') == std::string::npos) {
      out.push_back({"#" + std::to_string(segment), part, segment});
    } else {
      // Split at the commas outside quotes: a value may hold commas of its own
      // (equation="ij,jk->ik", extents="i=2,j=3").
      bool quoted = false;
      std::size_t from = 0;
      for (std::size_t i = 0; i <= part.size(); ++i) {
        if (i < part.size() && part[i] == '"') quoted = !quoted;
        if (i < part.size() && (part[i] != ',' || quoted)) continue;
        const std::string piece = part.substr(from, i - from);
        out.push_back({piece.substr(0, piece.find('=')), piece, segment});
        from = i + 1;
      }
    }
    ++segment;
    begin = end + 1;
  }
  return out;
}

}  // namespace

std::vector<std::string> compact_case_names(const std::vector<std::string>& names) {
  std::vector<std::vector<Token>> all;
  std::map<std::string, std::set<std::string>> values;  // key -> texts seen
  std::map<std::string, std::size_t> present;           // key -> names holding it
  for (const auto& n : names) {
    all.push_back(tokens_of(n));
    for (const auto& t : all.back()) {
      values[t.key].insert(t.text);
      ++present[t.key];
    }
  }
  std::vector<std::string> out;
  for (const auto& tokens : all) {
    std::string s;
    std::size_t last_segment = 0;
    for (const auto& t : tokens) {
      // The backend (the second part) always; any other part where the rows differ in it.
      const bool varies = values[t.key].size() > 1 || present[t.key] < names.size();
      if (t.key != "#1" && !varies) continue;
      if (!s.empty()) s += t.segment == last_segment ? "," : " ";
      s += t.text;
      last_segment = t.segment;
    }
    // A name of one part the rows share (a foreign file's "BM_Error") stays whole.
    out.push_back(s.empty() ? names[out.size()] : s);
  }
  return out;
}

}  // namespace ridgeline
