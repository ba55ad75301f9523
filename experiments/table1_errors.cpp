// Table I's relative errors explained by measurement (`qnsim experiment table1_errors`, written up in
// docs/reproduction.md): Table I's two errors (Eq. 12), ours after 10 iterations and one Newton iteration,
// on every frame of the trajectory ours runs on each of the paper's scenes; then, on the twisting bar and
// the thin sheet, one thing of the protocol changed at a time: the motion's speed, the material, the line
// search, where the frame starts (Eq. 12's x_0) and how far x* is solved; and one Newton iteration per
// frame on the trajectory it runs itself, on every scene.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>

#include "core/common/files.h"
#include "core/scene/catalog.h"
#include "experiments/figures.h"
#include "experiments/statistics.h"
#include "experiments/timing.h"
#include "plot/method_style.h"

namespace qnsim {
namespace {

// x* solved only until |grad g| <= tau |grad g(x_0)|, as a looser "until convergence" would leave it.
const std::vector<double> kLoose = {1e-1, 1e-2, 1e-3, 1e-4, 1e-6};

// The label of a catalog scene run as it is (the runs every table and panel starts from).
const std::string kAsInTheCatalog = "as in the catalog";

// A way of measuring the two errors on the same frames: the edits of ours and of the Newton iteration.
struct Variant {
  std::string label;
  std::vector<std::string> ours, newton;  // solver.* edits
};

const Variant kPaper{"the paper's protocol (from y with Armijo)", {}, {}};
const std::vector<Variant> kProtocolVariants = {
    kPaper,
    {"Newton without line search", {}, {"solver.line_search=none"}},
    {"both without line search", {"solver.line_search=none"}, {"solver.line_search=none"}},
    {"both from x_n (the last frame's end)", {"solver.initial_guess=previous"}, {"solver.initial_guess=previous"}},
};

// One trajectory: a catalog scene, edited, and the variants measured on each of its frames.
struct Run {
  std::string scene, label;
  std::function<void(Scene&)> edit;
  std::vector<Variant> variants = {kPaper};
  std::string axis;    // what a sweep scales ("speed", "stiffness"); empty for the catalog's scene
  double factor = 1;   // by how much
  bool loose = false;  // also measure against x* solved to each kLoose tolerance
  bool own = false;    // also run one Newton iteration per frame on its own trajectory
};

// Both errors of one variant on one frame, each from the method's own start against the lowest g any
// solve of the frame reached; for the paper's variant also against x* solved only to each kLoose
// tolerance (signed: negative where the method went past that x*).
struct FrameErrors {
  int frame = 0;
  std::vector<double> ours, newton;  // per variant
  std::vector<double> ours_loose, newton_loose;
};

// g* of the frame, from a trace that starts at y: compareNextFrame measured it against g*, so
// e_K = (g_K - g*) / (g_0 - g*) gives g* back.
double gStarOf(const MethodTrace& from_y) {
  const double g0 = from_y.result.iterations.front().g, gK = from_y.result.iterations.back().g, e = from_y.rel_error.back();
  return gK - e * (g0 - gK) / (1 - e);
}

// Eq. 12 with x_0 the method's own start.
double relativeError(const MethodTrace& t, double g_star) {
  return (t.result.iterations.back().g - g_star) / (t.result.iterations.front().g - g_star);
}

// g at the first iterate of a Newton solve within `tau` of stationarity (its last when none is).
double looseMinimum(const MethodTrace& exact, double tau) {
  const double target = tau * exact.result.iterations.front().grad_norm;
  for (const IterationRecord& it : exact.result.iterations)
    if (it.grad_norm <= target) return it.g;
  return exact.result.iterations.back().g;
}

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The methods of one frame: per variant ours and Newton, then (for the loose study) Newton to round-off.
std::vector<Method> methodsOf(const Run& run) {
  std::vector<Method> methods;
  for (const Variant& v : run.variants) {
    methods.push_back({"ours", v.ours});
    methods.push_back({"newton", joined({"solver.method=newton", "solver.iterations=1"}, v.newton)});
  }
  if (run.loose) methods.push_back({"exact", {"solver.method=newton", "solver.iterations=30", "solver.gradient_tolerance=1e-11"}});
  return methods;
}

Scene sceneOf(const Run& run, const Scene& catalog) {
  Scene scene = catalog;
  if (run.edit) run.edit(scene);
  applyOverride(scene, "solver.gradient_tolerance", "0");  // ours' own trajectory takes every iteration
  return scene;
}

std::vector<FrameErrors> measureRun(const Run& run, const Scene& catalog, int frames) {
  const Scene scene = sceneOf(run, catalog);
  Simulation sim(scene);
  const std::vector<Method> methods = methodsOf(run);
  std::vector<FrameErrors> out;
  for (int f = 0; f < std::min(frames, scene.frames); ++f) {
    const std::vector<MethodTrace> traces = sim.compareNextFrame(methods);
    // Ours under the paper's protocol starts at y, so e_0 = 1, unless x = y already solves the frame (free
    // fall), where compareNextFrame reports 0.
    if (traces[0].rel_error.front() == 1.0 && traces[0].rel_error.back() < 1.0) {
      const double g_star = gStarOf(traces[0]);
      FrameErrors e{f + 1, {}, {}, {}, {}};
      for (size_t v = 0; v < run.variants.size(); ++v)
        e.ours.push_back(relativeError(traces[2 * v], g_star)), e.newton.push_back(relativeError(traces[2 * v + 1], g_star));
      for (double tau : run.loose ? kLoose : std::vector<double>{}) {
        const double g_loose = looseMinimum(traces.back(), tau);
        e.ours_loose.push_back(relativeError(traces[0], g_loose));
        e.newton_loose.push_back(relativeError(traces[1], g_loose));
      }
      out.push_back(std::move(e));
    }
    sim.step();
  }
  return out;
}

// Newton's error (one iteration per frame, from y with Armijo) on the trajectory it runs itself, each frame
// against that frame's x* (Simulation's reference), and the tets it inverts; frames it rolled back or where
// x = y is already as low as x* (a trajectory gone far off, where the exact solve gains nothing) are left out.
// Ours' own trajectory is the one every other measurement here runs on.
struct OwnTrajectory {
  std::vector<int> frame;
  std::vector<double> newton;
  int first_inverted = 0, most_inverted = 0;  // the first frame ending with an inverted tet (0: none), and the most
};

OwnTrajectory newtonOwnTrajectory(const Run& run, const Scene& catalog, int frames) {
  Scene scene = sceneOf(run, catalog);
  applyOverride(scene, "solver.method", "newton");
  applyOverride(scene, "solver.iterations", "1");
  Simulation sim(scene);
  sim.setReferenceEnabled(true);
  OwnTrajectory own;
  for (int f = 0; f < std::min(frames, scene.frames); ++f) {
    sim.step();
    const std::vector<double>& e = sim.lastRelativeErrors();
    if (e.size() >= 2 && e.front() == 1.0 && sim.lastWarning().empty()) own.frame.push_back(f + 1), own.newton.push_back(e.back());
    const int inverted = sim.lastFrame().inverted;
    if (inverted > 0 && own.first_inverted == 0) own.first_inverted = f + 1;
    own.most_inverted = std::max(own.most_inverted, inverted);
  }
  return own;
}

// The scene's handles moving `factor` times as fast over the same times (so `factor` times as far).
void speedUp(Scene& scene, double factor) {
  const auto scale = [factor](std::vector<MotionSegment>& motion) {
    for (MotionSegment& m : motion) {
      m.rate *= factor;
      if (m.type == MotionSegment::Type::Translate) m.vector *= factor;
      m.amplitude *= factor;
    }
  };
  for (BodyDesc& b : scene.bodies)
    for (HandleDesc& h : b.handles) scale(h.motion);
}

// Every material constant `name` of the scene's materials times `factor`.
void scaleConstant(Scene& scene, const std::string& name, double factor) {
  for (BodyDesc& b : scene.bodies)
    for (MaterialDesc& m : b.materials) {
      std::shared_ptr<Material> scaled = m.material->clone();
      scaled->set(name, factor * m.material->get(name));
      m.material = scaled;
    }
}

std::string factorText(double f) {
  char text[16];
  std::snprintf(text, sizeof text, "%g", f);
  return text;
}

// A catalog scene as it is, measured under the given variants.
Run asInTheCatalog(const std::string& scene, std::vector<Variant> variants = {kPaper}, bool loose = false) {
  return {scene, kAsInTheCatalog, {}, std::move(variants), "", 1, loose, true};
}

// A catalog scene edited, under the paper's protocol.
Run edited(const std::string& scene, const std::string& label, std::function<void(Scene&)> edit, const std::string& axis = "",
           double factor = 1) {
  return {scene, label, std::move(edit), {kPaper}, axis, factor, false};
}

// The runs: every Table I scene of the catalog under the paper's protocol (the twisting bar and the thin
// sheet with every variant), then the two at other speeds and the bar in another material.
std::vector<Run> runsOf(bool quick) {
  // A quick run: the thin sheet alone (the smallest), at the catalog's and a quarter of its gravity.
  std::vector<Run> runs = {asInTheCatalog("thin_sheet", kProtocolVariants, true)};
  if (!quick) runs.insert(runs.begin(), asInTheCatalog("twisting_bar", kProtocolVariants, true));
  if (!quick)
    for (const char* s : {"shaking_bar", "sphere_spline_a", "sphere_spline_b", "hippo", "cloth", "bunny_torus", "squirrel_head"})
      runs.push_back(asInTheCatalog(s));
  for (double f : quick ? std::vector<double>{0.25} : std::vector<double>{0.125, 0.25, 0.5, 2.0}) {
    if (!quick)
      runs.push_back(edited(
          "twisting_bar", "twist x" + factorText(f), [f](Scene& s) { speedUp(s, f); }, "speed", f));
    runs.push_back(edited(
        "thin_sheet", "gravity x" + factorText(f), [f](Scene& s) { applyOverride(s, "gravity", "0," + factorText(-9.81 * f) + ",0"); },
        "speed", f));
  }
  // The paper does not give the polynomial's mu: the sheet from 100 times softer to 10 times stiffer.
  for (double f : quick ? std::vector<double>{} : std::vector<double>{0.01, 0.1, 10.0}) {
    runs.push_back(edited(
        "thin_sheet", "mu4 x" + factorText(f), [f](Scene& s) { scaleConstant(s, "mu4", f); }, "stiffness", f));
    runs.back().own = true;
  }
  if (!quick)
    runs.push_back(edited("twisting_bar", "corotated (same mu and lambda)", [](Scene& s) {
      MaterialDesc& m = s.bodies.front().materials.front();
      std::shared_ptr<Material> corotated = makeMaterial("corotated");
      corotated->set("mu", m.material->get("mu")), corotated->set("lambda", m.material->get("lambda"));
      m.material = corotated;
    }));
  return runs;
}

struct Measured {
  Run run;
  std::string title;  // the scene's own name ("Twisting bar")
  std::vector<FrameErrors> frames;
  OwnTrajectory own;  // Newton's own trajectory (run.own)
  std::vector<double> ours(size_t v) const {
    return column([v](const FrameErrors& e) { return e.ours[v]; });
  }
  std::vector<double> newton(size_t v) const {
    return column([v](const FrameErrors& e) { return e.newton[v]; });
  }
  std::vector<double> column(const std::function<double(const FrameErrors&)>& of) const {
    std::vector<double> c;
    for (const FrameErrors& e : frames) c.push_back(of(e));
    return c;
  }
};

std::string sci(double v) {
  char text[24];
  std::snprintf(text, sizeof text, std::isnan(v) ? "—" : "%.1e", v);
  return text;
}

std::string percent(double v) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f %%", 100 * v);
  return text;
}

// The share of the samples below `value`.
double shareBelow(const std::vector<double>& samples, double value) {
  if (samples.empty()) return NAN;
  double below = 0;
  for (double s : samples) below += s < value;
  return below / static_cast<double>(samples.size());
}

double medianMagnitude(std::vector<double> samples) {
  for (double& s : samples) s = std::abs(s);
  return median(std::move(samples));
}

double shareWhereOursWins(const Measured& m, size_t v) {
  double wins = 0;
  for (const FrameErrors& e : m.frames) wins += e.ours[v] < e.newton[v];
  return m.frames.empty() ? NAN : wins / static_cast<double>(m.frames.size());
}

std::string spread(const std::vector<double>& samples) {
  return sci(median(samples)) + " (" + sci(quantile(samples, 0.1)) + " – " + sci(quantile(samples, 0.9)) + ")";
}

// Per scene, the paper's protocol: both distributions, the paper's values and where they fall in ours.
std::string distributionTable(const std::vector<Measured>& all) {
  std::ostringstream md;
  md << "| scene | frames | ours: median (10th – 90th percentile) | paper | paper's value at our percentile | "
        "Newton: median (10th – 90th) | paper | paper's value at our percentile | frames where ours < Newton |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const Measured& m : all) {
    if (m.run.label != kAsInTheCatalog) continue;
    const PaperTimingRow* p = paperTimingRow(m.run.scene);
    const double paper_ours = p ? p->ours_error : NAN, paper_newton = p ? p->newton_error : NAN;
    md << "| " << m.run.scene << " | " << m.frames.size() << " | " << spread(m.ours(0)) << " | " << sci(paper_ours) << " | "
       << percent(shareBelow(m.ours(0), paper_ours)) << " | " << spread(m.newton(0)) << " | " << sci(paper_newton) << " | "
       << percent(shareBelow(m.newton(0), paper_newton)) << " | " << percent(shareWhereOursWins(m, 0)) << " |\n";
  }
  return md.str();
}

// Every run and variant: the medians and who wins.
std::string factorTable(const std::vector<Measured>& all) {
  std::ostringstream md;
  md << "| scene | run | protocol | ours: median (10th – 90th) | Newton: median (10th – 90th) | frames where ours < Newton |\n"
        "|---|---|---|---:|---:|---:|\n";
  for (const Measured& m : all) {
    if (m.run.scene != "twisting_bar" && m.run.scene != "thin_sheet") continue;
    for (size_t v = 0; v < m.run.variants.size(); ++v)
      md << "| " << m.run.scene << " | " << m.run.label << " | " << m.run.variants[v].label << " | " << spread(m.ours(v)) << " | "
         << spread(m.newton(v)) << " | " << percent(shareWhereOursWins(m, v)) << " |\n";
  }
  return md.str();
}

// Each method on its own trajectory: ours' is the one the paper's protocol measures on; Newton's own runs
// one iteration per frame. Frames differ between the two, so distributions are compared, not frames.
std::string ownTrajectoryTable(const std::vector<Measured>& all) {
  std::ostringstream md;
  md << "| scene | run | ours: median (10th – 90th) | paper | Newton, own trajectory: median (10th – 90th) | paper | frames "
        "| Newton's median / ours' | Newton's first frame with an inverted tet (most inverted) |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const Measured& m : all) {
    if (!m.run.own) continue;
    const PaperTimingRow* p = paperTimingRow(m.run.scene);
    md << "| " << m.run.scene << " | " << m.run.label << " | " << spread(m.ours(0)) << " | " << sci(p ? p->ours_error : NAN) << " | "
       << spread(m.own.newton) << " | " << sci(p ? p->newton_error : NAN) << " | " << m.own.newton.size() << " | "
       << sci(median(m.own.newton) / median(m.ours(0))) << " | "
       << (m.own.first_inverted ? std::to_string(m.own.first_inverted) + " (" + std::to_string(m.own.most_inverted) + ")" : "none")
       << " |\n";
  }
  return md.str();
}

// Against x* solved to each loose tolerance: the median of |e| and the share of frames where e < 0.
std::string looseTable(const std::vector<Measured>& all) {
  std::ostringstream md;
  md << "| scene | x* to \\|grad g\\| <= tau \\|grad g(y)\\| | ours: median \\|e\\| | frames where ours passed x* | Newton: median \\|e\\| "
        "| "
        "frames where Newton passed x* |\n|---|---:|---:|---:|---:|---:|\n";
  for (const Measured& m : all) {
    if (!m.run.loose) continue;
    for (size_t i = 0; i < kLoose.size(); ++i) {
      const std::vector<double> ours = m.column([i](const FrameErrors& e) { return e.ours_loose[i]; });
      const std::vector<double> newton = m.column([i](const FrameErrors& e) { return e.newton_loose[i]; });
      md << "| " << m.run.scene << " | " << sci(kLoose[i]) << " | " << sci(medianMagnitude(ours)) << " | " << percent(shareBelow(ours, 0))
         << " | " << sci(medianMagnitude(newton)) << " | " << percent(shareBelow(newton, 0)) << " |\n";
    }
  }
  return md.str();
}

std::string csvOf(const std::vector<Measured>& all) {
  std::ostringstream csv;
  csv << "scene/run/protocol,frame,ours_rel_error,newton_rel_error\n";
  csv.precision(9);
  for (const Measured& m : all)
    for (const FrameErrors& e : m.frames)
      for (size_t v = 0; v < m.run.variants.size(); ++v)
        csv << m.run.scene << '/' << m.run.label << '/' << m.run.variants[v].label << ',' << e.frame << ',' << e.ours[v] << ','
            << e.newton[v] << '\n';
  for (const Measured& m : all)  // Newton on its own trajectory: no ours on those frames
    for (size_t k = 0; k < m.own.frame.size(); ++k)
      csv << m.run.scene << '/' << m.run.label << "/Newton on its own trajectory," << m.own.frame[k] << ",," << m.own.newton[k] << '\n';
  return csv.str();
}

// A method's look, dashed, for the paper's value as a line across the panel.
plot::Series paperLine(const std::string& method, int index, double value, const plot::Axis& x) {
  plot::Series s = plot::methodSeries(method, index);
  s.label = "paper: " + s.label;
  s.dash = plot::Dash::dashed;
  s.marker = plot::Marker::none, s.markers = false;
  s.x = {x.lo, x.hi}, s.y = {value, value};
  return s;
}

// Both errors per frame, under the paper's protocol, with the paper's values.
plot::PlotSpec perFramePanel(const Measured& m) {
  plot::PlotSpec p{"Relative error per frame, " + m.title, "frame", "relative error (Eq. 12)", {}, {}, {}, true};
  plot::Series ours = plot::methodSeries("ours", 0), newton = plot::methodSeries("newton", 1);
  ours.label += " (10 iterations)", newton.label += " (1 iteration)";
  for (const FrameErrors& e : m.frames)
    ours.x.push_back(e.frame), ours.y.push_back(e.ours[0]), newton.x.push_back(e.frame), newton.y.push_back(e.newton[0]);
  p.series = {ours, newton};
  if (!m.own.newton.empty()) {
    plot::Series own = plot::methodSeries("newton", 1);
    own.label += " (1 iteration), own trajectory";
    own.dash = plot::Dash::dotted, own.marker = plot::Marker::none, own.markers = false;
    for (size_t k = 0; k < m.own.frame.size(); ++k) {
      if (k > 0 && m.own.frame[k] > m.own.frame[k - 1] + 1) own.x.push_back(NAN), own.y.push_back(NAN);  // frames left out: a gap
      own.x.push_back(m.own.frame[k]), own.y.push_back(m.own.newton[k]);
    }
    p.series.push_back(own);
  }
  p.x = plot::fitAxis(p.series, false, false);
  if (const PaperTimingRow* row = paperTimingRow(m.run.scene))
    p.series.push_back(paperLine("ours", 0, row->ours_error, p.x)), p.series.push_back(paperLine("newton", 1, row->newton_error, p.x));
  p.y = plot::fitAxis(p.series, true, true);
  return p;
}

// The median of both errors against the factor of one scene's sweep (the catalog's scene at 1), with
// the paper's values.
plot::PlotSpec sweepPanel(const std::vector<Measured>& all, const std::string& scene, const std::string& axis, const std::string& what) {
  plot::PlotSpec p{"", what + " (x the catalog's)", "median relative error", {}, {}, {}, true};
  plot::Series ours = plot::methodSeries("ours", 0), newton = plot::methodSeries("newton", 1);
  ours.label += " (10 iterations)", newton.label += " (1 iteration)";  // as in the per-frame panels: one shared legend
  std::vector<std::pair<double, const Measured*>> points;
  for (const Measured& m : all)
    if (m.run.scene == scene && (m.run.axis == axis || m.run.label == kAsInTheCatalog))
      points.push_back({m.run.factor, &m}), p.title = m.title;
  p.title = "Median relative error against the " + what + ", " + p.title;
  std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [factor, m] : points) {
    ours.x.push_back(factor), ours.y.push_back(median(m->ours(0)));
    newton.x.push_back(factor), newton.y.push_back(median(m->newton(0)));
  }
  p.series = {ours, newton};
  p.x = plot::fitAxis(p.series, false, true);
  if (const PaperTimingRow* row = paperTimingRow(scene))
    p.series.push_back(paperLine("ours", 0, row->ours_error, p.x)), p.series.push_back(paperLine("newton", 1, row->newton_error, p.x));
  p.y = plot::fitAxis(p.series, true, true);
  return p;
}

ExperimentReport report(const std::vector<Measured>& all, const ExperimentOptions& o) {
  ExperimentReport r{"table1_errors",
                     "Table I's relative errors, explained by measurement",
                     "(Table I) ours after 10 iterations is more accurate than one Newton iteration on every scene; the errors "
                     "given are single numbers, at frames the paper does not name",
                     {},
                     {}};
  const std::string md = "### Every frame, the paper's protocol\n\n" + distributionTable(all) + "\n### One thing changed at a time\n\n" +
                         factorTable(all) + "\n### Each method on its own trajectory\n\n" + ownTrajectoryTable(all) + "\n### x* solved to a looser tolerance (the paper's protocol otherwise)\n\n" + looseTable(all);
  r.summary = md;
  const std::filesystem::path base = o.out / "table1_errors";
  std::filesystem::create_directories(o.out);
  writeFileBytes(base.string() + ".csv", csvOf(all));
  writeFileBytes(base.string() + ".md", md);
  std::vector<plot::PlotSpec> panels;
  for (const Measured& m : all)
    if (m.run.label == kAsInTheCatalog && (m.run.scene == "twisting_bar" || m.run.scene == "thin_sheet"))
      panels.push_back(perFramePanel(m));
  if (std::any_of(all.begin(), all.end(), [](const Measured& m) { return m.run.scene == "twisting_bar"; }))
    panels.push_back(sweepPanel(all, "twisting_bar", "speed", "twist speed"));
  panels.push_back(sweepPanel(all, "thin_sheet", "speed", "gravity"));
  if (std::any_of(all.begin(), all.end(), [](const Measured& m) { return m.run.axis == "stiffness"; }))
    panels.push_back(sweepPanel(all, "thin_sheet", "stiffness", "stiffness μ₄"));
  writeFigure(base, panels, "Table I's relative errors, explained", r, {2, true});
  r.files.push_back(base.string() + ".md");
  return r;
}

}  // namespace

ExperimentReport table1Errors(const ExperimentOptions& o) {
  std::vector<Run> runs = runsOf(o.quick);
  std::erase_if(runs, [&](const Run& run) { return !o.wants(run.scene); });
  std::vector<Measured> all;
  ExperimentReport written;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (o.progress)
      o.progress(static_cast<int>(i), static_cast<int>(runs.size()), "table1_errors: " + runs[i].scene + ", " + runs[i].label);
    const Scene scene = loadScene(catalogScenePath(runs[i].scene));
    const int frames = o.quick ? 6 : 300;
    all.push_back({runs[i], scene.name, measureRun(runs[i], scene, frames), {}});
    if (runs[i].own) all.back().own = newtonOwnTrajectory(runs[i], scene, frames);
    written = report(all, o);  // after every run, so that a stopped run keeps what it measured
  }
  return written;
}

}  // namespace qnsim
