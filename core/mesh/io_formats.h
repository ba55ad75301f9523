#pragma once
// Per-format readers and writers behind mesh_io.h (internal to core/mesh). Each reader returns a
// validated mesh or throws qnsim::Error "<path>:<line>: <words>".
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "qnsim/mesh.h"

namespace qnsim::io {

// Collects a tet mesh while a file is parsed, remembering where each vertex and tet came from so
// that validation errors can name the file and line.
struct TetMeshBuilder {
  std::vector<double> V;  // x y z per vertex
  std::vector<int> T;     // 4 zero-based indices per tet
  std::vector<int> region;
  std::vector<int> vertex_line, tet_line;
  std::string vertex_file, tet_file;  // names used in messages (the same file for most formats)
  int index_base = 0;                 // how the file numbers vertices, for messages

  int vertexCount() const { return static_cast<int>(vertex_line.size()); }
  // Errors "<tet_file>:<line>: vertex index 9 is out of range ..." for the first bad index.
  void checkIndices() const;
  // Drops vertices no tet uses (mid-edge nodes of 10-node tets), renumbering T.
  void dropUnusedVertices();
  // Checks index ranges, then runs checkTetMesh with file:line locators.
  TetMesh finish();
};

TetMesh readNodeEle(const std::filesystem::path& path);  // path: the .node or the .ele file
TetMesh readMedit(const std::filesystem::path& path);
TetMesh readGmsh(const std::filesystem::path& path);

SurfaceMesh readObj(const std::filesystem::path& path);
SurfaceMesh readOff(const std::filesystem::path& path);
SurfaceMesh readStl(const std::filesystem::path& path);

// The same readers on bytes already in memory (tests feed them thousands of broken variants);
// the names only appear in messages.
TetMesh parseNodeEle(const std::string& node_name, std::string_view node, const std::string& ele_name, std::string_view ele);
TetMesh parseMedit(const std::string& name, std::string_view bytes);
TetMesh parseGmsh(const std::string& name, std::string_view bytes);
SurfaceMesh parseObj(const std::string& name, std::string_view bytes);
SurfaceMesh parseOff(const std::string& name, std::string_view bytes);
SurfaceMesh parseStl(const std::string& name, std::string_view bytes);
// Render surfaces (io_render.cpp): OBJ with texture coordinates and normals, PLY.
RenderSurface parseRenderObj(const std::string& name, std::string_view bytes);
RenderSurface parsePly(const std::string& name, std::string_view bytes);

// The text of an OFF file, shared by writeOff and the tetgen input.
std::string offText(const SurfaceMesh& surface);

}  // namespace qnsim::io
