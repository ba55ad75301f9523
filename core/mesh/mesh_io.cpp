// Dispatch by file extension, and the validation step shared by every tet-mesh reader.
#include "core/mesh/mesh_io.h"

#include <algorithm>
#include <cctype>

#include "core/common/log.h"
#include "core/mesh/io_formats.h"
#include "core/mesh/mesh_check.h"
#include "core/mesh/voxel_cage.h"
#include "qnsim/error.h"

namespace qnsim {
namespace io {

void TetMeshBuilder::checkIndices() const {
  const int nv = vertexCount();
  for (std::size_t e = 0; e < tet_line.size(); ++e)
    for (int k = 0; k < 4; ++k) {
      const int index = T[4 * e + k];
      if (index < 0 || index >= nv)
        throw error(tet_file, ":", tet_line[e], ": vertex index ", static_cast<long long>(index) + index_base, " is out of range (", nv,
                    " vertices, numbered from ", index_base, ")");
    }
}

void TetMeshBuilder::dropUnusedVertices() {
  checkIndices();
  const int nv = vertexCount();
  std::vector<int> new_index(nv, -1);
  for (int index : T) new_index[index] = 0;
  int kept = 0;
  for (int i = 0; i < nv; ++i) {
    if (new_index[i] < 0) continue;
    new_index[i] = kept;
    for (int k = 0; k < 3; ++k) V[3 * kept + k] = V[3 * i + k];
    vertex_line[kept++] = vertex_line[i];
  }
  V.resize(3 * kept);
  vertex_line.resize(kept);
  for (int& index : T) index = new_index[index];
}

TetMesh TetMeshBuilder::finish() {
  const int nv = vertexCount();
  const int nt = static_cast<int>(tet_line.size());
  if (nv == 0) throw error(vertex_file, ": the file has no vertices");
  if (nt == 0) throw error(tet_file, ": the file has no tetrahedra");
  checkIndices();
  TetMesh mesh;
  mesh.V = Eigen::Map<const MatX3>(V.data(), nv, 3);
  mesh.T = Eigen::Map<const TetIndices>(T.data(), nt, 4);
  mesh.region = Eigen::Map<const Eigen::VectorXi>(region.data(), nt);
  const MeshRepairs repairs = checkTetMesh(
      mesh, tet_file, [this](int i) { return vertex_file + ":" + std::to_string(vertex_line[i]); },
      [this](int e) { return tet_file + ":" + std::to_string(tet_line[e]); });
  if (repairs.any()) warn(repairs.describe(tet_file));
  return mesh;
}

}  // namespace io

namespace {

std::string lowerExtension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

bool isSurfaceExtension(const std::string& ext) { return ext == ".obj" || ext == ".off" || ext == ".stl"; }

// A cage fills a surface with holes or self-intersections as well as it can; say so, naming the problem.
void warnUnlessClosed(const SurfaceMesh& surface, const std::filesystem::path& path) {
  try {
    checkClosedSurface(surface, path.string());
  } catch (const Error& e) {
    warn(std::string(e.what()) + "; the cage's inside is decided by rays along x, y and z, two of three agreeing");
  }
}

}  // namespace

TetMesh readTetMesh(const std::filesystem::path& path, const TetgenOptions& options) {
  const std::string ext = lowerExtension(path);
  if (ext == ".node" || ext == ".ele") return io::readNodeEle(path);
  if (ext == ".mesh") return io::readMedit(path);
  if (ext == ".msh") return io::readGmsh(path);
  if (!isSurfaceExtension(ext))
    throw error(path.string(), ": unsupported tet mesh file type '", ext, "' (expected .node/.ele, .mesh, .msh, or a surface .obj/.off/.stl)");
  const SurfaceMesh surface = readSurfaceMesh(path);
  try {
    if (options.cage_cells > 0) {
      warnUnlessClosed(surface, path);
      return voxelCage(surface, options.cage_cells);
    }
    return tetrahedralize(surface, options);
  } catch (const Error& e) {
    throw error(path.string(), ": ", e.what());
  }
}

SurfaceMesh readSurfaceMesh(const std::filesystem::path& path) {
  const std::string ext = lowerExtension(path);
  if (ext == ".obj") return io::readObj(path);
  if (ext == ".off") return io::readOff(path);
  if (ext == ".stl") return io::readStl(path);
  throw error(path.string(), ": unsupported surface file type '", ext, "' (expected .obj, .off or .stl)");
}

bool isMeshFile(const std::filesystem::path& path) {
  const std::string ext = lowerExtension(path);
  return ext == ".node" || ext == ".ele" || ext == ".mesh" || ext == ".msh" || isSurfaceExtension(ext);
}

bool isSurfaceFile(const std::filesystem::path& path) { return isSurfaceExtension(lowerExtension(path)); }

}  // namespace qnsim
