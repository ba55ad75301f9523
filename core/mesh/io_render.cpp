// Render surfaces (RenderSurface, qnsim/mesh.h): OBJ with texture coordinates and normals, PLY (ASCII and
// binary) with the same where the file has them, and OFF and STL as plain surfaces. A file's vertex used
// with different texture coordinates or normals at different corners becomes one vertex per combination
// (numbered as the faces first use them); a file with positions only keeps its vertices and their order.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>

#include "core/mesh/io_formats.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/text_scanner.h"
#include "qnsim/error.h"

namespace qnsim {
namespace io {
namespace {

// Corners (position, texture coordinate, normal indices; -1 for none) welded into render vertices.
class CornerWelder {
 public:
  std::vector<double> V, T, N;  // the file's positions (3), texture coordinates (2) and normals (3)

  int corner(int v, int t, int n) {
    const auto [it, inserted] = index_.emplace(std::array<int, 3>{v, t, n}, static_cast<int>(corners_.size()));
    if (inserted) corners_.push_back({v, t, n});
    return it->second;
  }
  void addPolygon(Scanner& s, const std::vector<int>& polygon) {
    if (polygon.size() < 3) s.fail("a face needs at least 3 vertices (found ", polygon.size(), ")");
    for (std::size_t k = 1; k + 1 < polygon.size(); ++k) F_.insert(F_.end(), {polygon[0], polygon[k], polygon[k + 1]});
  }
  RenderSurface finish(const std::string& name) const {
    if (F_.empty()) throw error(name, ": the file has no faces");
    const int n = static_cast<int>(corners_.size());
    RenderSurface out;
    out.V.resize(n, 3);
    bool uv = !T.empty(), normals = !N.empty();
    for (const auto& c : corners_) uv = uv && c[1] >= 0, normals = normals && c[2] >= 0;
    if (!uv && !normals) {  // positions only: the file's vertices as they are, in its order
      out.V = Eigen::Map<const MatX3>(V.data(), static_cast<Eigen::Index>(V.size() / 3), 3);
      out.F.resize(static_cast<Eigen::Index>(F_.size() / 3), 3);
      for (std::size_t i = 0; i < F_.size(); ++i) out.F.data()[i] = corners_[F_[i]][0];
      return out;
    }
    if (uv) out.UV.resize(n, 2);
    if (normals) out.N.resize(n, 3);
    for (int i = 0; i < n; ++i) {
      const auto& c = corners_[i];
      out.V.row(i) = Eigen::Map<const Vec3>(&V[3 * c[0]]).transpose();
      if (uv) out.UV.row(i) = Eigen::Map<const Vec2>(&T[2 * c[1]]).transpose();
      if (normals) {
        const Vec3 normal = Eigen::Map<const Vec3>(&N[3 * c[2]]);
        out.N.row(i) = normal.norm() > 0 ? normal.normalized().transpose() : normal.transpose();
      }
    }
    out.F = Eigen::Map<const TriIndices>(F_.data(), static_cast<Eigen::Index>(F_.size() / 3), 3);
    return out;
  }

 private:
  std::map<std::array<int, 3>, int> index_;
  std::vector<std::array<int, 3>> corners_;
  std::vector<int> F_;
};

// An OBJ index (1-based, or negative from the last) into a list of `count` items; -1 for an empty one.
int objReference(Scanner& s, std::string_view token, int count, const char* what) {
  if (token.empty()) return -1;
  const long long value = s.integer(token, what);
  const long long index = value < 0 ? count + value : value - 1;
  if (value == 0 || index < 0 || index >= count) s.fail(what, " ", value, " is out of range (", count, " so far)");
  return static_cast<int>(index);
}

}  // namespace

RenderSurface parseRenderObj(const std::string& name, std::string_view bytes) {
  Scanner s(name, bytes);
  CornerWelder w;
  std::vector<int> polygon;
  const auto count = [](const std::vector<double>& v, int width) { return static_cast<int>(v.size() / width); };
  while (!s.atEnd()) {
    const std::string_view keyword = s.token("an OBJ statement");
    if (keyword == "v") {
      for (int k = 0; k < 3; ++k) w.V.push_back(s.coordinate(s.field("a coordinate")));
      s.skipLine();
    } else if (keyword == "vt") {
      w.T.push_back(s.coordinate(s.field("a texture coordinate")));
      w.T.push_back(s.atEndOfLine() ? 0.0 : s.coordinate(s.field("a texture coordinate")));
      s.skipLine();
    } else if (keyword == "vn") {
      for (int k = 0; k < 3; ++k) w.N.push_back(s.coordinate(s.field("a normal coordinate")));
      s.skipLine();
    } else if (keyword == "f") {
      polygon.clear();
      while (!s.atEndOfLine()) {
        const std::string_view token = s.field("a vertex index");
        const std::size_t a = token.find('/');
        const std::size_t b = a == std::string_view::npos ? a : token.find('/', a + 1);
        const int v = objReference(s, token.substr(0, a), count(w.V, 3), "vertex index");
        if (v < 0) s.fail("a face corner needs a vertex index, found ", quoted(token));
        const int t = a == std::string_view::npos ? -1 : objReference(s, token.substr(a + 1, b == std::string_view::npos ? b : b - a - 1), count(w.T, 2), "texture coordinate index");
        const int n = b == std::string_view::npos ? -1 : objReference(s, token.substr(b + 1), count(w.N, 3), "normal index");
        polygon.push_back(w.corner(v, t, n));
      }
      w.addPolygon(s, polygon);
    } else {
      s.skipLine();  // groups, materials, smoothing groups, lines: nothing a render surface keeps
    }
  }
  return w.finish(name);
}

namespace {

// PLY: a header of elements and their properties, then the data as ASCII or binary (either byte order).
struct PlyProperty {
  std::string name, type, count_type;  // count_type set for a list
};
struct PlyElement {
  std::string name;
  long long count = 0;
  std::vector<PlyProperty> properties;
};

int plySize(Scanner& s, const std::string& type) {
  if (type == "char" || type == "uchar" || type == "int8" || type == "uint8") return 1;
  if (type == "short" || type == "ushort" || type == "int16" || type == "uint16") return 2;
  if (type == "int" || type == "uint" || type == "int32" || type == "uint32" || type == "float" || type == "float32") return 4;
  if (type == "double" || type == "float64") return 8;
  s.fail("unknown PLY property type ", quoted(type));
}

class PlyData {
 public:
  PlyData(Scanner& s, std::string_view body, bool ascii, bool big_endian) : s_(s), body_(body), ascii_(ascii), big_(big_endian) {}

  double read(const std::string& type) {
    if (ascii_) return s_.real(s_.token("a PLY value"), "a PLY value");
    const int size = plySize(s_, type);
    if (pos_ + size > body_.size()) throw error(s_.name(), ": the binary data ends early (", body_.size(), " bytes)");
    unsigned char b[8];
    std::memcpy(b, body_.data() + pos_, size);
    pos_ += size;
    if (big_ != (std::endian::native == std::endian::big)) std::reverse(b, b + size);
    if (type == "char" || type == "int8") return static_cast<std::int8_t>(b[0]);
    if (type == "uchar" || type == "uint8") return b[0];
    if (type == "short" || type == "int16") return get<std::int16_t>(b);
    if (type == "ushort" || type == "uint16") return get<std::uint16_t>(b);
    if (type == "int" || type == "int32") return get<std::int32_t>(b);
    if (type == "uint" || type == "uint32") return get<std::uint32_t>(b);
    if (type == "float" || type == "float32") return get<float>(b);
    return get<double>(b);
  }

 private:
  template <class T>
  static double get(const unsigned char* b) {
    T v;
    std::memcpy(&v, b, sizeof v);
    return static_cast<double>(v);
  }
  Scanner& s_;
  std::string_view body_;
  std::size_t pos_ = 0;
  bool ascii_, big_;
};

}  // namespace

RenderSurface parsePly(const std::string& name, std::string_view bytes) {
  const std::size_t end = bytes.find("end_header");
  if (bytes.substr(0, 3) != "ply" || end == std::string_view::npos) throw error(name, ": not a PLY file (no 'ply' ... 'end_header' header)");
  std::size_t data = bytes.find('\n', end);
  data = data == std::string_view::npos ? bytes.size() : data + 1;
  Scanner header(name, bytes.substr(0, end), '\0');
  header.token("ply");
  std::string format;
  std::vector<PlyElement> elements;
  while (!header.atEnd()) {
    const std::string_view keyword = header.token("a PLY header line");
    if (keyword == "format") {
      format = header.field("the format");
      header.skipLine();
    } else if (keyword == "element") {
      PlyElement e;
      e.name = header.field("the element name");
      e.count = header.fieldInteger("the element count");
      if (e.count < 0) header.fail("a negative element count");
      elements.push_back(e);
    } else if (keyword == "property") {
      if (elements.empty()) header.fail("a property before any element");
      PlyProperty p;
      p.type = header.field("the property type");
      if (p.type == "list") {
        p.count_type = header.field("the list's count type");
        p.type = header.field("the list's value type");
      }
      p.name = header.field("the property name");
      elements.back().properties.push_back(p);
    } else {
      header.skipLine();  // comment, obj_info
    }
  }
  if (format != "ascii" && format != "binary_little_endian" && format != "binary_big_endian")
    throw error(name, ": unknown PLY format '", format, "' (ascii, binary_little_endian or binary_big_endian)");
  const bool ascii = format == "ascii";
  Scanner body_scanner(name, ascii ? bytes.substr(data) : std::string_view(), '\0');
  PlyData in(body_scanner, bytes.substr(data), ascii, format == "binary_big_endian");
  CornerWelder w;
  bool uv = false, normals = false;
  std::vector<std::vector<int>> faces;
  for (const PlyElement& e : elements) {
    const auto find = [&](std::initializer_list<const char*> names) {
      for (std::size_t i = 0; i < e.properties.size(); ++i)
        for (const char* n : names)
          if (e.properties[i].name == n) return static_cast<int>(i);
      return -1;
    };
    const int x = find({"x"}), y = find({"y"}), z = find({"z"}), nx = find({"nx"}), ny = find({"ny"}), nz = find({"nz"});
    const int u = find({"u", "s", "texture_u", "texture_s"}), v = find({"v", "t", "texture_v", "texture_t"});
    const int list = find({"vertex_indices", "vertex_index"});
    if (e.name == "vertex") {
      if (x < 0 || y < 0 || z < 0) throw error(name, ": the PLY vertices have no x, y and z");
      normals = nx >= 0 && ny >= 0 && nz >= 0;
      uv = u >= 0 && v >= 0;
    }
    if (e.properties.empty()) continue;  // an element without properties holds no data, whatever its count
    std::vector<double> values(e.properties.size());
    for (long long r = 0; r < e.count; ++r) {
      std::vector<int> polygon;
      for (std::size_t i = 0; i < e.properties.size(); ++i) {
        const PlyProperty& p = e.properties[i];
        if (p.count_type.empty()) {
          values[i] = in.read(p.type);
          continue;
        }
        const double items = in.read(p.count_type);
        if (!(items >= 0 && items <= 1e6)) throw error(name, ": ", e.name, " ", r, ": a list of ", items, " items");
        for (int k = 0; k < static_cast<int>(items); ++k) {
          const double index = in.read(p.type);
          if (static_cast<int>(i) != list) continue;
          if (!(index >= 0 && index < 2147483647.0)) throw error(name, ": ", e.name, " ", r, ": vertex index ", index, " is out of range");
          polygon.push_back(static_cast<int>(index));
        }
      }
      if (e.name == "vertex") {
        for (int c : {x, y, z}) {
          if (!std::isfinite(values[c])) throw error(name, ": vertex ", r, " has a coordinate that is not finite");
          w.V.push_back(values[c]);
        }
        if (uv) w.T.insert(w.T.end(), {values[u], values[v]});
        if (normals) w.N.insert(w.N.end(), {values[nx], values[ny], values[nz]});
      } else if (e.name == "face") {
        if (list < 0) throw error(name, ": the PLY faces have no vertex_indices");
        faces.push_back(std::move(polygon));
      }
    }
  }
  const int vertices = static_cast<int>(w.V.size() / 3);
  Scanner at(name, "", '\0');
  std::vector<int> polygon;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    polygon.clear();
    for (int i : faces[f]) {
      if (i < 0 || i >= vertices) throw error(name, ": face ", f, " uses vertex ", i, " but there are ", vertices);
      polygon.push_back(w.corner(i, uv ? i : -1, normals ? i : -1));
    }
    if (polygon.size() < 3) throw error(name, ": face ", f, " has ", polygon.size(), " vertices (at least 3)");
    w.addPolygon(at, polygon);
  }
  return w.finish(name);
}

}  // namespace io

RenderSurface readRenderSurface(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".obj") return io::parseRenderObj(path.string(), readFileBytes(path));
  if (ext == ".ply") return io::parsePly(path.string(), readFileBytes(path));
  if (ext == ".off" || ext == ".stl") {
    const SurfaceMesh s = readSurfaceMesh(path);
    return {s.V, s.F, {}, {}};
  }
  throw error(path.string(), ": unsupported render mesh file type '", ext, "' (expected .obj, .ply, .off or .stl)");
}

}  // namespace qnsim
