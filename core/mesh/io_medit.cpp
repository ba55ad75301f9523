// Medit .mesh (ASCII), as written by tetgen -g and read by the paper authors' code:
//   MeshVersionFormatted 1 / Dimension 3 / Vertices n (x y z ref) / Triangles n (a b c ref) /
//   Tetrahedra n (a b c d ref) / End. One-based indices; a tet's ref is its region.
// The format is a token stream (a keyword and its count may share a line or not), so this reader
// does not care about line breaks. Sections it does not use are skipped by their known record size.
#include <algorithm>
#include <array>
#include <cctype>
#include <climits>

#include "core/mesh/io_formats.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/surface.h"
#include "core/mesh/text_scanner.h"
#include "qnsim/error.h"

namespace qnsim {
namespace io {
namespace {

bool sameKeyword(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](char x, char y) { return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y)); });
}

// Sections skipped: numbers per record (from the libMeshb keyword table).
struct SkippedSection {
  std::string_view keyword;
  int values_per_record;
};
constexpr std::array<SkippedSection, 26> kSkipped{{
    {"Edges", 3}, {"Triangles", 4}, {"Quadrilaterals", 5}, {"Prisms", 7}, {"Pentahedra", 7}, {"Hexahedra", 9},
    {"Pyramids", 6}, {"Corners", 1}, {"Ridges", 1}, {"RequiredVertices", 1}, {"RequiredEdges", 1},
    {"RequiredTriangles", 1}, {"RequiredQuadrilaterals", 1}, {"RequiredTetrahedra", 1}, {"Normals", 3},
    {"Tangents", 3}, {"NormalAtVertices", 2}, {"NormalAtTriangleVertices", 3},
    {"NormalAtQuadrilateralVertices", 3}, {"TangentAtVertices", 2}, {"TangentAtEdges", 3}, {"EdgesP2", 4},
    {"TrianglesP2", 7}, {"TetrahedraP2", 11}, {"QuadrilateralsQ2", 10}, {"HexahedraQ2", 28},
}};

const SkippedSection* skippedSection(std::string_view keyword) {
  for (const SkippedSection& section : kSkipped)
    if (sameKeyword(keyword, section.keyword)) return &section;
  return nullptr;
}

int sectionCount(Scanner& s, std::string_view section) {
  const std::string what = "number of " + std::string(section);
  return s.count(s.token("the " + what), what);
}

void readVertices(Scanner& s, TetMeshBuilder& b) {
  const int n = sectionCount(s, "vertices");
  b.V.reserve(b.V.size() + 3 * s.reserveFor(n, 8));
  b.vertex_line.reserve(b.vertex_line.size() + s.reserveFor(n, 8));
  for (int i = 0; i < n; ++i) {
    if (s.atEnd()) s.fail("expected ", n, " vertices, the file ends after ", i);
    for (int k = 0; k < 3; ++k) b.V.push_back(s.coordinate(s.token("a coordinate")));
    b.vertex_line.push_back(s.line());
    s.nextInteger("a vertex reference");
  }
}

void readTetrahedra(Scanner& s, TetMeshBuilder& b) {
  const int n = sectionCount(s, "tetrahedra");
  b.T.reserve(b.T.size() + 4 * s.reserveFor(n, 10));
  b.region.reserve(b.region.size() + s.reserveFor(n, 10));
  for (int e = 0; e < n; ++e) {
    if (s.atEnd()) s.fail("expected ", n, " tetrahedra, the file ends after ", e);
    for (int k = 0; k < 4; ++k) {
      const long long index = s.nextInteger("a vertex index");
      if (k == 0) b.tet_line.push_back(s.line());
      // The range check waits for finish(): Vertices may legally come after Tetrahedra.
      if (index < 1 || index > INT_MAX) s.fail("vertex index ", index, " is out of range (Medit numbers vertices from 1)");
      b.T.push_back(static_cast<int>(index - 1));
    }
    const long long ref = s.nextInteger("a tetrahedron reference");
    if (ref < INT_MIN || ref > INT_MAX) s.fail("the tetrahedron reference ", ref, " is too large");
    b.region.push_back(static_cast<int>(ref));
  }
}

void skipSection(Scanner& s, const SkippedSection& section) {
  const int n = sectionCount(s, section.keyword);
  for (long long i = 0; i < static_cast<long long>(n) * section.values_per_record; ++i) {
    if (s.atEnd()) s.fail("expected ", n, " ", section.keyword, ", the file ends after ", i / section.values_per_record);
    s.real(s.token("a value"), std::string(section.keyword) + " data");
  }
}

void readHeaderValue(Scanner& s, std::string_view keyword) {
  const long long value = s.nextInteger(keyword == "Dimension" ? "the dimension" : "the format version");
  if (keyword == "Dimension" && value != 3) s.fail("only 3D Medit meshes are supported (Dimension ", value, ")");
  if (keyword != "Dimension" && (value < 1 || value > 4)) s.fail("unknown MeshVersionFormatted ", value);
}

}  // namespace

TetMesh readMedit(const std::filesystem::path& path) { return parseMedit(path.string(), readFileBytes(path)); }

TetMesh parseMedit(const std::string& name, std::string_view bytes) {
  Scanner s(name, bytes);
  TetMeshBuilder b;
  b.vertex_file = b.tet_file = name;
  b.index_base = 1;
  while (!s.atEnd()) {
    const std::string_view keyword = s.token("a keyword");
    if (sameKeyword(keyword, "End")) break;
    if (sameKeyword(keyword, "MeshVersionFormatted")) readHeaderValue(s, "MeshVersionFormatted");
    else if (sameKeyword(keyword, "Dimension")) readHeaderValue(s, "Dimension");
    else if (sameKeyword(keyword, "Vertices")) readVertices(s, b);
    else if (sameKeyword(keyword, "Tetrahedra")) readTetrahedra(s, b);
    else if (const SkippedSection* section = skippedSection(keyword)) skipSection(s, *section);
    else s.fail("unknown Medit keyword ", quoted(keyword));
  }
  return b.finish();
}

}  // namespace io

void writeMedit(const std::filesystem::path& path, const TetMesh& mesh) {
  using io::appendInt, io::appendReal;
  const bool has_regions = mesh.region.size() == mesh.T.rows();
  std::string out = "MeshVersionFormatted 2\nDimension 3\n\nVertices\n";
  appendInt(out, mesh.V.rows());
  out += '\n';
  for (Eigen::Index i = 0; i < mesh.V.rows(); ++i) {
    for (int k = 0; k < 3; ++k) appendReal(out, mesh.V(i, k)), out += ' ';
    out += "0\n";
  }
  // The boundary, for viewers and for the authors' loader, which renders the Triangles section.
  const TriIndices F = boundaryFaces(mesh.T);
  out += "\nTriangles\n";
  appendInt(out, F.rows());
  out += '\n';
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    for (int k = 0; k < 3; ++k) appendInt(out, F(f, k) + 1), out += ' ';
    out += "0\n";
  }
  out += "\nTetrahedra\n";
  appendInt(out, mesh.T.rows());
  out += '\n';
  for (Eigen::Index e = 0; e < mesh.T.rows(); ++e) {
    for (int k = 0; k < 4; ++k) appendInt(out, mesh.T(e, k) + 1), out += ' ';
    appendInt(out, has_regions ? mesh.region[e] : 0);
    out += '\n';
  }
  out += "\nEnd\n";
  writeFileBytes(path, out);
}

}  // namespace qnsim
