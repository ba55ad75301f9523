#include "tools/assets/catalog.h"

#include "qnsim/error.h"
#include "tools/assets/bunny_source.h"
#include "tools/assets/models.h"
#include "tools/assets/pipeline.h"
#include "tools/assets/repair.h"

namespace qnsim::assets {
namespace {

SizeField uniform(double length) {
  return [length](const Vec3&) { return length; };
}

TetgenOptions tetgen(double ratio, double max_volume) {
  TetgenOptions options;
  options.max_radius_edge_ratio = ratio;
  options.max_volume = max_volume;
  return options;
}

TetMesh finish(TetMesh mesh) {
  placeOnGround(mesh);
  return mesh;
}

// The npm bunny, scaled to 0.3 m tall and centred over the origin, holes closed, remeshed.
SurfaceMesh bunnySurface(const BuildContext& ctx, double edge_length) {
  SurfaceMesh scan = readBunnyJs(fetchBunnyPackage(ctx.work_dir / "npm_bunny"));
  dropUnusedVertices(scan);
  closeHoles(scan);  // bunny@1.0.1 turns out to be closed already; older scans are not
  const Vec3 lo = scan.V.colwise().minCoeff(), hi = scan.V.colwise().maxCoeff();
  const double scale = 0.30 / (hi.y() - lo.y());
  const Vec3 centre(0.5 * (lo.x() + hi.x()), lo.y(), 0.5 * (lo.z() + hi.z()));
  for (Eigen::Index v = 0; v < scan.V.rows(); ++v) scan.V.row(v) = (scan.V.row(v) - centre.transpose()) * scale;
  if (enclosedVolume(scan) < 0) scan.F.col(1).swap(scan.F.col(2));
  return remeshSurface(scan, edge_length);
}

TetMesh bunny(const BuildContext& ctx, double edge, const TetgenOptions& options, const std::string& name) {
  return finish(tetrahedralizeSurface(bunnySurface(ctx, edge), options, name));
}

TetMesh squirrel(double grid, double edge, const TetgenOptions& options, const std::string& name) {
  const Sdf shape = squirrelHead();
  const Grid box{Vec3(-0.13, -0.02, -0.12), Vec3(0.13, 0.30, 0.14), grid};
  // Finer triangles on the teeth and ear tips, so they keep their shape after tetrahedralisation.
  const Sdf teeth = squirrelTeeth();
  const SizeField size = [=](const Vec3& p) { return teeth(p) < 0.01 ? 0.6 * edge : edge; };
  TetMesh mesh = tetrahedralizeSurface(meshImplicit(shape, box, size), options, name);
  tagRegion(mesh, teeth, 1);
  return finish(std::move(mesh));
}

// Fine surfaces over coarse cages. Each fine surface is placed on the ground like the other assets (its
// lowest point at y = 0, centred in x and z), and its cages, tetrahedralised from a coarser surface of the
// same shape, are moved by the same shift.
struct Fine {
  SurfaceMesh surface;
  Vec3 shift;  // subtracted from the unplaced surface (and from its cages)
};

Fine placeFine(SurfaceMesh surface) {
  const Vec3 lo = surface.V.colwise().minCoeff(), hi = surface.V.colwise().maxCoeff();
  const Vec3 shift(0.5 * (lo.x() + hi.x()), lo.y(), 0.5 * (lo.z() + hi.z()));
  surface.V.rowwise() -= shift.transpose();
  return {std::move(surface), shift};
}

const Grid kSquirrelGrid{Vec3(-0.13, -0.02, -0.12), Vec3(0.13, 0.30, 0.14), 0.002};
const Grid kHippoGrid{Vec3(-0.55, -0.03, -0.35), Vec3(0.75, 0.70, 0.35), 0.006};

const Fine& squirrelFine() {
  static const Fine fine = placeFine(meshImplicit(squirrelHead(), kSquirrelGrid, uniform(0.0022)));
  return fine;
}
const Fine& hippoFine() {
  static const Fine fine = placeFine(meshImplicit(hippo(), kHippoGrid, uniform(0.012)));
  return fine;
}
const Fine& bunnyFine(const BuildContext& ctx) {
  static const Fine fine = placeFine(bunnySurface(ctx, 0.004));
  return fine;
}

TetMesh cage(const SurfaceMesh& coarse, const Fine& fine, const TetgenOptions& options, const std::string& name) {
  TetMesh mesh = tetrahedralizeSurface(coarse, options, name);
  mesh.V.rowwise() -= fine.shift.transpose();
  return mesh;
}

TetMesh squirrelCage(double edge, const std::string& name) {
  const Grid grid{kSquirrelGrid.lo, kSquirrelGrid.hi, 0.5 * edge};
  return cage(meshImplicit(squirrelHead(), grid, uniform(edge)), squirrelFine(), tetgen(2.0, 0), name);
}

TetMesh box(const Vec3& size, const Eigen::Vector3i& cells, const TetgenOptions& options, const std::string& name) {
  const Vec3 lo(-0.5 * size.x(), 0, -0.5 * size.z());
  return finish(tetrahedralizeSurface(boxSurface(lo, lo + size, cells), options, name));
}

std::vector<AssetSpec> makeCatalog() {
  std::vector<AssetSpec> list;
  list.push_back({"bunny_big", "Stanford bunny, 0.3 m tall, at the paper's Big Bunny size", 6308, 26096, 
                  [](const BuildContext& ctx) { return bunny(ctx, 0.0085, tetgen(1.5, 1.2e-6), "bunny_big"); }});
  list.push_back({"bunny_small", "Stanford bunny, 0.3 m tall, coarse", 1500, 5000, 
                  [](const BuildContext& ctx) { return bunny(ctx, 0.0153, tetgen(1.414, 0), "bunny_small"); }});
  list.push_back({"squirrel_head", "cartoon squirrel head, 0.2 m, teeth = region 1", 8395, 23782,
                  [](const BuildContext&) { return squirrel(0.003, 0.0044, tetgen(2.5, 0), "squirrel_head"); }});
  list.push_back({"squirrel_head_large", "the squirrel head, finer", 33666, 125677,
                  [](const BuildContext&) { return squirrel(0.002, 0.0026, tetgen(1.5, 0), "squirrel_head_large"); }});
  list.push_back({"hippo", "cartoon hippo, 1.05 m long, facing +x", 2387, 8406, [](const BuildContext&) {
                    const Grid grid{Vec3(-0.55, -0.03, -0.35), Vec3(0.75, 0.70, 0.35), 0.012};
                    return finish(tetrahedralizeSurface(meshImplicit(hippo(), grid, uniform(0.034)), tetgen(1.6, 0), "hippo"));
                  }});
  list.push_back({"torus", "torus, hole along y: R = 0.1 m, tube r = 0.04 m (inner radius 0.06 m)", 1500, 5000, [](const BuildContext&) {
                    const Grid grid{Vec3(-0.16, -0.06, -0.16), Vec3(0.16, 0.06, 0.16), 0.004};
                    return finish(tetrahedralizeSurface(meshImplicit(torusY(Vec3::Zero(), 0.10, 0.04), grid, uniform(0.012)), tetgen(1.414, 0), "torus"));
                  }});
  list.push_back({"bar_shaking", "bar 1.5 x 0.15 x 0.15 m along x", 574, 1647,
                  [](const BuildContext&) { return box(Vec3(1.5, 0.15, 0.15), {30, 4, 4}, tetgen(1.414, 0), "bar_shaking"); }});
  list.push_back({"bar_twisting", "bar 1.0 x 0.2 x 0.2 m along x", 3472, 10441,
                  [](const BuildContext&) { return box(Vec3(1.0, 0.2, 0.2), {59, 12, 12}, tetgen(2.0, 0), "bar_twisting"); }});
  list.push_back({"sphere", "sphere, radius 0.1 m", 889, 1821, [](const BuildContext&) {
                    const Grid grid{Vec3::Constant(-0.12), Vec3::Constant(0.12), 0.004};
                    return finish(tetrahedralizeSurface(meshImplicit(sphere(Vec3::Zero(), 0.1), grid, uniform(0.0128)), tetgen(4.0, 0), "sphere"));
                  }});
  list.push_back({"thin_sheet", "sheet 1.0 x 0.03 x 1.0 m (thin along y)", 660, 1932,
                  [](const BuildContext&) { return box(Vec3(1.0, 0.03, 1.0), {18, 1, 17}, tetgen(2.0, 0), "thin_sheet"); }});
  list.push_back({"cube", "cube, 0.2 m", 1250, 4400, [](const BuildContext&) { return box(Vec3(0.2, 0.2, 0.2), {13, 13, 13}, tetgen(1.414, 0), "cube"); }});
  // Coarse cages for the render meshes of renderCatalog().
  list.push_back({"squirrel_head_cage_fine", "cage of squirrel_head_render.obj, 7 mm edges", 3232, 10136,
                  [](const BuildContext&) { return squirrelCage(0.007, "squirrel_head_cage_fine"); }});
  list.push_back({"squirrel_head_cage", "cage of squirrel_head_render.obj, 12 mm edges", 927, 2620,
                  [](const BuildContext&) { return squirrelCage(0.012, "squirrel_head_cage"); }});
  list.push_back({"squirrel_head_cage_coarse", "cage of squirrel_head_render.obj, 20 mm edges", 362, 1005,
                  [](const BuildContext&) { return squirrelCage(0.020, "squirrel_head_cage_coarse"); }});
  list.push_back({"bunny_cage", "cage of bunny_render.obj, 25 mm edges", 397, 1063, [](const BuildContext& ctx) {
                    return cage(bunnySurface(ctx, 0.025), bunnyFine(ctx), tetgen(2.0, 0), "bunny_cage");
                  }});
  list.push_back({"hippo_cage", "cage of hippo_render.obj, 70 mm edges", 410, 1113, [](const BuildContext&) {
                    const Grid grid{kHippoGrid.lo, kHippoGrid.hi, 0.02};
                    return cage(meshImplicit(hippo(), grid, uniform(0.07)), hippoFine(), tetgen(2.0, 0), "hippo_cage");
                  }});
  return list;
}

}  // namespace

const std::vector<RenderSpec>& renderCatalog() {
  static const std::vector<RenderSpec> list = {
      {"squirrel_head_render", "the squirrel head's surface, 2.2 mm edges", [](const BuildContext&) { return squirrelFine().surface; }},
      {"bunny_render", "the bunny's surface, 4 mm edges", [](const BuildContext& ctx) { return bunnyFine(ctx).surface; }},
      {"hippo_render", "the hippo's surface, 12 mm edges", [](const BuildContext&) { return hippoFine().surface; }},
  };
  return list;
}

const std::vector<AssetSpec>& catalog() {
  static const std::vector<AssetSpec> list = makeCatalog();
  return list;
}

}  // namespace qnsim::assets
