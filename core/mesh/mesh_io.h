#pragma once
// Reading and writing mesh files. Every reader validates what it reads and throws qnsim::Error with
// the file name and the line (or field) of the first problem: missing or truncated data, non-finite
// coordinates, indices out of range, degenerate tets, mixed tet orientations. Never a crash.
#include <filesystem>

#include "core/mesh/tetrahedralize.h"
#include "qnsim/mesh.h"

namespace qnsim {

// Reads a tet mesh, chosen by extension:
//   .node / .ele (TetGen; the other file of the pair is found beside it; optional region attribute)
//   .mesh (Medit, the format of the paper's authors' code), .msh (Gmsh ASCII v2 and v4),
//   .obj / .off / .stl (a closed surface, tetrahedralised by the tetgen program with `options`).
TetMesh readTetMesh(const std::filesystem::path& path, const TetgenOptions& options = {});

// Reads a triangle surface: .obj, .off, .stl (ASCII or binary).
SurfaceMesh readSurfaceMesh(const std::filesystem::path& path);

// Reads a render surface (BodyDesc::render): .obj (with texture coordinates and normals where it has them),
// .ply (ASCII or binary, the same), .off, .stl.
RenderSurface readRenderSurface(const std::filesystem::path& path);

// Writers (zero-based in memory; each format's own convention on disk).
void writeNodeEle(const std::filesystem::path& base, const TetMesh& mesh);  // base.node + base.ele
void writeMedit(const std::filesystem::path& path, const TetMesh& mesh);
void writeObj(const std::filesystem::path& path, const SurfaceMesh& surface);
void writeOff(const std::filesystem::path& path, const SurfaceMesh& surface);

// True for the extensions readTetMesh understands.
bool isMeshFile(const std::filesystem::path& path);
// True for the surfaces among them (.obj, .off, .stl), which readTetMesh fills with tetgen.
bool isSurfaceFile(const std::filesystem::path& path);

}  // namespace qnsim
