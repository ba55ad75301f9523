// STL, ASCII and binary. STL stores every triangle with its own three corners, so coincident corners
// are merged (exact coordinate match) to give a connected surface that tetgen accepts.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "core/mesh/io_formats.h"
#include "core/mesh/text_scanner.h"
#include "qnsim/error.h"

namespace qnsim::io {
namespace {

constexpr std::size_t kHeaderBytes = 84, kTriangleBytes = 50;

struct PointHash {
  std::size_t operator()(const std::array<double, 3>& p) const {
    return static_cast<std::size_t>(fnv1a64(std::string_view(reinterpret_cast<const char*>(p.data()), sizeof p)));
  }
};

class VertexMerger {
 public:
  int add(double x, double y, double z) {
    // +0.0 + 0.0 turns -0.0 into +0.0, so both zeros hash alike.
    const std::array<double, 3> p{x + 0.0, y + 0.0, z + 0.0};
    const auto [it, inserted] = index_.emplace(p, static_cast<int>(V_.size() / 3));
    if (inserted) V_.insert(V_.end(), p.begin(), p.end());
    return it->second;
  }
  // Corners that merged into one vertex leave a zero-area sliver, useless to tetgen and renderers.
  void addTriangle(const int (&t)[3]) {
    if (t[0] != t[1] && t[1] != t[2] && t[0] != t[2]) F_.insert(F_.end(), {t[0], t[1], t[2]});
  }
  SurfaceMesh finish(const std::string& name) const {
    if (F_.empty()) throw error(name, ": the file has no (non-degenerate) triangles");
    SurfaceMesh surface;
    surface.V = Eigen::Map<const MatX3>(V_.data(), static_cast<Eigen::Index>(V_.size() / 3), 3);
    surface.F = Eigen::Map<const TriIndices>(F_.data(), static_cast<Eigen::Index>(F_.size() / 3), 3);
    return surface;
  }

 private:
  std::unordered_map<std::array<double, 3>, int, PointHash> index_;
  std::vector<double> V_;
  std::vector<int> F_;
};

std::uint32_t binaryCount(std::string_view bytes) {
  std::uint32_t n = 0;
  std::memcpy(&n, bytes.data() + 80, sizeof n);  // little-endian, as the format and x86 are
  return n;
}

bool isBinary(std::string_view bytes) {
  if (bytes.size() >= kHeaderBytes && kHeaderBytes + kTriangleBytes * std::uint64_t{binaryCount(bytes)} == bytes.size()) return true;
  // Exporters often start binary headers with "solid" too, hence the size test first.
  const std::size_t start = bytes.find_first_not_of(" \t\r\n");
  return start == std::string_view::npos || bytes.substr(start, 5) != "solid";
}

SurfaceMesh readBinary(const std::string& name, std::string_view bytes) {
  if (bytes.size() < kHeaderBytes) throw error(name, ": not an STL file (no 'solid' and too short for a binary STL)");
  const std::uint64_t n = binaryCount(bytes);
  if (kHeaderBytes + kTriangleBytes * n != bytes.size())
    throw error(name, ": binary STL announces ", n, " triangles (", kHeaderBytes + kTriangleBytes * n, " bytes) but the file has ", bytes.size(),
                " bytes");
  VertexMerger merger;
  for (std::uint64_t f = 0; f < n; ++f) {
    const char* record = bytes.data() + kHeaderBytes + kTriangleBytes * f + 12;  // skip the normal
    int t[3];
    for (int k = 0; k < 3; ++k) {
      float p[3];
      std::memcpy(p, record + 12 * k, sizeof p);
      if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
        throw error(name, ": triangle ", f + 1, ": vertex coordinate is not a finite number");
      t[k] = merger.add(p[0], p[1], p[2]);
    }
    merger.addTriangle(t);
  }
  return merger.finish(name);
}

void expectWord(Scanner& s, std::string_view word) {
  const std::string_view got = s.token(word);
  if (got != word) s.fail("expected ", word, ", found ", quoted(got));
}

// facet normal nx ny nz / outer loop / vertex x y z (3x) / endloop / endfacet
void readFacet(Scanner& s, VertexMerger& merger) {
  expectWord(s, "normal");
  for (int k = 0; k < 3; ++k) s.nextReal("a normal component");
  expectWord(s, "outer");
  expectWord(s, "loop");
  int t[3];
  for (int& corner : t) {
    expectWord(s, "vertex");
    const double x = s.coordinate(s.token("a coordinate"));
    const double y = s.coordinate(s.token("a coordinate"));
    corner = merger.add(x, y, s.coordinate(s.token("a coordinate")));
  }
  expectWord(s, "endloop");
  expectWord(s, "endfacet");
  merger.addTriangle(t);
}

SurfaceMesh readAscii(const std::string& name, std::string_view bytes) {
  Scanner s(name, bytes, '\0');
  VertexMerger merger;
  while (!s.atEnd()) {
    const std::string_view word = s.token("facet");
    if (word == "solid" || word == "endsolid") s.skipLine();  // the rest of the line is a name
    else if (word == "facet") readFacet(s, merger);
    else s.fail("expected facet or endsolid, found ", quoted(word));
  }
  return merger.finish(name);
}

}  // namespace

SurfaceMesh readStl(const std::filesystem::path& path) { return parseStl(path.string(), readFileBytes(path)); }

SurfaceMesh parseStl(const std::string& name, std::string_view bytes) {
  return isBinary(bytes) ? readBinary(name, bytes) : readAscii(name, bytes);
}

}  // namespace qnsim::io
