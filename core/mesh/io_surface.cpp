// Triangle surfaces as OBJ and OFF (readers and writers). Polygons are fan-triangulated; OBJ
// "a/b/c" forms keep the position index only; negative OBJ indices count back from the last vertex.
#include <array>

#include "core/mesh/io_formats.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/text_scanner.h"
#include "qnsim/error.h"

namespace qnsim {
namespace io {
namespace {

struct SurfaceBuilder {
  std::vector<double> V;
  std::vector<int> F;
  int vertexCount() const { return static_cast<int>(V.size() / 3); }

  void addPolygon(Scanner& s, const std::vector<int>& polygon) {
    if (polygon.size() < 3) s.fail("a face needs at least 3 vertices (found ", polygon.size(), ")");
    for (std::size_t k = 1; k + 1 < polygon.size(); ++k) F.insert(F.end(), {polygon[0], polygon[k], polygon[k + 1]});
  }

  SurfaceMesh finish(const std::string& name) const {
    if (V.empty()) throw error(name, ": the file has no vertices");
    if (F.empty()) throw error(name, ": the file has no faces");
    SurfaceMesh surface;
    surface.V = Eigen::Map<const MatX3>(V.data(), vertexCount(), 3);
    surface.F = Eigen::Map<const TriIndices>(F.data(), static_cast<Eigen::Index>(F.size() / 3), 3);
    return surface;
  }
};

// Statements of the OBJ specification that carry nothing a triangle surface needs.
constexpr std::array<std::string_view, 36> kObjIgnored{
    "vt", "vn", "vp", "l", "p", "g", "o", "s", "mg", "usemtl", "mtllib", "maplib", "usemap",
    "lod", "shadow_obj", "trace_obj", "bevel", "c_interp", "d_interp", "cstype", "deg", "bmat",
    "step", "curv", "curv2", "surf", "parm", "trim", "hole", "scrv", "sp", "end", "con", "ctech",
    "stech", "call"};

bool objIgnored(std::string_view keyword) {
  for (std::string_view ignored : kObjIgnored)
    if (keyword == ignored) return true;
  return false;
}

// "7", "7/2", "7//3", "7/2/3" or "-1": the position index, zero-based.
int objIndex(Scanner& s, std::string_view token, int vertex_count) {
  const std::string_view position = token.substr(0, token.find('/'));
  const long long value = s.integer(position, "a vertex index");
  const long long index = value < 0 ? vertex_count + value : value - 1;
  if (value == 0 || index < 0 || index >= vertex_count)
    s.fail("vertex index ", value, " is out of range (", vertex_count, " vertices so far)");
  return static_cast<int>(index);
}

void readObjFace(Scanner& s, SurfaceBuilder& b, std::vector<int>& polygon) {
  polygon.clear();
  while (!s.atEndOfLine()) polygon.push_back(objIndex(s, s.field("a vertex index"), b.vertexCount()));
  b.addPolygon(s, polygon);
}

// OFF headers: [ST][C][N]OFF. 4OFF / nOFF (other dimensions) and binary OFF are not supported.
void readOffHeader(Scanner& s) {
  const std::string_view header = s.token("OFF");
  const std::size_t off = header.rfind("OFF");
  if (off == std::string_view::npos || off + 3 != header.size()) s.fail("not an OFF file: expected OFF, found ", quoted(header));
  const std::string_view prefix = header.substr(0, off);
  if (prefix.find_first_of("4n") != std::string_view::npos) s.fail("only 3D OFF files are supported (found ", quoted(header), ")");
  if (prefix.find_first_not_of("STCN") != std::string_view::npos) s.fail("unknown OFF variant ", quoted(header));
}

std::string objText(const SurfaceMesh& surface) {
  std::string out = "# qnsim\n";
  for (Eigen::Index i = 0; i < surface.V.rows(); ++i) {
    out += 'v';
    for (int k = 0; k < 3; ++k) out += ' ', appendReal(out, surface.V(i, k));
    out += '\n';
  }
  for (Eigen::Index f = 0; f < surface.F.rows(); ++f) {
    out += 'f';
    for (int k = 0; k < 3; ++k) out += ' ', appendInt(out, surface.F(f, k) + 1);
    out += '\n';
  }
  return out;
}

}  // namespace

SurfaceMesh readObj(const std::filesystem::path& path) { return parseObj(path.string(), readFileBytes(path)); }
SurfaceMesh readOff(const std::filesystem::path& path) { return parseOff(path.string(), readFileBytes(path)); }

SurfaceMesh parseObj(const std::string& name, std::string_view bytes) {
  Scanner s(name, bytes);
  SurfaceBuilder b;
  std::vector<int> polygon;
  while (!s.atEnd()) {
    const std::string_view keyword = s.token("an OBJ statement");
    if (keyword == "v") {
      for (int k = 0; k < 3; ++k) b.V.push_back(s.coordinate(s.field("a coordinate")));
      s.skipLine();  // optional w, or per-vertex colours
    } else if (keyword == "f") {
      readObjFace(s, b, polygon);
    } else if (objIgnored(keyword)) {
      s.skipLine();
    } else {
      s.fail("unknown OBJ statement ", quoted(keyword));
    }
  }
  return b.finish(name);
}

SurfaceMesh parseOff(const std::string& name, std::string_view bytes) {
  Scanner s(name, bytes);
  readOffHeader(s);
  // The counts follow on the header line or the next one.
  const std::string_view nv_token = s.token("the vertex count");
  if (nv_token == "BINARY") s.fail("binary OFF files are not supported");
  const int nv = s.count(nv_token, "vertex count");
  const int nf = s.count(s.field("the face count"), "face count");
  s.skipLine();  // edge count, ignored
  SurfaceBuilder b;
  b.V.reserve(3 * s.reserveFor(nv, 6));
  for (int i = 0; i < nv; ++i) {
    if (s.atEnd()) s.fail("expected ", nv, " vertices, the file ends after ", i);
    b.V.push_back(s.coordinate(s.token("a coordinate")));
    for (int k = 0; k < 2; ++k) b.V.push_back(s.coordinate(s.field("a coordinate")));
    s.skipLine();  // colours, normals, texture coordinates
  }
  std::vector<int> polygon;
  for (int f = 0; f < nf; ++f) {
    if (s.atEnd()) s.fail("expected ", nf, " faces, the file ends after ", f);
    const int k = s.count(s.token("a face size"), "face size");
    polygon.clear();
    for (int j = 0; j < k; ++j) {
      const long long index = s.fieldInteger("a vertex index");
      if (index < 0 || index >= nv) s.fail("vertex index ", index, " is out of range (", nv, " vertices, numbered from 0)");
      polygon.push_back(static_cast<int>(index));
    }
    b.addPolygon(s, polygon);
    s.skipLine();  // face colour
  }
  return b.finish(name);
}

std::string offText(const SurfaceMesh& surface) {
  std::string out = "OFF\n";
  appendInt(out, surface.V.rows());
  out += ' ';
  appendInt(out, surface.F.rows());
  out += " 0\n";
  for (Eigen::Index i = 0; i < surface.V.rows(); ++i) {
    for (int k = 0; k < 3; ++k) appendReal(out, surface.V(i, k)), out += k < 2 ? ' ' : '\n';
  }
  for (Eigen::Index f = 0; f < surface.F.rows(); ++f) {
    out += '3';
    for (int k = 0; k < 3; ++k) out += ' ', appendInt(out, surface.F(f, k));
    out += '\n';
  }
  return out;
}

}  // namespace io

void writeObj(const std::filesystem::path& path, const SurfaceMesh& surface) { writeFileBytes(path, io::objText(surface)); }
void writeOff(const std::filesystem::path& path, const SurfaceMesh& surface) { writeFileBytes(path, io::offText(surface)); }

}  // namespace qnsim
