// qnsim mesh FILE: a surface in, a tet mesh out, with a report of its quality before anything is simulated.
#include <cstdio>

#include "app/cli/commands.h"
#include "app/cli/tetgen_flags.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/quality.h"
#include "core/mesh/tetrahedralize.h"
#include "qnsim/error.h"

namespace qnsim::cli {
namespace {

struct MeshOptions {
  std::string input, out;
  TetgenOptions tetgen;
};

bool isSurface(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".obj" || ext == ".off" || ext == ".stl";
}

int run(const MeshOptions& options) {
  TetMesh mesh;
  if (isSurface(options.input)) {
    const SurfaceMesh surface = readSurfaceMesh(options.input);
    std::printf("surface        %s: %ld vertices, %ld triangles\n", options.input.c_str(), static_cast<long>(surface.V.rows()),
                static_cast<long>(surface.F.rows()));
    try {
      mesh = tetrahedralize(surface, options.tetgen);
    } catch (const Error& e) {
      throw error(options.input, ": ", e.what());
    }
  } else {
    mesh = readTetMesh(options.input, options.tetgen);
  }
  std::fputs(describeQuality(meshQuality(mesh)).c_str(), stdout);
  if (options.tetgen.target_tets > 0 && mesh.T.rows() > 2 * options.tetgen.target_tets)
    std::printf("note           %ld tets for a target of %d: tetgen keeps every vertex of the surface, so a fine surface needs many "
                "tets. Simulate a coarser surface of the same shape and draw this one over it as a render mesh (docs/pipeline.md).\n",
                static_cast<long>(mesh.T.rows()), options.tetgen.target_tets);
  if (!options.out.empty()) {
    writeMedit(options.out, mesh);
    std::printf("wrote          %s\n", options.out.c_str());
  }
  return 0;
}

}  // namespace

Command addMeshCommand(CLI::App& app) {
  auto options = std::make_shared<MeshOptions>();
  auto* cmd = app.add_subcommand("mesh", "Tetrahedralise a closed surface (or read a tet mesh) and report the mesh's quality: dihedral "
                                         "angles, radius-edge ratios, the worst tets and where they are, the surface's shells.");
  cmd->add_option("file", options->input, "Surface (.obj .off .stl) or tet mesh (.mesh .node .ele .msh)")->required();
  addTetgenFlags(cmd, options->tetgen);
  cmd->add_option("--out", options->out, "Write the tet mesh here (Medit .mesh), for a scene's \"mesh\"");
  return [options] { return run(*options); };
}

}  // namespace qnsim::cli
