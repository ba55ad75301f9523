// Bars of tets against beam theory (validation.h): the closed forms, the measurements on a Simulation,
// and Richardson's extrapolation over three meshes.
#include "experiments/validation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <sstream>

#include "core/common/files.h"
#include "qnsim/error.h"
#include "qnsim/simulation.h"

namespace qnsim {
namespace {

constexpr double kShearCoefficient = 5.0 / 6.0;    // Timoshenko's kappa of a rectangle
constexpr double kFirstMode = 1.8751040687119611;  // beta L of a cantilever's first mode: cos(bL) cosh(bL) = -1

std::string number(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

std::string vec3(const Vec3& v) {
  std::ostringstream out;
  out.precision(17);
  out << '[' << v.x() << ", " << v.y() << ", " << v.z() << ']';
  return out.str();
}

// A box selection of the vertices whose rest x is within a small fraction of a cell of `x`.
std::string faceSelection(const Bar& bar, double x, double y_half = -1) {
  const double e = 1e-3 * bar.height / bar.cells, y = y_half < 0 ? bar.height : y_half;
  std::ostringstream out;
  out << R"({"box": {"min": )" << vec3({x - e, -y, -bar.width}) << R"(, "max": )" << vec3({x + e, y, bar.width}) << "}}";
  return out.str();
}

// Stiff enough that the held face follows its targets to 1e-4 of the beam's own stretch at a cell.
double clampStiffness(const Bar& bar) { return 1e4 * bar.young * bar.height / bar.cells; }

std::string handle(const Bar& bar, const std::string& select, const std::string& motion = "") {
  std::ostringstream out;
  out << R"({"select": )" << select << R"(, "stiffness": )" << number(clampStiffness(bar));
  if (!motion.empty()) out << R"(, "motion": )" << motion;
  out << '}';
  return out.str();
}

Scene sceneWithHandles(const Bar& bar, const std::vector<std::string>& handles, const Vec3& gravity) {
  const LameParameters lame = lameFromYoung(bar.young, bar.poisson);
  std::ostringstream json;
  json << R"({"version": 1, "gravity": )" << vec3(gravity)
       << R"(, "time_step": 1, "damping": 1, "solver": {"method": "newton", "iterations": 100, "gradient_tolerance": 1e-12},)"
       << R"( "bodies": [{"name": "bar", "shape": {"type": "box", "size": )" << vec3({bar.length, bar.height, bar.width})
       << R"(, "cells": [)" << bar.lengthCells() << ", " << bar.cells << ", " << bar.cells << R"(]}, "density": )" << number(bar.density)
       << R"(, "materials": [{"model": ")" << bar.model << R"(", "mu": )" << number(lame.mu) << R"(, "lambda": )" << number(lame.lambda)
       << R"(}], "handles": [)";
  for (size_t i = 0; i < handles.size(); ++i) json << (i ? ", " : "") << handles[i];
  json << "]}]}";
  return parseScene(json.str(), "bar.json");
}

// The vertices whose rest x is within a fraction of a cell of `x`.
std::vector<int> faceVertices(const Simulation& sim, const Bar& bar, double x) {
  std::vector<int> face;
  const VecX& rest = sim.model().rest;
  for (int v = 0; v < sim.model().vertexCount(); ++v)
    if (std::abs(rest[3 * v] - x) < 1e-3 * bar.height / bar.cells) face.push_back(v);
  return face;
}

Vec3 meanDisplacement(const Simulation& sim, const std::vector<int>& vertices) {
  Vec3 sum = Vec3::Zero();
  for (int v : vertices) sum += vertex(sim.positions(), v) - vertex(sim.model().rest, v);
  return sum / static_cast<double>(vertices.size());
}

// Frames of the proximal-point iteration (validation.h) until no vertex moves by 1e-9 L in a frame. The
// moves fall by orders of magnitude a frame down to the round-off of the Newton solves, where they
// scatter: between 1e-11 and 6e-10 L a frame on the 6-cell cantilever, so a stricter bound is met only
// by chance. 1e-9 L is 3e-5 of the smallest displacement measured (the hanging bar's 33 µm stretch), and
// the frames' moves shrink so fast above the floor that what is left after the last one is far smaller.
void runToRest(Simulation& sim, const Bar& bar) {
  VecX previous = sim.positions();
  for (int frame = 0; frame < 300; ++frame) {
    sim.step();
    const double moved = (sim.positions() - previous).lpNorm<Eigen::Infinity>();
    previous = sim.positions();
    if (moved <= 1e-9 * bar.length) return;
  }
  throw error("validation: the bar did not come to rest in 300 frames");
}

// The mean angle by which the face's vertices turned about the x axis (those off the axis).
double faceTurn(const Simulation& sim, const std::vector<int>& face) {
  double sum = 0;
  int count = 0;
  for (int v : face) {
    const Vec3 r0 = vertex(sim.model().rest, v), r = vertex(sim.positions(), v);
    const Eigen::Vector2d a(r0.y(), r0.z()), b(r.y(), r.z());
    if (a.norm() < 1e-9) continue;
    sum += std::atan2(a.x() * b.y() - a.y() * b.x(), a.dot(b));
    ++count;
  }
  return count ? sum / count : 0.0;
}

}  // namespace

int Bar::lengthCells() const { return std::max(1, static_cast<int>(std::lround(cells * length / height))); }

double cantileverSelfWeightDeflection(const Bar& bar, double gravity) {
  const double w = bar.density * gravity * bar.area(), L = bar.length;
  return w * std::pow(L, 4) / (8.0 * bar.young * bar.inertia()) + w * L * L / (2.0 * kShearCoefficient * bar.shearModulus() * bar.area());
}

double cantileverFirstFrequency(const Bar& bar) {
  return kFirstMode * kFirstMode / (2.0 * std::numbers::pi * bar.length * bar.length) *
         std::sqrt(bar.young * bar.inertia() / (bar.density * bar.area()));
}

double hangingBarStretch(const Bar& bar, double gravity) { return bar.density * gravity * bar.length * bar.length / (2.0 * bar.young); }

double saintVenantTorque(const Bar& bar, double twist) {
  const double a = std::max(bar.height, bar.width), b = std::min(bar.height, bar.width);
  double sum = 0;
  for (int n = 1; n < 200; n += 2) sum += std::tanh(n * std::numbers::pi * a / (2.0 * b)) / std::pow(n, 5);
  const double beta = (1.0 - 192.0 / std::pow(std::numbers::pi, 5) * (b / a) * sum) / 3.0;
  return beta * a * b * b * b * bar.shearModulus() * twist / bar.length;
}

namespace {

// theta, theta' and the tip's coordinates (x along, y down) at s = 1 from theta'(0) = curvature, by
// classical Runge-Kutta in 4000 steps.
struct ElasticaEnd {
  double theta, slope, x, y;
};
ElasticaEnd integrateElastica(double alpha, double curvature) {
  const int steps = 4000;
  const double ds = 1.0 / steps;
  // State: theta, theta', x, y with theta'' = -alpha cos theta, x' = cos theta, y' = sin theta.
  using State = Eigen::Vector4d;
  const auto rate = [alpha](const State& s) { return State(s[1], -alpha * std::cos(s[0]), std::cos(s[0]), std::sin(s[0])); };
  State s(0.0, curvature, 0.0, 0.0);
  for (int i = 0; i < steps; ++i) {
    const State k1 = rate(s), k2 = rate(s + 0.5 * ds * k1), k3 = rate(s + 0.5 * ds * k2), k4 = rate(s + ds * k3);
    s += ds / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return {s[0], s[1], s[2], s[3]};
}

}  // namespace

// The root curvature theta'(0) lies in (0, alpha] (the moment at the root is at most P L); theta'(1)
// grows with it there, so bisection finds the one that leaves the tip free of moment.
ElasticaTip elasticaTip(double alpha) {
  if (!(alpha > 0)) return {0.0, 0.0, 0.0};
  double lo = 0.0, hi = alpha;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    (integrateElastica(alpha, mid).slope < 0 ? lo : hi) = mid;
  }
  const ElasticaEnd end = integrateElastica(alpha, 0.5 * (lo + hi));
  return {end.y, 1.0 - end.x, end.theta};
}

Scene barScene(const Bar& bar, bool clamped, const Vec3& gravity) {
  std::vector<std::string> handles;
  if (clamped) handles.push_back(handle(bar, faceSelection(bar, -0.5 * bar.length)));
  return sceneWithHandles(bar, handles, gravity);
}

double cantileverDeflection(const Bar& bar, double gravity) {
  Simulation sim(barScene(bar, true, Vec3(0, -gravity, 0)));
  runToRest(sim, bar);
  return -meanDisplacement(sim, faceVertices(sim, bar, 0.5 * bar.length)).y();
}

ElasticaTip tipLoadDeflection(const Bar& bar, double load) {
  Simulation sim(barScene(bar, true, Vec3::Zero()));
  const std::vector<int> tip = faceVertices(sim, bar, 0.5 * bar.length);
  const double distance = 1e4 * bar.length, stiffness = load / static_cast<double>(tip.size()) / distance;
  std::vector<Drag> drags;
  for (int v : tip) drags.push_back({v, vertex(sim.model().rest, v) - Vec3(0, distance, 0), stiffness});
  sim.apply(SetDrag{drags});
  runToRest(sim, bar);
  const Vec3 d = meanDisplacement(sim, tip);
  return {-d.y() / bar.length, -d.x() / bar.length, NAN};  // the slope is not measured
}

double hangingStretch(const Bar& bar, double gravity) {
  Simulation sim(barScene(bar, true, Vec3(gravity, 0, 0)));
  runToRest(sim, bar);
  return meanDisplacement(sim, faceVertices(sim, bar, 0.5 * bar.length)).x();
}

TorsionResult twistedBarTorque(const Bar& bar, double twist) {
  std::ostringstream turn;
  turn << R"([{"type": "keys", "keys": [{"time": 0, "rotate": {"axis": [1, 0, 0], "degrees": )" << number(twist * 180.0 / std::numbers::pi)
       << "}}]}]";
  Simulation sim(sceneWithHandles(
      bar, {handle(bar, faceSelection(bar, -0.5 * bar.length)), handle(bar, faceSelection(bar, 0.5 * bar.length), turn.str())},
      Vec3::Zero()));
  runToRest(sim, bar);
  double torque = 0;
  const Vec3 centre(0.5 * bar.length, 0, 0);
  for (const Attachment& a : sim.model().attachments) {
    if (a.handle != 1) continue;
    const Vec3 x = vertex(sim.positions(), a.vertex);
    torque += (x - centre).cross(a.stiffness * (a.target - x)).x();
  }
  return {torque, faceTurn(sim, faceVertices(sim, bar, 0.5 * bar.length)) - faceTurn(sim, faceVertices(sim, bar, -0.5 * bar.length))};
}

Oscillation cantileverOscillation(const Bar& bar, int periods, int steps_per_period) {
  Simulation sim(barScene(bar, true, Vec3(0, -9.81, 0)));
  runToRest(sim, bar);
  const double step = 1.0 / (cantileverFirstFrequency(bar) * steps_per_period);
  for (const char* edit : {"gravity=0,0,0", "damping=0", "integrator=implicit_midpoint"}) sim.apply(parseAssignment(edit));
  sim.apply(SetParameter{"time_step", step});
  startAt(sim, sim.positions());
  const std::vector<int> tip = faceVertices(sim, bar, 0.5 * bar.length);
  Oscillation out;
  out.time.push_back(0.0);
  out.tip.push_back(meanDisplacement(sim, tip).y());
  for (int k = 1; k <= periods * steps_per_period; ++k) {
    sim.step();
    out.time.push_back(k * step);
    out.tip.push_back(meanDisplacement(sim, tip).y());
  }
  // Zero crossings by linear interpolation; half a period between consecutive ones.
  std::vector<double> crossings;
  for (size_t k = 1; k < out.tip.size(); ++k)
    if ((out.tip[k - 1] < 0) != (out.tip[k] < 0))
      crossings.push_back(out.time[k - 1] + step * out.tip[k - 1] / (out.tip[k - 1] - out.tip[k]));
  out.frequency = crossings.size() < 2 ? NAN : 0.5 * (crossings.size() - 1) / (crossings.back() - crossings.front());
  return out;
}

std::vector<double> swingingBarEnergy(const Bar& bar, const std::string& integrator, int frames, double time_step) {
  const double axis = 1e-3 * bar.height / bar.cells;  // the left face's vertices on its horizontal mid-line
  Scene scene = sceneWithHandles(bar, {handle(bar, faceSelection(bar, -0.5 * bar.length, axis))}, Vec3(0, -9.81, 0));
  applyOverride(scene, "damping", "0");
  applyOverride(scene, "integrator", integrator);
  applyOverride(scene, "time_step", number(time_step));
  Simulation sim(scene);
  const auto total = [&sim] {
    const Model& m = sim.model();
    double e = sim.lastFrame().kinetic_energy + sim.lastFrame().elastic_energy;  // zero before the first frame
    for (int v = 0; v < m.vertexCount(); ++v) e += m.mass[v] * 9.81 * sim.positions()[3 * v + 1];
    for (const Attachment& a : m.attachments) e += 0.5 * a.stiffness * (vertex(sim.positions(), a.vertex) - a.target).squaredNorm();
    return e;
  };
  std::vector<double> energy = {total()};
  for (int f = 0; f < frames; ++f) {
    sim.step();
    energy.push_back(total());
  }
  return energy;
}

double extrapolateToZero(const double h[3], const double v[3]) {
  const double ratio = (v[0] - v[1]) / (v[1] - v[2]);
  const auto model = [&](double p) { return (std::pow(h[0], p) - std::pow(h[1], p)) / (std::pow(h[1], p) - std::pow(h[2], p)); };
  double lo = 1e-3, hi = 10.0;
  if (!(ratio > model(lo) && ratio < model(hi))) return NAN;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (model(mid) < ratio ? lo : hi) = mid;
  }
  const double p = 0.5 * (lo + hi), C = (v[0] - v[1]) / (std::pow(h[0], p) - std::pow(h[1], p));
  return v[2] - C * std::pow(h[2], p);
}

}  // namespace qnsim

// ---- `qnsim experiment validation` ----

namespace qnsim {
namespace {

struct Row {
  std::string quantity;
  int cells;
  double parameter, measured, theory;
};

std::string csv(const std::vector<Row>& rows) {
  std::ostringstream out;
  out.precision(10);
  out << "quantity,cells,parameter,measured,theory,ratio\n";
  for (const Row& r : rows)
    out << r.quantity << ',' << r.cells << ',' << r.parameter << ',' << r.measured << ',' << r.theory << ',' << r.measured / r.theory
        << '\n';
  return out.str();
}

// A curve with a look of its own (colour, dash, symbol), so that a measurement and its theory, drawn in
// one colour, stay apart in print: theory plain, measurement with symbols.
plot::Series series(const std::string& label, plot::Color color, plot::Dash dash, plot::Marker marker) {
  plot::Series s{label, color, {}, {}};
  s.dash = dash, s.marker = marker;
  return s;
}

plot::PlotSpec finish(plot::PlotSpec p, bool log_x = false, bool log_y = false) {
  p.x = plot::fitAxis(p.series, false, log_x);
  p.y = plot::fitAxis(p.series, true, log_y);
  return p;
}

template <class... Args>
std::string fmt(const char* pattern, Args... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, args...);
  return buffer;
}

}  // namespace

ExperimentReport validation(const ExperimentOptions& options) {
  const std::vector<int> sizes = options.quick ? std::vector<int>{1, 2, 3} : std::vector<int>{2, 4, 6};
  const auto progress = [&](int done, const std::string& what) {
    if (options.progress) options.progress(done, 6, "validation: " + what);
  };
  std::vector<Row> rows;
  std::string summary;
  const auto ratioPanel = [&] {
    plot::PlotSpec p{"Measured / theory against cells across the bar", "cells across", "measured / theory", {}, {}, {}, true};
    using namespace plot::palette;
    const struct {
      const char *quantity, *label;
      plot::Color color;
      plot::Dash dash;
      plot::Marker marker;
    } looks[] = {{"cantilever_deflection", "cantilever's sag", vermillion, plot::Dash::solid, plot::Marker::circle},
                 {"hanging_stretch", "hanging bar's stretch", blue, plot::Dash::dashed, plot::Marker::square},
                 {"torsion_torque", "torque of a twist", green, plot::Dash::dash_dot, plot::Marker::triangle},
                 {"first_frequency", "first bending frequency", purple, plot::Dash::dotted, plot::Marker::diamond}};
    for (const auto& look : looks) {
      plot::Series s = series(look.label, look.color, look.dash, look.marker);
      for (const Row& r : rows)
        if (r.quantity == look.quantity) s.x.push_back(r.cells), s.y.push_back(r.measured / r.theory);
      p.series.push_back(s);
    }
    plot::Series one = series("theory", plot::palette::black, plot::Dash::long_dash, plot::Marker::none);
    one.x = {0.5, sizes.back() + 0.5};
    one.y = {1.0, 1.0};
    p.series.push_back(one);
    return finish(p);
  };

  // Statics on three meshes, extrapolated to h = 0.
  const auto staticSeries = [&](const std::string& quantity, const std::function<double(const Bar&)>& measure, double theory) {
    double h[3], v[3];
    for (int i = 0; i < 3; ++i) {
      Bar bar;
      bar.cells = sizes[i];
      v[i] = measure(bar);
      h[i] = 1.0 / sizes[i];
      rows.push_back({quantity, sizes[i], 0.0, v[i], theory});
    }
    const double limit = extrapolateToZero(h, v);
    summary += quantity + fmt(": measured / theory %.4f, %.4f, %.4f on %d, %d and %d cells across; extrapolated to h = 0: %.4f\n",
                              v[0] / theory, v[1] / theory, v[2] / theory, sizes[0], sizes[1], sizes[2], limit / theory);
  };
  progress(0, "cantilever");
  const Bar reference;
  staticSeries(
      "cantilever_deflection", [](const Bar& b) { return cantileverDeflection(b); }, cantileverSelfWeightDeflection(reference, 9.81));
  progress(1, "hanging bar");
  staticSeries(
      "hanging_stretch", [](const Bar& b) { return hangingStretch(b); }, hangingBarStretch(reference, 9.81));
  progress(2, "torsion");
  const double twist = 0.02;
  staticSeries(
      "torsion_torque",
      [&](const Bar& b) {
        const TorsionResult t = twistedBarTorque(b, twist);
        return t.torque * twist / t.twist;  // at exactly the twist asked for
      },
      saintVenantTorque(reference, twist));

  // Dynamics: the first bending frequency, and the tip's motion on the finest mesh.
  progress(3, "first bending frequency");
  Oscillation finest;
  double h[3], f[3];
  for (int i = 0; i < 3; ++i) {
    Bar bar;
    bar.cells = sizes[i];
    const Oscillation o = cantileverOscillation(bar, options.quick ? 2 : 3, 40);
    rows.push_back({"first_frequency", sizes[i], 0.0, o.frequency, cantileverFirstFrequency(bar)});
    h[i] = 1.0 / sizes[i];
    f[i] = o.frequency;
    if (i == 2) finest = o;
  }
  const double f_theory = cantileverFirstFrequency(reference);
  summary += fmt("first bending frequency: %.3f, %.3f, %.3f Hz against Euler-Bernoulli's %.3f Hz; extrapolated to h = 0: %.4f of it\n",
                 f[0], f[1], f[2], f_theory, extrapolateToZero(h, f) / f_theory);

  // Large deflection: the slender bar (L / h = 20) against the elastica.
  progress(4, "large deflection");
  Bar slender;
  slender.height = slender.width = 0.05;
  slender.poisson = 0.0;
  slender.cells = options.quick ? 2 : 4;
  const std::vector<double> alphas = options.quick ? std::vector<double>{1, 3} : std::vector<double>{0.5, 1, 2, 3, 4, 6, 8, 10};
  plot::PlotSpec large{"Cantilever with a dead tip load: tip deflection / L (" + std::to_string(slender.cells) + " cells across, L/h = 20)",
                       "P L² / (E I)",
                       "deflection / L",
                       {},
                       {},
                       {},
                       true};
  using plot::palette::black, plot::palette::vermillion;
  plot::Series across = series("elastica, across", black, plot::Dash::solid, plot::Marker::none),
               along = series("elastica, along", black, plot::Dash::dashed, plot::Marker::none),
               across_fem = series("qnsim, across", vermillion, plot::Dash::solid, plot::Marker::circle),
               along_fem = series("qnsim, along", vermillion, plot::Dash::dashed, plot::Marker::square);
  for (double a = 0; a <= alphas.back() + 1e-9; a += alphas.back() / 40) {
    const ElasticaTip e = elasticaTip(a);
    across.x.push_back(a), across.y.push_back(e.across), along.x.push_back(a), along.y.push_back(e.along);
  }
  double worst = 0;
  for (double a : alphas) {
    const ElasticaTip m = tipLoadDeflection(slender, a * slender.young * slender.inertia() / (slender.length * slender.length)),
                      e = elasticaTip(a);
    across_fem.x.push_back(a), across_fem.y.push_back(m.across), along_fem.x.push_back(a), along_fem.y.push_back(m.along);
    rows.push_back({"elastica_across", slender.cells, a, m.across, e.across});
    rows.push_back({"elastica_along", slender.cells, a, m.along, e.along});
    worst = std::max(worst, std::abs(m.across / e.across - 1));
  }
  large.series = {across, along, across_fem, along_fem};
  summary +=
      fmt("large deflection (P L^2/(E I) up to %g): tip deflection across within %.1f %% of the elastica\n", alphas.back(), 100 * worst);

  // Energy of an undamped swinging bar per integrator.
  progress(5, "integrators' energy");
  Bar swinging;
  swinging.young = 1e7;
  swinging.cells = 2;
  const int frames = options.quick ? 30 : 90;
  plot::PlotSpec energy{"Swinging bar, no damping: total energy / (m g L / 2)", "time (s)", "E(t) - E(0), relative", {}, {}, {}, true};
  const double scale = swinging.density * swinging.area() * swinging.length * 9.81 * swinging.length / 2;
  const struct {
    const char *integrator, *label;
    plot::Color color;
    plot::Dash dash;
    plot::Marker marker;
  } integrators[] = {{"backward_euler", "backward Euler", plot::palette::blue, plot::Dash::dashed, plot::Marker::triangle_down},
                     {"bdf2", "BDF2", plot::palette::green, plot::Dash::dash_dot, plot::Marker::diamond},
                     {"implicit_midpoint", "implicit midpoint", vermillion, plot::Dash::solid, plot::Marker::circle}};
  for (const auto& [integrator, label, color, dash, marker] : integrators) {
    const std::vector<double> e = swingingBarEnergy(swinging, integrator, frames, 1.0 / 30);
    plot::Series s = series(label, color, dash, marker);
    for (size_t k = 0; k < e.size(); ++k) s.x.push_back(k / 30.0), s.y.push_back((e[k] - e[0]) / scale);
    rows.push_back({"energy_" + std::string(integrator), swinging.cells, frames / 30.0, (e.back() - e[0]) / scale, 1.0});
    double largest = 0;
    for (double value : e) largest = std::max(largest, std::abs(value - e[0]) / scale);
    summary += std::string(integrator) +
               fmt(" energy change after %.0f s: %+.3f of m g L/2 (largest %.3f)\n", frames / 30.0, (e.back() - e[0]) / scale, largest);
    energy.series.push_back(s);
  }

  plot::PlotSpec tip{"Released cantilever's tip (" + std::to_string(sizes[2]) + " cells across), implicit midpoint",
                     "time (s)",
                     "tip displacement (m)",
                     {},
                     {},
                     {},
                     true};
  plot::Series motion = series("qnsim", vermillion, plot::Dash::solid, plot::Marker::circle),
               theory = series("Euler–Bernoulli: a cos(2π f t)", black, plot::Dash::dashed, plot::Marker::none);
  for (size_t k = 0; k < finest.time.size(); ++k) {
    motion.x.push_back(finest.time[k]), motion.y.push_back(finest.tip[k]);
    theory.x.push_back(finest.time[k]), theory.y.push_back(finest.tip[0] * std::cos(2 * std::numbers::pi * f_theory * finest.time[k]));
  }
  tip.series = {motion, theory};

  std::filesystem::create_directories(options.out);
  const std::filesystem::path base = options.out / "validation";
  ExperimentReport report{"validation",
                          "Physics against theory",
                          "beam theory (Euler-Bernoulli with Timoshenko's shear term), Saint-Venant "
                          "torsion and hanging bar, the elastica (Bisshopp and Drucker 1945), energy behaviour of the integrators",
                          summary,
                          {}};
  writeFileBytes(base.string() + ".csv", csv(rows));
  writeFigure(base, {ratioPanel(), finish(large), finish(tip), finish(energy)}, "Physics against theory", report, {2, false});
  progress(6, "done");
  return report;
}

}  // namespace qnsim
