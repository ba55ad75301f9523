#include "tests/fuzz/targets.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "core/mesh/io_formats.h"
#include "core/mesh/mesh_check.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/shapes.h"
#include "core/mesh/surface.h"
#include "core/scene/scene_parser.h"
#include "qnsim/error.h"

namespace qnsim::fuzz {
namespace {

// Runs a reader; false when it rejected the bytes with a qnsim::Error. Nothing else is caught.
template <class Read>
bool accepted(Read read) {
  try {
    read();
    return true;
  } catch (const Error&) {
    return false;
  }
}

[[noreturn]] void broken(const std::string& what) { throw std::logic_error("fuzz invariant broken: " + what); }

// What every reader promises of a mesh it returns (mesh_io.h): checkTetMesh has run on it.
void expectValid(const TetMesh& mesh) {
  const Eigen::Index nv = mesh.V.rows(), nt = mesh.T.rows();
  if (nv == 0 || nt == 0) broken("an accepted tet mesh is empty");
  if (mesh.region.size() != nt) broken("region tags and tets differ in number");
  if (!mesh.V.allFinite()) broken("an accepted tet mesh has a non-finite coordinate");
  std::vector<bool> used(static_cast<std::size_t>(nv), false);
  for (Eigen::Index e = 0; e < nt; ++e)
    for (int k = 0; k < 4; ++k) {
      const int index = mesh.T(e, k);
      if (index < 0 || index >= nv) broken("tet " + std::to_string(e) + " has a vertex index out of range");
      for (int j = 0; j < k; ++j)
        if (mesh.T(e, j) == index) broken("tet " + std::to_string(e) + " repeats a vertex");
      used[static_cast<std::size_t>(index)] = true;
    }
  for (bool u : used)
    if (!u) broken("an accepted tet mesh keeps a vertex no tet uses");
  if (boundaryFaces(mesh.T).rows() == 0) broken("an accepted tet mesh has no boundary");
}

void expectValid(const SurfaceMesh& surface) {
  const Eigen::Index nv = surface.V.rows();
  if (nv == 0 || surface.F.rows() == 0) broken("an accepted surface is empty");
  if (!surface.V.allFinite()) broken("an accepted surface has a non-finite coordinate");
  if ((surface.F.array() < 0).any() || (surface.F.array() >= nv).any()) broken("a triangle has a vertex index out of range");
}

void tetReader(TetMesh (*parse)(const std::string&, std::string_view), const std::string& name, std::string_view bytes) {
  TetMesh mesh;
  if (accepted([&] { mesh = parse(name, bytes); })) expectValid(mesh);
}

// An accepted surface goes on the way a surface file goes in qnsim: written as the OFF text tetgen
// reads (which must read back exactly), then checked as tetrahedralize checks it before tetgen runs.
void surfaceReader(SurfaceMesh (*parse)(const std::string&, std::string_view), const std::string& name, std::string_view bytes) {
  SurfaceMesh surface;
  if (!accepted([&] { surface = parse(name, bytes); })) return;
  expectValid(surface);
  const SurfaceMesh again = io::parseOff(name + ".off", io::offText(surface));
  if (again.V.rows() != surface.V.rows() || again.F.rows() != surface.F.rows() || again.V != surface.V || again.F != surface.F)
    broken("the surface changed on its way through OFF text");
  accepted([&] {
    checkSurfaceMesh(surface, name);
    checkClosedSurface(surface, name);
  });
}

void medit(std::string_view bytes) { tetReader(io::parseMedit, "fuzz.mesh", bytes); }
void gmsh(std::string_view bytes) { tetReader(io::parseGmsh, "fuzz.msh", bytes); }
void obj(std::string_view bytes) { surfaceReader(io::parseObj, "fuzz.obj", bytes); }
void off(std::string_view bytes) { surfaceReader(io::parseOff, "fuzz.off", bytes); }
void stl(std::string_view bytes) { surfaceReader(io::parseStl, "fuzz.stl", bytes); }

// Render surfaces (BodyDesc::render): finite positions, triangles in range, texture coordinates and normals
// one per vertex or none.
void renderReader(RenderSurface (*parse)(const std::string&, std::string_view), const std::string& name, std::string_view bytes) {
  RenderSurface s;
  if (!accepted([&] { s = parse(name, bytes); })) return;
  const Eigen::Index nv = s.V.rows();
  if (nv == 0 || s.F.rows() == 0) broken("an accepted render surface is empty");
  if (!s.V.allFinite()) broken("an accepted render surface has a non-finite coordinate");
  if ((s.F.array() < 0).any() || (s.F.array() >= nv).any()) broken("a render triangle has a vertex index out of range");
  if ((s.UV.rows() != 0 && s.UV.rows() != nv) || (s.N.rows() != 0 && s.N.rows() != nv)) broken("texture coordinates or normals not one per vertex");
}
void renderObj(std::string_view bytes) { renderReader(io::parseRenderObj, "fuzz.obj", bytes); }
void ply(std::string_view bytes) { renderReader(io::parsePly, "fuzz.ply", bytes); }

void tetgen(std::string_view bytes) {
  const std::size_t marker = bytes.find(kEleMarker);
  const std::string_view node = bytes.substr(0, marker);
  const std::string_view ele = marker == std::string_view::npos ? std::string_view() : bytes.substr(marker + kEleMarker.size());
  TetMesh mesh;
  if (accepted([&] { mesh = io::parseNodeEle("fuzz.node", node, "fuzz.ele", ele); })) expectValid(mesh);
}

// Stands in for the mesh files a scene names: the disk is not read and tetgen is not run.
TetMesh noMeshFiles(const std::filesystem::path& path, const TetgenOptions&) {
  if (!isMeshFile(path)) throw error(path.string(), ": not a mesh file");
  return makeBox(Vec3::Ones(), Eigen::Vector3i::Ones());
}

// The smallest memory_share (1% of the machine) keeps the procedural shapes the input asks for small;
// as an override it wins over the file's own setting.
void scene(std::string_view bytes) {
  Scene result;
  if (!accepted([&] { result = parseScene(std::string(bytes), "fuzz/scene.json", {"memory_share=0.01"}, noMeshFiles); })) return;
  if (result.bodies.empty()) broken("an accepted scene has no body");
  for (const BodyDesc& body : result.bodies)
    if (!(body.mass_spring ? body.springs.surface.V : body.mesh.V).allFinite()) broken("body '" + body.name + "' was placed at a non-finite position");
}

constexpr Target kTargets[] = {{"medit", medit}, {"tetgen", tetgen}, {"gmsh", gmsh}, {"obj", obj},
                               {"off", off},     {"stl", stl},       {"scene", scene}, {"render_obj", renderObj}, {"ply", ply}};

}  // namespace

std::span<const Target> targets() { return kTargets; }

const Target& target(std::string_view name) {
  for (const Target& t : kTargets)
    if (t.name == name) return t;
  throw std::invalid_argument("no fuzz target named '" + std::string(name) + "'");
}

}  // namespace qnsim::fuzz
