#include "core/params/parameter_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "qnsim/error.h"

namespace qnsim {
namespace {

using Type = Parameter::Type;

// Edit distance, for "did you mean" suggestions.
int distance(std::string_view a, std::string_view b) {
  std::vector<int> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string expected(const Parameter& p) {
  switch (p.type) {
    case Type::Real: return "a number in " + describeRange(p);
    case Type::Integer: return "a whole number in " + describeRange(p);
    case Type::Boolean: return "true or false";
    case Type::Choice: return "one of " + describeRange(p);
    case Type::Vector2: return "two numbers (x,y) each in " + describeRange(p);
    case Type::Vector3: return "three numbers (x,y,z) each in " + describeRange(p);
  }
  return "";
}

bool parseNumber(std::string_view text, double& out) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

template <int N>
bool parseVector(std::string_view text, Eigen::Matrix<double, N, 1>& out) {
  for (int i = 0; i < N; ++i) {
    const size_t comma = text.find(',');
    if ((comma == std::string_view::npos) != (i == N - 1)) return false;
    if (!parseNumber(text.substr(0, comma), out[i])) return false;
    if (comma != std::string_view::npos) text.remove_prefix(comma + 1);
  }
  return true;
}

// Whether the value holds the alternative of the parameter's type.
bool holdsType(const Parameter& p, const ParameterValue& v) {
  switch (p.type) {
    case Type::Real: return std::holds_alternative<double>(v);
    case Type::Integer: return std::holds_alternative<int>(v);
    case Type::Boolean: return std::holds_alternative<bool>(v);
    case Type::Choice: return std::holds_alternative<std::string>(v);
    case Type::Vector2: return std::holds_alternative<Vec2>(v);
    case Type::Vector3: return std::holds_alternative<Vec3>(v);
  }
  return false;
}

}  // namespace

void checkParameterValue(const Parameter& p, const ParameterValue& v) {
  if (!holdsType(p, v)) throw error(p.key, ": expected ", expected(p));
  const auto inRange = [&p](double x) { return std::isfinite(x) && x >= p.min && x <= p.max; };
  bool ok = true;
  switch (p.type) {
    case Type::Real: ok = inRange(std::get<double>(v)); break;
    case Type::Integer: ok = inRange(std::get<int>(v)); break;
    case Type::Boolean: break;
    case Type::Choice: ok = std::count(p.choices.begin(), p.choices.end(), std::get<std::string>(v)) > 0; break;
    case Type::Vector2: ok = inRange(std::get<Vec2>(v)[0]) && inRange(std::get<Vec2>(v)[1]); break;
    case Type::Vector3: ok = inRange(std::get<Vec3>(v)[0]) && inRange(std::get<Vec3>(v)[1]) && inRange(std::get<Vec3>(v)[2]); break;
  }
  if (!ok) throw error(p.key, ": ", formatParameter(p, v), " is not ", expected(p));
  if (p.key == "solver.stiffness_interval" && !(std::get<Vec2>(v)[0] < std::get<Vec2>(v)[1]))
    throw error(p.key, ": x_start must be smaller than x_end, got ", formatParameter(p, v));
}

ParameterValue parseParameter(const Parameter& p, std::string_view text) {
  ParameterValue v;
  double number = 0;
  bool ok = true;
  switch (p.type) {
    case Type::Real:
      ok = parseNumber(text, number);
      v = number;
      break;
    case Type::Integer:
      ok = parseNumber(text, number) && number == std::floor(number) && std::abs(number) < 1e9;
      v = ok ? static_cast<int>(number) : 0;
      break;
    case Type::Boolean:
      ok = text == "true" || text == "false" || text == "1" || text == "0";
      v = text == "true" || text == "1";
      break;
    case Type::Choice: v = std::string(text); break;
    case Type::Vector2: {
      Vec2 x;
      ok = parseVector<2>(text, x);
      v = x;
      break;
    }
    case Type::Vector3: {
      Vec3 x;
      ok = parseVector<3>(text, x);
      v = x;
      break;
    }
  }
  if (!ok) throw error(p.key, ": '", text, "' is not ", expected(p));
  checkParameterValue(p, v);
  return v;
}

nlohmann::ordered_json parameterToJson(const ParameterValue& value) {
  return std::visit(
      [](const auto& v) -> nlohmann::ordered_json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Vec2> || std::is_same_v<T, Vec3>) return std::vector<double>(v.data(), v.data() + v.size());
        else return v;
      },
      value);
}

ParameterValue parameterFromJson(const Parameter& p, const nlohmann::json& j) {
  const auto vector = [&](int n) {
    if (!j.is_array() || static_cast<int>(j.size()) != n) throw error("expected ", expected(p), " as a JSON array, got ", j.dump());
    Eigen::VectorXd x(n);
    for (int i = 0; i < n; ++i) {
      if (!j[i].is_number()) throw error("expected ", expected(p), ", got ", j.dump());
      x[i] = j[i].get<double>();
    }
    return x;
  };
  ParameterValue v;
  switch (p.type) {
    case Type::Real:
      if (!j.is_number()) throw error("expected ", expected(p), ", got ", j.dump());
      v = j.get<double>();
      break;
    case Type::Integer:
      if (!j.is_number_integer()) throw error("expected ", expected(p), ", got ", j.dump());
      if (std::abs(j.get<double>()) > 1e9) throw error("expected ", expected(p), ", got ", j.dump());
      v = j.get<int>();
      break;
    case Type::Boolean:
      if (!j.is_boolean()) throw error("expected ", expected(p), ", got ", j.dump());
      v = j.get<bool>();
      break;
    case Type::Choice:
      if (!j.is_string()) throw error("expected ", expected(p), ", got ", j.dump());
      v = j.get<std::string>();
      break;
    case Type::Vector2: v = Vec2(vector(2)); break;
    case Type::Vector3: v = Vec3(vector(3)); break;
  }
  checkParameterValue(p, v);
  return v;
}

std::string formatParameter(const Parameter& p, const ParameterValue& value) {
  std::ostringstream out;
  out.precision(10);
  switch (p.type) {
    case Type::Real: out << std::get<double>(value); break;
    case Type::Integer: out << std::get<int>(value); break;
    case Type::Boolean: out << (std::get<bool>(value) ? "true" : "false"); break;
    case Type::Choice: out << std::get<std::string>(value); break;
    case Type::Vector2: out << std::get<Vec2>(value)[0] << "," << std::get<Vec2>(value)[1]; break;
    case Type::Vector3: out << std::get<Vec3>(value)[0] << "," << std::get<Vec3>(value)[1] << "," << std::get<Vec3>(value)[2]; break;
  }
  return out.str();
}

std::string describeRange(const Parameter& p) {
  std::ostringstream out;
  if (p.type == Type::Choice) {
    for (size_t i = 0; i < p.choices.size(); ++i) out << (i ? "|" : "") << p.choices[i];
    return out.str();
  }
  if (p.type == Type::Boolean) return "true|false";
  out << "[" << p.min << ", " << p.max << "]";
  return out.str();
}

bool isLogarithmic(const Parameter& p) {
  if (p.type != Type::Real || p.max <= 0.0) return false;
  return p.min > 0.0 ? p.max / p.min >= 1e3 : p.min == 0.0 && p.max >= 1e3;
}

std::string nearestKey(std::string_view key, const std::vector<std::string_view>& known) {
  std::string_view best;
  int best_distance = 0;
  for (std::string_view k : known)
    if (const int d = distance(key, k); best.empty() || d < best_distance) best = k, best_distance = d;
  return std::string(best);
}

}  // namespace qnsim
