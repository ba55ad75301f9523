#include "core/scene/json_field.h"

#include <cmath>
#include <cstdio>

#include "qnsim/error.h"

namespace qnsim {
namespace {
std::string shortened(const nlohmann::json& j) {
  std::string text = j.dump();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}
// A key as it appears in a field's path: control characters escaped, so that a NUL cannot cut the message.
std::string pathToken(const std::string& key) {
  std::string out;
  for (const char c : key) {
    if (static_cast<unsigned char>(c) >= 0x20) {
      out += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    }
  }
  return out;
}
std::string bounds(double min, double max) {
  std::ostringstream out;
  if (min > -1e300 && max < 1e300) out << " in [" << min << ", " << max << "]";
  else if (min > -1e300) out << " >= " << min;
  else if (max < 1e300) out << " <= " << max;
  return out.str();
}
}  // namespace

void JsonField::fail(const std::string& message) const { throw error(file_, ": ", path_.empty() ? "/" : path_, ": ", message); }

JsonField JsonField::operator[](const char* key) const {
  expectObject();
  if (!value_.contains(key)) fail(std::string("missing required field '") + key + "'");
  return child(value_.at(key), key);
}

std::optional<JsonField> JsonField::find(const std::string& key) const {
  expectObject();
  if (!value_.contains(key)) return std::nullopt;
  return child(value_.at(key), key);
}

JsonField JsonField::child(const nlohmann::json& value, const std::string& key) const {
  return JsonField(value, file_, path_ + "/" + pathToken(key));
}

std::vector<JsonField> JsonField::items() const {
  if (!value_.is_array()) fail("expected an array, got " + shortened(value_));
  std::vector<JsonField> out;
  for (size_t i = 0; i < value_.size(); ++i) out.emplace_back(value_[i], file_, path_ + "/" + std::to_string(i));
  return out;
}

void JsonField::expectObject() const {
  if (!value_.is_object()) fail("expected an object {...}, got " + shortened(value_));
}

void JsonField::allowOnly(std::initializer_list<const char*> allowed) const {
  expectObject();
  for (const auto& [key, value] : value_.items()) {
    bool known = false;
    std::string list;
    for (const char* a : allowed) {
      known |= key == a;
      list += (list.empty() ? "" : ", ") + std::string(a);
    }
    if (!known) child(value, key).fail("unknown field (expected one of: " + list + ")");
  }
}

double JsonField::number(double min, double max) const {
  if (!value_.is_number()) fail("expected a number" + bounds(min, max) + ", got " + shortened(value_));
  const double v = value_.get<double>();
  if (!std::isfinite(v) || v < min || v > max) fail("expected a number" + bounds(min, max) + ", got " + shortened(value_));
  return v;
}

int JsonField::integer(int min, int max) const {
  if (!value_.is_number_integer() || value_.get<double>() < min || value_.get<double>() > max)
    fail("expected a whole number" + bounds(min, max) + ", got " + shortened(value_));
  return value_.get<int>();
}

bool JsonField::boolean() const {
  if (!value_.is_boolean()) fail("expected true or false, got " + shortened(value_));
  return value_.get<bool>();
}

std::string JsonField::string() const {
  if (!value_.is_string()) fail("expected a string, got " + shortened(value_));
  return value_.get<std::string>();
}

Eigen::VectorXd JsonField::numbers(int count, double min, double max) const {
  if (!value_.is_array() || static_cast<int>(value_.size()) != count)
    fail("expected an array of " + std::to_string(count) + " numbers, got " + shortened(value_));
  Eigen::VectorXd v(count);
  for (int i = 0; i < count; ++i) v[i] = JsonField(value_[i], file_, path_ + "/" + std::to_string(i)).number(min, max);
  return v;
}

Vec2 JsonField::vec2(double min, double max) const { return numbers(2, min, max); }
Vec3 JsonField::vec3(double min, double max) const { return numbers(3, min, max); }

double JsonField::numberOr(const char* key, double fallback, double min, double max) const {
  const auto f = find(key);
  return f ? f->number(min, max) : fallback;
}

std::string JsonField::stringOr(const char* key, const std::string& fallback) const {
  const auto f = find(key);
  return f ? f->string() : fallback;
}

Vec3 JsonField::vec3Or(const char* key, const Vec3& fallback) const {
  const auto f = find(key);
  return f ? f->vec3() : fallback;
}

}  // namespace qnsim
