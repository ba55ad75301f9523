// qnsim_make_assets: rebuilds the project's tet-mesh assets from their recipes (tools/assets/catalog.cpp).
//   qnsim_make_assets --out assets/ [--only NAME] [--previews docs/images/assets/] [--work DIR]
// With QNSIM_ASSETS_SURFACES=DIR in the environment, the surfaces handed to tetgen are also written
// there as OFF (for tuning tetgen switches by hand).
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "core/common/files.h"
#include "core/common/timer.h"
#include "core/export/drawn_surfaces.h"
#include "core/mesh/mesh_io.h"
#include "qnsim/error.h"
#include "tools/assets/catalog.h"
#include "tools/assets/render.h"

namespace {

struct Args {
  std::filesystem::path out = "assets";
  std::filesystem::path previews;
  std::filesystem::path work = std::filesystem::temp_directory_path() / "qnsim_make_assets";
  std::string only;
};

Args parse(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::cout << "usage: qnsim_make_assets [--out DIR] [--only NAME] [--previews DIR] [--work DIR]\nassets:";
      for (const auto& spec : qnsim::assets::catalog()) std::cout << ' ' << spec.name;
      for (const auto& spec : qnsim::assets::renderCatalog()) std::cout << ' ' << spec.name;
      std::cout << '\n';
      std::exit(0);
    }
    if (i + 1 >= argc) throw qnsim::error(flag, ": missing value (see --help)");
    const std::string value = argv[++i];
    if (flag == "--out") args.out = value;
    else if (flag == "--only") args.only = value;
    else if (flag == "--previews") args.previews = value;
    else if (flag == "--work") args.work = value;
    else throw qnsim::error(flag, ": unknown option (see --help)");
  }
  return args;
}

void describe(const qnsim::assets::AssetSpec& spec, const qnsim::TetMesh& mesh, double ms) {
  const qnsim::Vec3 lo = mesh.V.colwise().minCoeff(), hi = mesh.V.colwise().maxCoeff();
  const long region1 = (mesh.region.array() == 1).count();
  std::printf("%-20s V %6ld (target %6d, %+5.1f%%)  T %7ld (target %7d, %+5.1f%%)  region1 %5ld  size %.3f x %.3f x %.3f m  %.1f s\n",
              spec.name.c_str(), static_cast<long>(mesh.V.rows()), spec.target_vertices,
              100.0 * (static_cast<double>(mesh.V.rows()) / spec.target_vertices - 1.0), static_cast<long>(mesh.T.rows()), spec.target_tets,
              100.0 * (static_cast<double>(mesh.T.rows()) / spec.target_tets - 1.0), region1, hi.x() - lo.x(), hi.y() - lo.y(), hi.z() - lo.z(),
              ms / 1000.0);
  std::fflush(stdout);
}

// A render mesh as OBJ: positions, area-weighted vertex normals, faces naming both.
void writeRenderObj(const std::filesystem::path& path, const qnsim::SurfaceMesh& surface, const std::string& summary) {
  qnsim::MatX3 N;
  qnsim::vertexNormals(surface.V, surface.F, N);
  std::string out = "# " + summary + " (qnsim_make_assets)\n";
  char line[128];
  for (Eigen::Index v = 0; v < surface.V.rows(); ++v)
    out += (std::snprintf(line, sizeof line, "v %.7g %.7g %.7g\n", surface.V(v, 0), surface.V(v, 1), surface.V(v, 2)), line);
  for (Eigen::Index v = 0; v < N.rows(); ++v) out += (std::snprintf(line, sizeof line, "vn %.5f %.5f %.5f\n", N(v, 0), N(v, 1), N(v, 2)), line);
  for (Eigen::Index f = 0; f < surface.F.rows(); ++f) {
    const long a = surface.F(f, 0) + 1, b = surface.F(f, 1) + 1, c = surface.F(f, 2) + 1;
    out += (std::snprintf(line, sizeof line, "f %ld//%ld %ld//%ld %ld//%ld\n", a, a, b, b, c, c), line);
  }
  qnsim::writeFileBytes(path, out);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse(argc, argv);
    const qnsim::assets::BuildContext ctx{args.work};
    std::filesystem::create_directories(args.out);
    bool found = false;
    for (const auto& spec : qnsim::assets::catalog()) {
      if (!args.only.empty() && spec.name != args.only) continue;
      found = true;
      qnsim::Timer timer;
      const qnsim::TetMesh mesh = spec.build(ctx);
      qnsim::writeMedit(args.out / (spec.name + ".mesh"), mesh);
      if (!args.previews.empty()) qnsim::assets::renderPreview(mesh, args.previews / (spec.name + ".png"), 300);
      describe(spec, mesh, timer.ms());
    }
    for (const auto& spec : qnsim::assets::renderCatalog()) {
      if (!args.only.empty() && spec.name != args.only) continue;
      found = true;
      qnsim::Timer timer;
      const qnsim::SurfaceMesh surface = spec.build(ctx);
      writeRenderObj(args.out / (spec.name + ".obj"), surface, spec.summary);
      std::printf("%-26s V %6ld  F %7ld  %.1f s\n", spec.name.c_str(), static_cast<long>(surface.V.rows()), static_cast<long>(surface.F.rows()),
                  timer.ms() / 1000.0);
      std::fflush(stdout);
    }
    if (!found) throw qnsim::error("--only ", args.only, ": no such asset (see --help)");
  } catch (const std::exception& e) {
    std::cerr << "qnsim_make_assets: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
