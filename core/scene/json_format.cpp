#include "core/scene/json_format.h"

#include <algorithm>

namespace qnsim {
namespace {

using Json = nlohmann::ordered_json;
constexpr size_t kWidth = 100;

std::string oneLine(const Json& j) {
  if (j.is_object()) {
    std::string out = "{";
    for (auto it = j.begin(); it != j.end(); ++it) out += (it == j.begin() ? "" : ", ") + Json(it.key()).dump() + ": " + oneLine(it.value());
    return out + "}";
  }
  if (j.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + oneLine(j[i]);
    return out + "]";
  }
  return j.dump();
}

// Numbers, or short lists of numbers ([x, y, z] points): flowed line by line rather than one per line.
bool flows(const Json& array) {
  return std::all_of(array.begin(), array.end(), [](const Json& e) {
    return e.is_primitive() || (e.is_array() && std::all_of(e.begin(), e.end(), [](const Json& x) { return x.is_primitive(); }));
  });
}

void format(const Json& j, size_t indent, size_t column, std::string& out) {
  const std::string line = oneLine(j);
  if (!j.is_structured() || j.empty() || (indent > 0 && column + line.size() <= kWidth)) {
    out += line;
    return;
  }
  const std::string inner(indent + 2, ' ');
  if (j.is_array() && flows(j)) {
    out += "[\n";
    out += inner;
    size_t at = inner.size();
    for (size_t i = 0; i < j.size(); ++i) {
      const std::string item = oneLine(j[i]) + (i + 1 < j.size() ? "," : "");
      if (at > inner.size() && at + 1 + item.size() > kWidth) out += '\n', out += inner, at = inner.size();
      else if (at > inner.size()) out += ' ', ++at;
      out += item;
      at += item.size();
    }
    out += '\n';
    out.append(indent, ' ');
    out += ']';
    return;
  }
  out += j.is_object() ? "{\n" : "[\n";
  size_t i = 0;
  for (auto it = j.begin(); it != j.end(); ++it, ++i) {
    out += inner;
    if (j.is_object()) out += Json(it.key()).dump() + ": ";
    const size_t at = j.is_object() ? inner.size() + Json(it.key()).dump().size() + 2 : inner.size();
    format(it.value(), indent + 2, at, out);
    out += i + 1 < j.size() ? ",\n" : "\n";
  }
  out.append(indent, ' ');
  out += j.is_object() ? '}' : ']';
}

}  // namespace

std::string formatJson(const Json& json) {
  std::string out;
  format(json, 0, 0, out);
  return out + "\n";
}

}  // namespace qnsim
