// TetGen .node/.ele reader and writer. Format: https://wias-berlin.de/software/tetgen/fformats.html
//   .node: "<#points> <dim=3> <#attributes> <#markers 0|1>", then "<i> x y z [attributes] [marker]"
//   .ele:  "<#tets> <4|10> <#attributes>", then "<i> n1 n2 n3 n4 [n5..n10] [attributes]"
// Points are numbered from 0 or 1 (the first point decides); the first tet attribute is the region.
#include <climits>
#include <cmath>

#include "core/mesh/io_formats.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/text_scanner.h"
#include "qnsim/error.h"

namespace qnsim {
namespace io {
namespace {

namespace fs = std::filesystem;

// Header values after the count are optional in practice (TetGen itself defaults them to 0).
int optionalCount(Scanner& s, std::string_view what) {
  return s.atEndOfLine() ? 0 : s.count(s.field(what), what);
}

void readNodes(Scanner& s, TetMeshBuilder& b) {
  const int n = s.count(s.token("the number of points"), "number of points");
  if (n == 0) s.fail("the .node file lists no points (points kept in a .poly file are not supported)");
  const long long dim = s.fieldInteger("the dimension");
  if (dim != 3) s.fail("only 3D .node files are supported (dimension ", dim, ")");
  const int attributes = optionalCount(s, "number of attributes");
  const int markers = optionalCount(s, "number of boundary markers");
  if (markers > 1) s.fail("the boundary-marker flag must be 0 or 1 (found ", markers, ")");
  s.endLine();

  b.V.reserve(3 * s.reserveFor(n, 8));
  b.vertex_line.reserve(s.reserveFor(n, 8));
  for (int i = 0; i < n; ++i) {
    if (s.atEnd()) s.fail("expected ", n, " points, the file ends after ", i);
    const long long number = s.integer(s.token("a point number"), "a point number");
    if (i == 0 && number != 0 && number != 1) s.fail("the first point is numbered ", number, "; TetGen numbers points from 0 or 1");
    if (i == 0) b.index_base = static_cast<int>(number);
    if (number != b.index_base + i) s.fail("point number ", number, " out of sequence (expected ", b.index_base + i, ")");
    for (int k = 0; k < 3; ++k) b.V.push_back(s.coordinate(s.field("a coordinate")));
    for (int k = 0; k < attributes; ++k) s.fieldReal("a point attribute");
    if (markers) s.fieldInteger("a boundary marker");
    s.endLine();
    b.vertex_line.push_back(s.line());
  }
  if (!s.atEnd()) s.fail("unexpected data after the ", n, " points the header announces");
}

int regionTag(Scanner& s, double value) {
  if (!(std::abs(value) <= INT_MAX) || value != std::floor(value)) s.fail("the region attribute ", value, " is not an integer");
  return static_cast<int>(value);
}

void readElements(Scanner& s, TetMeshBuilder& b) {
  const int n = s.count(s.token("the number of tetrahedra"), "number of tetrahedra");
  const long long corners = s.fieldInteger("the number of nodes per tetrahedron");
  if (corners != 4 && corners != 10) s.fail("tetrahedra must have 4 or 10 nodes (found ", corners, ")");
  const int attributes = optionalCount(s, "number of attributes");
  s.endLine();

  b.T.reserve(4 * s.reserveFor(n, 10));
  b.region.reserve(s.reserveFor(n, 10));
  b.tet_line.reserve(s.reserveFor(n, 10));
  for (int e = 0; e < n; ++e) {
    if (s.atEnd()) s.fail("expected ", n, " tetrahedra, the file ends after ", e);
    s.integer(s.token("a tetrahedron number"), "a tetrahedron number");
    for (int k = 0; k < corners; ++k) {
      const long long number = s.fieldInteger("a vertex index");  // compared before subtracting: it may be LLONG_MIN
      if (number < b.index_base || number - b.index_base >= b.vertexCount())
        s.fail("vertex index ", number, " is out of range (", b.vertexCount(), " points, numbered from ", b.index_base, ")");
      if (k < 4) b.T.push_back(static_cast<int>(number - b.index_base));
    }
    for (int k = 0; k < attributes; ++k) {
      const double value = s.fieldReal("a tetrahedron attribute");
      if (k == 0) b.region.push_back(regionTag(s, value));
    }
    if (attributes == 0) b.region.push_back(0);
    s.endLine();
    b.tet_line.push_back(s.line());
  }
  if (!s.atEnd()) s.fail("unexpected data after the ", n, " tetrahedra the header announces");
  if (corners == 10) b.dropUnusedVertices();  // mid-edge nodes would be massless, unconstrained vertices
}

std::string nodeText(const TetMesh& mesh) {
  std::string out = "# qnsim\n";
  appendInt(out, mesh.V.rows());
  out += " 3 0 0\n";
  for (Eigen::Index i = 0; i < mesh.V.rows(); ++i) {
    appendInt(out, i + 1);
    for (int k = 0; k < 3; ++k) out += ' ', appendReal(out, mesh.V(i, k));
    out += '\n';
  }
  return out;
}

std::string eleText(const TetMesh& mesh) {
  const bool has_regions = mesh.region.size() == mesh.T.rows() && (mesh.region.array() != 0).any();
  std::string out = "# qnsim\n";
  appendInt(out, mesh.T.rows());
  out += has_regions ? " 4 1\n" : " 4 0\n";
  for (Eigen::Index e = 0; e < mesh.T.rows(); ++e) {
    appendInt(out, e + 1);
    for (int k = 0; k < 4; ++k) out += ' ', appendInt(out, mesh.T(e, k) + 1);
    if (has_regions) out += ' ', appendInt(out, mesh.region[e]);
    out += '\n';
  }
  return out;
}

}  // namespace

TetMesh readNodeEle(const fs::path& path) {
  if (!fs::exists(path)) throw error(path.string(), ": file not found");
  fs::path node = path, ele = path;
  node.replace_extension(".node");
  ele.replace_extension(".ele");
  for (const fs::path& partner : {node, ele})
    if (partner != path && !fs::exists(partner))
      throw error(partner.string(), ": file not found (it is needed with ", path.filename().string(), ")");
  const std::string node_bytes = readFileBytes(node);
  return parseNodeEle(node.string(), node_bytes, ele.string(), readFileBytes(ele));
}

TetMesh parseNodeEle(const std::string& node_name, std::string_view node, const std::string& ele_name, std::string_view ele) {
  TetMeshBuilder b;
  b.vertex_file = node_name;
  b.tet_file = ele_name;
  Scanner node_scanner(node_name, node);
  readNodes(node_scanner, b);
  Scanner ele_scanner(ele_name, ele);
  readElements(ele_scanner, b);
  return b.finish();
}

}  // namespace io

void writeNodeEle(const std::filesystem::path& base, const TetMesh& mesh) {
  // "bunny", "bunny.node" and "bunny.ele" all mean the pair bunny.node + bunny.ele.
  std::filesystem::path node = base, ele = base;
  if (base.extension() == ".node" || base.extension() == ".ele") node.replace_extension(), ele.replace_extension();
  node += ".node";
  ele += ".ele";
  writeFileBytes(node, io::nodeText(mesh));
  writeFileBytes(ele, io::eleText(mesh));
}

}  // namespace qnsim
