// The paper's picture figures (2-6): each catalog scene of the figure run as the catalog says, its
// surfaces and rigid colliders drawn in software at the figure's frames (NAME_picture.png), and the
// energies of every run per frame (NAME.csv, .svg, .png), so that what the picture shows is also measured.
#include <algorithm>
#include <cstdio>

#include "core/scene/catalog.h"
#include "experiments/figures.h"
#include "experiments/trajectory.h"
#include "plot/mesh_picture.h"
#include "plot/method_style.h"
#include "qnsim/error.h"
#include "view/collider_mesh.h"

namespace qnsim {
namespace {

// A run of a figure: its name in the legend and the catalog scene it runs, with the edits of its solver.
struct PictureRun {
  std::string label, scene;
  std::vector<std::string> edits = {};
};

struct PictureFigure {
  std::string name, title, paper;
  std::vector<PictureRun> runs;
  int frames, quick_frames;
  std::vector<int> snapshots, quick_snapshots;  // one row of the picture per snapshot frame, one column per run
  std::string summary;                          // what to look for
};

plot::MeshPicture drawn(const std::string& label, const Snapshot& s) {
  plot::MeshPicture p{label, {s.positions.data(), s.positions.data() + s.positions.size()}, s.triangles};
  p.first_rigid = s.triangles.size() / 3;
  for (const Collider& c : s.colliders) {
    const view::DrawMesh mesh = view::colliderMesh(c);  // empty for planes (the ground)
    const int base = static_cast<int>(p.positions.size() / 3);
    p.positions.insert(p.positions.end(), mesh.positions.begin(), mesh.positions.end());
    for (unsigned i : mesh.indices) p.triangles.push_back(base + static_cast<int>(i));
  }
  return p;
}

// Per run: the largest kinetic and elastic energies, inverted tets, and the frames rolled back.
std::string measured(const std::vector<TrajectoryResult>& results) {
  std::string text;
  for (const TrajectoryResult& r : results) {
    double kinetic = 0, elastic = 0;
    int inverted = 0, rolled_back = 0, first_rolled_back = 0;
    for (const FrameRecord& f : r.frames) {
      kinetic = std::max(kinetic, f.kinetic_energy), elastic = std::max(elastic, f.elastic_energy),
      inverted = std::max(inverted, f.inverted);
      if (f.rolled_back && rolled_back++ == 0) first_rolled_back = f.frame;
    }
    char line[300];
    std::snprintf(line, sizeof line,
                  "%s: %zu frames, largest kinetic energy %.3g J, elastic %.3g J, at most %d tets inverted, %d frames rolled back",
                  r.method.label.c_str(), r.frames.size(), kinetic, elastic, inverted, rolled_back);
    text += line + (rolled_back ? " (the first: frame " + std::to_string(first_rolled_back) + ")" : std::string()) + "\n";
  }
  return text;
}

// Rows of the same width, one above the other.
plot::Image stacked(const std::vector<plot::Image>& rows) {
  plot::Image out = rows.front();
  for (size_t r = 1; r < rows.size(); ++r) {
    out.rgb.insert(out.rgb.end(), rows[r].rgb.begin(), rows[r].rgb.end());
    out.height += rows[r].height;
  }
  return out;
}

}  // namespace

void writeSnapshotPicture(const std::filesystem::path& path, const std::string& title, const std::vector<TrajectoryResult>& results,
                          const std::vector<int>& frames, const CameraDesc& view, ExperimentReport& report) {
  const plot::PictureCamera camera{
      {view.eye.x(), view.eye.y(), view.eye.z()}, {view.target.x(), view.target.y(), view.target.z()}, view.fov_degrees};
  // A row per snapshot frame with a column per run; one run's snapshots side by side in one row.
  const bool one_run = results.size() == 1;
  std::vector<std::vector<plot::MeshPicture>> grid(one_run ? 1 : frames.size());
  for (size_t row = 0; row < frames.size(); ++row)
    for (const TrajectoryResult& r : results)
      for (const Snapshot& s : r.snapshots)
        if (s.frame == frames[row])
          grid[one_run ? 0 : row].push_back(drawn(plot::methodName(r.method.label) + ", frame " + std::to_string(s.frame), s));
  std::vector<plot::Image> rows;
  for (const std::vector<plot::MeshPicture>& meshes : grid)
    if (!meshes.empty() && (one_run || meshes.size() == results.size()))
      rows.push_back(plot::renderMeshes(meshes, camera, rows.empty() ? title : "", 360));
  if (rows.empty()) return;
  plot::writePng(stacked(rows), path);
  report.files.push_back(path);
}

namespace {

ExperimentReport pictureFigure(const PictureFigure& figure, const ExperimentOptions& o) {
  const Scene first = loadScene(catalogScenePath(figure.runs.front().scene));
  TrajectorySetup setup{figure.name, figure.title, figure.paper, figure.runs.front().scene, figure.frames, figure.quick_frames, {}};
  for (const PictureRun& run : figure.runs) setup.methods.push_back({run.label, run.edits});
  setup.edit_scene = [&figure](const Method& method, Scene& scene) {  // a run of another scene than the first
    for (const PictureRun& run : figure.runs)
      if (run.label == method.label && run.scene != figure.runs.front().scene) {
        scene = loadScene(catalogScenePath(run.scene));
        scene.settings = applyMethod(scene.settings, method);
      }
  };
  setup.include_start = false;
  setup.snapshots = o.quick ? figure.quick_snapshots : figure.snapshots;
  // A quick run draws what it reached; the full one every snapshot frame.
  const std::vector<TrajectoryResult> results = simulateTrajectories(setup, o);
  ExperimentReport report = writeTrajectories(setup, o, results, figure.summary + "\n" + measured(results));

  writeSnapshotPicture(o.out / (figure.name + "_picture.png"), figure.title, results, setup.snapshots, first.camera, report);
  return report;
}

// The figures, in the paper's order.
const std::vector<PictureFigure>& pictureFigures() {
  static const std::vector<PictureFigure> list = {
      {"fig2",
       "Fig. 2: the squirrel head, soft PD, stiff PD and the polynomial material",
       "soft PD distorts the face, stiff PD is overly rigid (no jiggle); the polynomial material jiggles without "
       "large distortion (frames 47 and 139)",
       {{"Soft PD", "squirrel_head_soft_pd"}, {"Stiff PD", "squirrel_head_stiff_pd"}, {"Polynomial", "squirrel_head"}},
       139,
       12,
       {47, 139},
       {12},
       "the same keyframed motion in three materials; the kinetic and elastic energies per frame show the jiggle"},
      {"fig3",
       "Fig. 3: the squirrel head without a line search",
       "with alpha = 1 always, the polynomial squirrel head is unstable in the first jerks (frames 23 and 24)",
       {{"With line search", "squirrel_head"}, {"Without line search", "squirrel_head", {"solver.line_search=none"}}},
       60,
       6,
       {46, 49},
       {6},
       "the same run with the Armijo line search and with every step taken whole, drawn in the jerks before the "
       "run without a line search explodes (a picture of the exploded head would be metres across)"},
      {"fig4",
       "Fig. 4: the Big Bunny squeezed through a torus",
       "a soft corotated bunny is pushed through a torus narrower than itself: every collision resolved, the "
       "only cost more line-search trials (49.2 per frame)",
       {{"Ours", "bunny_torus"}},
       75,
       4,
       {0, 40, 50, 60, 75},
       {0, 4},
       "the bunny at rest on the torus, pushed down by the sphere, through the hole, and out below"},
      {"fig5",
       "Fig. 5: an isotropic and an anisotropic cube dropped on the ground",
       "fibres along the diagonal (kappa = 50 with mu = 10, lambda = 100) make the cube deform unlike the isotropic one",
       {{"Isotropic", "cube_isotropic"}, {"Anisotropic", "cube_anisotropic"}},
       60,
       8,
       {6, 8, 14, 60},
       {8},
       "the two cubes before, at and after the impact, and at rest"},
      {"fig6",
       "Fig. 6: spheres of spline materials A and B thrown on the ground",
       "spline A resists compression more, B tension more than Neo-Hookean; both need about twice the "
       "line-search trials of the classical materials",
       {{"Spline A", "sphere_spline_a"}, {"Spline B", "sphere_spline_b"}},
       60,
       3,
       {1, 2, 4, 60},
       {2},
       "the two spheres before, at and after the impact, and at rest"},
  };
  return list;
}

ExperimentReport pictureFigure(const std::string& name, const ExperimentOptions& o) {
  for (const PictureFigure& figure : pictureFigures())
    if (figure.name == name) return pictureFigure(figure, o);
  throw error("no picture figure ", name);
}

}  // namespace

ExperimentReport fig2(const ExperimentOptions& o) { return pictureFigure("fig2", o); }
ExperimentReport fig3(const ExperimentOptions& o) { return pictureFigure("fig3", o); }
ExperimentReport fig4(const ExperimentOptions& o) { return pictureFigure("fig4", o); }
ExperimentReport fig5(const ExperimentOptions& o) { return pictureFigure("fig5", o); }
ExperimentReport fig6(const ExperimentOptions& o) { return pictureFigure("fig6", o); }

}  // namespace qnsim
