#include "core/params/parameters.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/common/error.h"

namespace qnsim {
namespace {

using Type = Parameter::Type;

// Declaration helpers: `field` maps a Settings to the member the parameter controls.
template <class T, class Field>
Parameter declare(std::string key, std::string group, std::string description, Type type, ParameterValue default_value,
                  double min, double max, Field field, bool rebuilds = false) {
  Parameter p{std::move(key), std::move(group), std::move(description), type, std::move(default_value), min, max, {}, rebuilds, {}, {}};
  p.get = [field](const Settings& s) { return ParameterValue(T(field(const_cast<Settings&>(s)))); };
  p.assign = [field](Settings& s, const ParameterValue& v) { field(s) = std::get<T>(v); };
  return p;
}

template <class Enum, class Field>
Parameter choice(std::string key, std::string group, std::string description, std::vector<std::string> names, Field field,
                 bool rebuilds = false) {
  Parameter p{std::move(key), std::move(group), std::move(description), Type::Choice, names.front(), 0, 0, names, rebuilds, {}, {}};
  p.get = [field, names](const Settings& s) { return ParameterValue(names[static_cast<int>(field(const_cast<Settings&>(s)))]); };
  p.assign = [field, names](Settings& s, const ParameterValue& v) {
    field(s) = static_cast<Enum>(std::find(names.begin(), names.end(), std::get<std::string>(v)) - names.begin());
  };
  return p;
}

std::vector<Parameter> declareAll() {
  return {
      declare<double>("time_step", "Integrator", "Time step h in seconds; one backward Euler step per frame (paper: 1/30).", Type::Real,
                      1.0 / 30.0, 1e-5, 1.0, [](Settings& s) -> double& { return s.time_step; }, true),
      choice<IntegratorKind>("integrator", "Integrator",
                             "backward_euler: the paper's (Eq. 3); implicit_midpoint: symplectic, less stable with stiff materials "
                             "(Sec. 3); bdf2: second order, less numerical damping. Each is one minimisation per step.",
                             {"backward_euler", "implicit_midpoint", "bdf2"}, [](Settings& s) -> IntegratorKind& { return s.integrator; },
                             true),
      declare<Vec3>("gravity", "Integrator", "Gravitational acceleration (m/s^2).", Type::Vector3, Vec3(0, -9.81, 0), -1e4, 1e4,
                    [](Settings& s) -> Vec3& { return s.gravity; }),
      declare<double>("damping", "Integrator", "Ether drag: the velocity is scaled by (1 - damping) before each step.", Type::Real, 0.0,
                      0.0, 1.0, [](Settings& s) -> double& { return s.damping; }),
      declare<int>("threads", "Performance", "Worker threads for element loops; 0 = all cores (or QNSIM_THREADS). Results do not depend on it.",
                   Type::Integer, 0, 0, 256, [](Settings& s) -> int& { return s.threads; }),
      declare<double>("contact_stiffness", "Collisions", "Stiffness k_c of the contact energy k_c/2 ((x - t) . n)^2 (N/m).",
                      Type::Real, 1e5, 0.0, 1e12, [](Settings& s) -> double& { return s.contact_stiffness; }),
      declare<double>("contact_friction", "Collisions",
                      "Coulomb friction coefficient of contacts (tangential force <= coefficient x normal force, in g and grad g, "
                      "not in A); 0 = frictionless.",
                      Type::Real, 0.0, 0.0, 10.0, [](Settings& s) -> double& { return s.contact_friction; }),
      declare<double>("contact_slip_speed", "Collisions",
                      "Tangential speed (m/s) below which friction acts as a stiff linear drag instead of the constant Coulomb force.",
                      Type::Real, 0.01, 1e-6, 100.0, [](Settings& s) -> double& { return s.contact_slip_speed; }),
      choice<SolverMethod>("solver.method", "Solver",
                           "qn: quasi-Newton with L-BFGS (Alg. 1 + 2); pd: Projective Dynamics local/global step (Alg. 1, m = 0); "
                           "newton: Newton with per-element PSD projection and a direct solve; gd: mass-scaled gradient descent.",
                           {"qn", "pd", "newton", "gd"}, [](Settings& s) -> SolverMethod& { return s.solver.method; }),
      declare<int>("solver.iterations", "Solver", "Solver iterations per frame (paper: 10).", Type::Integer, 10, 1, 100000,
                   [](Settings& s) -> int& { return s.solver.iterations; }),
      declare<int>("solver.lbfgs_window", "Solver", "L-BFGS history window m (Alg. 2; paper: 5). 0 gives the plain direction -A^-1 grad g.",
                   Type::Integer, 5, 0, 1000, [](Settings& s) -> int& { return s.solver.lbfgs_window; }),
      choice<InitialHessianKind>("solver.initial_hessian", "Solver",
                                 "Initial Hessian A0 of L-BFGS (Fig. 8). laplacian: ours, M/h^2 + L, n x n, factored once; "
                                 "scaled_identity: <s,t>/<t,t> I (Nocedal-Wright); rest_hessian: M/h^2 + Hessian of E at rest, "
                                 "3n x 3n, factored once; frame_hessian: the projected Hessian at each frame's start, factored per frame.",
                                 {"laplacian", "scaled_identity", "rest_hessian", "frame_hessian"},
                                 [](Settings& s) -> InitialHessianKind& { return s.solver.initial_hessian; }),
      choice<LineSearchKind>("solver.line_search", "Solver",
                             "armijo: backtracking until g decreases sufficiently (Alg. 1); none: always take the full step.",
                             {"armijo", "none"}, [](Settings& s) -> LineSearchKind& { return s.solver.line_search; }),
      declare<double>("solver.armijo_gamma", "Solver", "Armijo sufficient-decrease constant gamma (paper: 0.3).", Type::Real, 0.3, 1e-6,
                      0.999, [](Settings& s) -> double& { return s.solver.armijo_gamma; }),
      declare<double>("solver.armijo_beta", "Solver", "Backtracking factor: the step is multiplied by it after each rejected trial (paper: 0.5).",
                      Type::Real, 0.5, 0.01, 0.99, [](Settings& s) -> double& { return s.solver.armijo_beta; }),
      declare<int>("solver.max_backtracks", "Solver", "Most step halvings per line search; then the best step found is taken.",
                   Type::Integer, 30, 1, 200, [](Settings& s) -> int& { return s.solver.max_backtracks; }),
      declare<Vec2>("solver.stiffness_interval", "Solver",
                    "Stretch interval [x_start, x_end] over which the stiffness k of each material is fitted (Eq. 11; paper: [0.5, 1.5]).",
                    Type::Vector2, Vec2(0.5, 1.5), 0.01, 10.0, [](Settings& s) -> Vec2& { return s.solver.stiffness_interval; }, true),
      declare<double>("solver.gradient_tolerance", "Solver",
                      "End a frame early once |grad g| <= tolerance * |grad g(y)|; 0 runs every iteration (as the paper).", Type::Real,
                      0.0, 0.0, 1.0, [](Settings& s) -> double& { return s.solver.gradient_tolerance; }),
  };
}

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

void checkValue(const Parameter& p, const ParameterValue& v) {
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

}  // namespace

const std::vector<Parameter>& parameters() {
  static const std::vector<Parameter> table = declareAll();
  return table;
}

Settings::Settings() {
  for (const Parameter& p : parameters()) p.assign(*this, p.default_value);
}

const Parameter& findParameter(std::string_view key) {
  for (const Parameter& p : parameters())
    if (p.key == key) return p;
  std::vector<std::pair<int, std::string>> near;
  for (const Parameter& p : parameters()) near.push_back({distance(key, p.key), p.key});
  std::sort(near.begin(), near.end());
  throw error("unknown parameter '", key, "' (did you mean '", near[0].second, "'? `qnsim params` lists them all)");
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
  checkValue(p, v);
  return v;
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
  checkValue(p, v);
  return v;
}

void setParameter(Settings& settings, const Parameter& p, const ParameterValue& value) {
  checkValue(p, value);
  p.assign(settings, value);
}

void setParameter(Settings& settings, std::string_view key, std::string_view text) {
  const Parameter& p = findParameter(key);
  setParameter(settings, p, parseParameter(p, text));
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

}  // namespace qnsim
