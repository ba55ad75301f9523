// `qnsim experiment contact` (docs/contact.md): the paper's penalties against barrier contact on every
// catalog scene with contact (a collider or self-collisions). Each scene runs whole under both models
// with the exact intersection check after every frame; at two sampled frames the relative error of
// Eq. 12 after 10 iterations is measured against the lowest g that a 300-iteration solve of the same
// frame, by the same model from the same state, reaches. Then the methods beside Algorithm 1's on the
// soft bar's fold, under both models.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/scene/catalog.h"
#include "experiments/figures.h"
#include "experiments/trajectory.h"
#include "plot/method_style.h"

namespace qnsim {
namespace {

// The barrier as the scene has it, and with self-contact switched on where the scene leaves it off:
// the barrier holds apart what it is asked to, and the scenes' own setting decides whether a body's
// surface may pass through itself.
const std::vector<Method> kModels = {{"penalty", {"contact.model=penalty"}},
                                     {"barrier", {"contact.model=barrier"}},
                                     {"barrier+self", {"contact.model=barrier", "self_collision.enabled=true"}}};
// The bunny through the torus, whose sphere drives into the bunny faster than ten iterations let it give
// way, also with the sphere pushing it within the solve (docs/contact.md) under the inversion guard.
const Method kPushed = {"barrier+push", {"contact.model=barrier", "contact.push=true", "solver.inversion_guard=true"}};
constexpr int kReferenceIterations = 300;
// The methods beside Algorithm 1's (ours, PD, Newton and the other line searches) on the soft bar's fold,
// which under the penalties they fold through itself: under contact.model=barrier ADMM bounds its global
// step by collision detection and runs the barrier; position-based FEM, VBD and Jacobi keep the penalties
// and collision detection cuts every move they make.
const std::vector<std::string> kOtherMethods = {"pbd", "xpbd", "vbd", "jacobi", "admm"};

// A scene of the experiment: its name, frames, and the models it runs.
struct ContactScene {
  std::string name;
  int frames;
  bool self_contact;  // the scene's own self_collision.enabled
  std::vector<Method> models;
};

// The models a scene runs: the third only where it differs from the second, and not on the bunny
// through the torus, whose frames then take seconds each once the ring squeezes it (its soft tets turn
// inside out under both models, and the self-contact broad phase finds its folded surface everywhere);
// there the push instead.
ContactScene contactScene(const std::string& name, const Scene& scene, int frames) {
  const bool self_contact = scene.settings.self_collision.enabled;
  std::vector<Method> models = kModels;
  if (self_contact || name == "bunny_torus") models.pop_back();
  if (name == "bunny_torus") models.push_back(kPushed);
  return {name, frames, self_contact, std::move(models)};
}

// Every catalog scene with a collider or self-contact, or (quick) two of them for 12 frames.
std::vector<ContactScene> contactScenes(bool quick) {
  std::vector<ContactScene> out;
  for (const std::string& name : quick ? std::vector<std::string>{"soft_body_fold", "cube_isotropic"} : catalogSceneNames()) {
    const Scene scene = loadScene(catalogScenePath(name));
    if (!scene.colliders.empty() || scene.settings.self_collision.enabled) out.push_back(contactScene(name, scene, quick ? 12 : scene.frames));
  }
  return out;
}

// The frame's columns beyond the trajectory CSV's own.
std::vector<TrajectoryQuantity> quantities() {
  const auto column = [](const char* name, const char* title, bool log, double (*value)(const FrameRecord&)) {
    return TrajectoryQuantity{name, title, log, [value](const Simulation& sim) { return value(sim.lastFrame()); }};
  };
  return {column("intersections", "Crossings (exact check)", false, [](const FrameRecord& r) { return double(r.intersections); }),
          column("trials_per_iteration", "Line-search trials per iteration", false,
                 [](const FrameRecord& r) { return r.iterations > 0 ? double(r.ls_trials) / r.iterations : 0.0; }),
          column("max_penetration", "Deepest penetration (m)", false, [](const FrameRecord& r) { return r.max_penetration; }),
          column("min_distance", "Smallest barrier distance (m)", false, [](const FrameRecord& r) { return r.min_distance; }),
          column("barrier_pairs", "Barrier pairs", false, [](const FrameRecord& r) { return double(r.barrier_pairs); }),
          column("ccd_step", "Smallest step bound", false, [](const FrameRecord& r) { return r.ccd_step; }),
          column("collider_lag", "Colliders behind their script (m)", false, [](const FrameRecord& r) { return r.collider_lag; })};
}

// (g_10 - g*) / (g_0 - g*) of the next frame, g* the lowest g of a long solve from the same state; the
// simulation is left as it was.
double errorAfterTen(Simulation& sim) {
  const SimState before = sim.state();
  const ParameterValue iterations = sim.value("solver.iterations");
  const auto solve = [&](int n) {
    sim.apply(SetParameter{"solver.iterations", std::to_string(n)});
    sim.step();
    std::vector<double> g;
    for (const IterationRecord& it : sim.lastSolve().iterations) g.push_back(it.g);
    sim.apply(LoadState{before});
    return g;
  };
  const std::vector<double> ten = solve(10), reference = solve(kReferenceIterations);
  sim.apply(SetParameter{"solver.iterations", iterations});
  const double g_star = std::min(*std::min_element(ten.begin(), ten.end()), *std::min_element(reference.begin(), reference.end()));
  const double range = ten.front() - g_star;
  return range > 1e-12 * std::abs(ten.front()) ? (ten.back() - g_star) / range : NAN;  // NaN: the frame starts solved
}

struct ModelRun {
  TrajectoryResult trajectory;
  std::vector<double> errors;  // at the sampled frames
};

ModelRun run(const std::string& name, const Method& model, int frames, const std::vector<TrajectoryQuantity>& columns) {
  Scene scene = loadScene(catalogScenePath(name));
  for (const std::string& e : model.edits) applyOverride(scene, e);
  Simulation sim(scene);
  sim.setIntersectionCheck(true);
  ModelRun r{{{name + "/" + model.label, model.edits}, {}, std::vector<std::vector<double>>(columns.size()), {}, {}}, {}};
  for (int f = 1; f <= frames; ++f) {
    if (f == frames / 3 || f == 2 * frames / 3) r.errors.push_back(errorAfterTen(sim));
    sim.step();
    r.trajectory.frames.push_back(sim.lastFrame());
    for (size_t q = 0; q < columns.size(); ++q) r.trajectory.values[q].push_back(columns[q].value(sim));
  }
  return r;
}

struct Row {
  std::string scene, model;
  int frames = 0, crossing_frames = 0, most_crossings = 0, most_inverted = 0, rolled_back = 0;
  double ms = 0, trials = 0, error = NAN, closest = INFINITY;
  int most_pairs = 0;
  bool self_contact = false;  // a barrier run with self-contact on
};

Row summarize(const std::string& scene, const std::string& model, const ModelRun& r) {
  Row row{scene, model};
  int iterations = 0, trials = 0;
  for (const FrameRecord& f : r.trajectory.frames) {
    ++row.frames;
    row.crossing_frames += f.intersections > 0;
    row.most_crossings = std::max(row.most_crossings, f.intersections);
    row.most_inverted = std::max(row.most_inverted, f.inverted);
    row.rolled_back += f.rolled_back;
    row.ms += f.frame_ms;
    iterations += f.iterations, trials += f.ls_trials;
    if (f.barrier_pairs > 0) row.closest = std::min(row.closest, f.min_distance);
    row.most_pairs = std::max(row.most_pairs, f.barrier_pairs);
  }
  row.ms /= std::max(1, row.frames);
  row.trials = iterations > 0 ? double(trials) / iterations : 0.0;
  std::vector<double> e;
  for (double x : r.errors)
    if (!std::isnan(x)) e.push_back(x);
  if (!e.empty()) std::sort(e.begin(), e.end()), row.error = e[e.size() / 2];  // the median (the upper one of two)
  return row;
}

std::string table(const std::vector<Row>& rows) {
  std::string text =
      "| scene | model | frames | frames crossing | most crossings | most inverted tets | ms per frame | trials per iteration | "
      "error after 10 iterations | smallest barrier distance (m) | most barrier pairs |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const Row& r : rows) {
    char line[400], closest[32] = "–", error[32] = "–";
    if (std::isfinite(r.closest)) std::snprintf(closest, sizeof closest, "%.2g", r.closest);
    if (!std::isnan(r.error)) std::snprintf(error, sizeof error, "%.2g", r.error);
    std::snprintf(line, sizeof line, "| %s | %s | %d | %s%d%s | %d | %d | %.3g | %.2f | %s | %s | %s |\n", r.scene.c_str(), r.model.c_str(),
                  r.frames, r.crossing_frames == 0 ? "**" : "", r.crossing_frames, r.crossing_frames == 0 ? "**" : "", r.most_crossings,
                  r.most_inverted, r.ms, r.trials, error, closest, r.model != "penalty" ? std::to_string(r.most_pairs).c_str() : "–");
    text += line;
  }
  return text;
}

std::vector<std::string> otherMethods(bool quick) { return quick ? std::vector<std::string>{"xpbd"} : kOtherMethods; }

// Each of otherMethods on the soft bar's fold (quick: 12 frames) under the penalties and the barrier;
// `done` of `runs` counts the runs for the progress report.
std::vector<Row> otherMethodRows(const ExperimentOptions& o, const std::vector<TrajectoryQuantity>& columns, int& done, int runs) {
  std::vector<Row> rows;
  const int frames = o.quick ? 12 : loadScene(catalogScenePath("soft_body_fold")).frames;
  for (const std::string& method : otherMethods(o.quick))
    for (size_t m = 0; m < 2; ++m) {  // penalty, barrier
      if (o.progress) o.progress(done++, runs, "contact: soft_body_fold, " + method + ", " + kModels[m].label);
      Method model = kModels[m];
      model.edits.push_back("solver.method=" + method);
      rows.push_back(summarize("soft_body_fold, " + method, kModels[m].label, run("soft_body_fold", model, frames, columns)));
    }
  return rows;
}

int crossingFrames(const std::vector<Row>& rows, const std::string& model) {
  int frames = 0;
  for (const Row& r : rows) frames += r.model == model ? r.crossing_frames : 0;
  return frames;
}

// The runs with the colliders pushing: frames crossing and tets inverted at most ("" when none ran).
std::string pushedLine(const std::vector<Row>& rows) {
  std::string line;
  for (const Row& r : rows)
    if (r.model == kPushed.label)
      line += "\n" + r.scene + " with the colliders pushing within the solve, under the inversion guard: " + std::to_string(r.crossing_frames) +
              " frames crossing, " + std::to_string(r.most_inverted) + " tets inverted at most";
  return line;
}

// Crossings and ms per frame over the frames of a few scenes, penalty against barrier.
std::vector<plot::PlotSpec> panels(const std::vector<TrajectoryResult>& results, const std::vector<std::string>& shown) {
  std::vector<plot::PlotSpec> out;
  for (const std::string& scene : shown)
    for (const auto& [q, title, log] : {std::tuple{0, "crossings (exact check)", false}, std::tuple{-1, "ms per frame", true}}) {
      plot::PlotSpec p{scene + ": " + title, "frame", title, {}, {}, {}, true};
      for (const TrajectoryResult& r : results) {
        if (r.method.label.rfind(scene + "/", 0) != 0) continue;
        const bool barrier = r.method.label.ends_with("barrier"), self = r.method.label.ends_with("barrier+self"),
                   pushed = r.method.label.ends_with(kPushed.label);
        const int look = pushed ? 3 : self ? 2 : barrier ? 1 : 0;
        plot::Series s = plot::methodSeries(pushed ? kPushed.label : self ? "barrier+self" : barrier ? "barrier" : "penalty", look);
        s.label = pushed    ? "Barrier, the sphere pushing (guard)"
                  : self    ? "Barrier with self-contact"
                  : barrier ? "Barrier (IPC)"
                            : "Penalty (Sec. 4.3)";
        for (size_t k = 0; k < r.frames.size(); ++k) {
          s.x.push_back(r.frames[k].frame);
          s.y.push_back(q < 0 ? r.frames[k].frame_ms : r.values[q][k]);
        }
        p.series.push_back(std::move(s));
      }
      p.x = plot::fitAxis(p.series, false, false);
      p.y = plot::fitAxis(p.series, true, log);
      if (!log) plot::include(p.y, 0.0);
      out.push_back(std::move(p));
    }
  return out;
}

}  // namespace

ExperimentReport contact(const ExperimentOptions& o) {
  const std::vector<ContactScene> scenes = contactScenes(o.quick);
  const std::vector<TrajectoryQuantity> columns = quantities();
  std::vector<TrajectoryResult> results;
  std::vector<Row> rows;
  int done = 0, runs = 0;
  for (const ContactScene& scene : scenes) runs += static_cast<int>(scene.models.size());
  runs += 2 * static_cast<int>(otherMethods(o.quick).size());
  for (const ContactScene& scene : scenes)
    for (const Method& model : scene.models) {
      if (o.progress) o.progress(done++, runs, "contact: " + scene.name + ", " + model.label);
      const ModelRun r = run(scene.name, model, scene.frames, columns);
      rows.push_back(summarize(scene.name, model.label, r));
      rows.back().self_contact = model.label == "barrier+self" || (model.label == "barrier" && scene.self_contact);
      results.push_back(r.trajectory);
    }
  const std::vector<Row> method_rows = otherMethodRows(o, columns, done, runs);
  std::vector<std::string> shown;
  for (const char* s : {"bunny_torus", "soft_body_fold", "cloth_sphere_fold"})
    if (std::any_of(scenes.begin(), scenes.end(), [&](const ContactScene& c) { return c.name == s; })) shown.push_back(s);
  TrajectorySetup setup{"contact", "Penalty against barrier contact",
                        "(not in the paper) Sec. 4.3's penalties let surfaces overlap by design; Incremental Potential Contact (Li et al. "
                        "2020) keeps every iterate apart",
                        o.quick ? "two contact scenes" : "every catalog contact scene", 0, 0, kModels};
  setup.quantities = columns;
  setup.panels = [&](const std::vector<TrajectoryResult>& r) { return panels(r, shown); };
  // Every scene's barrier run with self-contact on: its own where the scene has it, the third otherwise.
  int crossing_self = 0, scenes_self = 0;
  for (const Row& r : rows)
    if (r.self_contact) crossing_self += r.crossing_frames, ++scenes_self;
  const std::string summary = table(rows) + "\nframes the exact check finds crossing: penalty " + std::to_string(crossingFrames(rows, "penalty")) +
                              ", barrier " + std::to_string(crossingFrames(rows, "barrier")) + ", barrier with self-contact " + std::to_string(crossing_self) +
                              " (" + std::to_string(scenes_self) + " scenes); the barrier with self-contact keeps every frame of those scenes apart " +
                              verdict(crossing_self == 0) + pushedLine(rows) + "\n\nThe other methods on the soft bar's fold:\n\n" + table(method_rows) +
                              "\nunder contact.model=barrier no frame of theirs crosses " + verdict(crossingFrames(method_rows, "barrier") == 0);
  return writeTrajectories(setup, o, results, summary);
}

}  // namespace qnsim
