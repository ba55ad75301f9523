// Gmsh .msh, ASCII versions 2.x, 4.0 and 4.1 (https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format).
// Only 4-node tetrahedra (element type 4) are read; other elements are skipped. The region of a tet is
// its physical tag (v2), or the first physical group of its volume entity, else the entity tag (v4).
// Node tags may be sparse and sections may come in any order, so tets are resolved at the end.
#include <climits>
#include <unordered_map>

#include "core/mesh/io_formats.h"
#include "core/mesh/text_scanner.h"
#include "qnsim/error.h"

namespace qnsim::io {
namespace {

enum class Version { v2, v40, v41 };

struct RawTet {
  long long nodes[4];
  long long tag;       // physical tag (v2) or volume entity tag (v4)
  bool is_entity_tag;  // v4: map through the entity's physical groups
  int line;
};

struct GmshData {
  Version version = Version::v2;
  std::unordered_map<long long, int> node_index;       // node tag -> vertex index
  std::unordered_map<long long, long long> physical;   // v4 volume entity tag -> first physical tag
  std::vector<RawTet> tets;
  long long skipped_elements = 0;
};

constexpr int kTetType = 4;

void expectToken(Scanner& s, std::string_view expected) {
  const std::string_view got = s.token(expected);
  if (got != expected) s.fail("expected ", expected, ", found ", quoted(got));
}

Version readFormat(Scanner& s) {
  const std::string_view first = s.token("$MeshFormat");
  if (first != "$MeshFormat") s.fail("not a Gmsh file: expected $MeshFormat, found ", quoted(first), " (Gmsh v1 files are not supported)");
  const std::string_view version_token = s.token("the format version");
  const double version = s.real(version_token, "the format version");
  const long long file_type = s.fieldInteger("the file type");
  s.fieldInteger("the data size");
  if (file_type != 0) s.fail("binary Gmsh files are not supported; save the mesh as ASCII (gmsh in.msh -save -format msh41 -o out.msh)");
  Version result;
  if (version >= 2 && version < 3) result = Version::v2;
  else if (version_token == "4" || version_token == "4.0") result = Version::v40;
  else if (version_token == "4.1") result = Version::v41;
  else s.fail("Gmsh format version ", version_token, " is not supported (2.x, 4.0 and 4.1 are)");
  expectToken(s, "$EndMeshFormat");
  return result;
}

void addNode(Scanner& s, GmshData& g, TetMeshBuilder& b, long long tag) {
  if (!g.node_index.emplace(tag, b.vertexCount()).second) s.fail("node ", tag, " is defined twice");
  b.vertex_line.push_back(s.line());
}

void addCoordinates(Scanner& s, TetMeshBuilder& b, bool first_on_line) {
  b.V.push_back(s.coordinate(first_on_line ? s.token("a coordinate") : s.field("a coordinate")));
  b.V.push_back(s.coordinate(s.field("a coordinate")));
  b.V.push_back(s.coordinate(s.field("a coordinate")));
  s.skipLine();  // parametric coordinates, if any
}

void readNodesV2(Scanner& s, GmshData& g, TetMeshBuilder& b) {
  const int n = s.count(s.token("the number of nodes"), "number of nodes");
  b.V.reserve(3 * s.reserveFor(n, 8));
  for (int i = 0; i < n; ++i) {
    if (s.atEnd()) s.fail("expected ", n, " nodes, the file ends after ", i);
    addNode(s, g, b, s.nextInteger("a node tag"));
    addCoordinates(s, b, false);
  }
}

// v4.0 block: "entityTag entityDim parametric n", then n lines "tag x y z [u v w]".
// v4.1 block: "entityDim entityTag parametric n", then n tags, then n lines "x y z [u v w]".
void readNodesV4(Scanner& s, GmshData& g, TetMeshBuilder& b) {
  const int blocks = s.count(s.token("the number of node blocks"), "number of node blocks");
  const int n = s.count(s.field("the number of nodes"), "number of nodes");
  s.skipLine();  // v4.1: min and max tag
  const int header_line = s.line();
  b.V.reserve(3 * s.reserveFor(n, 8));
  for (int block = 0; block < blocks; ++block) {
    for (int k = 0; k < 3; ++k) s.nextInteger("a node block header value");
    const int in_block = s.count(s.field("the number of nodes in the block"), "number of nodes in the block");
    if (b.vertexCount() + static_cast<long long>(in_block) > n) s.fail("the node blocks hold more than the ", n, " nodes announced");
    const int first = b.vertexCount();
    for (int i = 0; i < in_block; ++i) {
      if (s.atEnd()) s.fail("expected ", n, " nodes, the file ends after ", b.vertexCount());
      addNode(s, g, b, s.nextInteger("a node tag"));
      if (g.version == Version::v40) addCoordinates(s, b, false);
    }
    for (int i = 0; g.version == Version::v41 && i < in_block; ++i) {
      if (s.atEnd()) s.fail("expected ", n, " nodes, the file ends after ", first + i);
      addCoordinates(s, b, true);
      b.vertex_line[first + i] = s.line();  // point errors at the coordinates, not the tag
    }
  }
  if (b.vertexCount() != n)
    throw error(s.name(), ":", header_line, ": the $Nodes header announces ", n, " nodes, the blocks hold ", b.vertexCount());
}

void readTet(Scanner& s, GmshData& g, long long tag, bool is_entity_tag) {
  RawTet tet{};
  for (long long& node : tet.nodes) node = s.fieldInteger("a node tag");
  s.endLine();
  tet.tag = tag;
  tet.is_entity_tag = is_entity_tag;
  tet.line = s.line();
  g.tets.push_back(tet);
}

// "id type ntags tag1 ... nodes...": tag1 is the physical tag.
void readElementsV2(Scanner& s, GmshData& g) {
  const int n = s.count(s.token("the number of elements"), "number of elements");
  g.tets.reserve(s.reserveFor(n, 12));
  for (int e = 0; e < n; ++e) {
    if (s.atEnd()) s.fail("expected ", n, " elements, the file ends after ", e);
    s.nextInteger("an element number");
    const long long type = s.fieldInteger("the element type");
    const int tags = s.count(s.field("the number of tags"), "number of tags");
    long long physical = 0;
    for (int k = 0; k < tags; ++k) {
      const long long tag = s.fieldInteger("an element tag");
      if (k == 0) physical = tag;
    }
    if (type == kTetType) readTet(s, g, physical, false);
    else s.skipLine(), ++g.skipped_elements;
  }
}

void readElementsV4(Scanner& s, GmshData& g) {
  const int blocks = s.count(s.token("the number of element blocks"), "number of element blocks");
  const int n = s.count(s.field("the number of elements"), "number of elements");
  s.skipLine();
  g.tets.reserve(s.reserveFor(n, 12));
  long long seen = 0;
  for (int block = 0; block < blocks; ++block) {
    // v4.1: "entityDim entityTag type n"; v4.0: "entityTag entityDim type n".
    const long long first = s.nextInteger("an element block header value");
    const long long second = s.fieldInteger("an element block header value");
    const long long entity = g.version == Version::v41 ? second : first;
    const long long type = s.fieldInteger("the element type");
    const int in_block = s.count(s.field("the number of elements in the block"), "number of elements in the block");
    for (int i = 0; i < in_block; ++i, ++seen) {
      if (s.atEnd()) s.fail("expected ", n, " elements, the file ends after ", seen);
      s.nextInteger("an element tag");
      if (type == kTetType) readTet(s, g, entity, true);
      else s.skipLine(), ++g.skipped_elements;
    }
  }
}

// Returns the first physical tag of a "numPhysicalTags tag..." list, or `fallback` if empty.
long long readPhysicalTags(Scanner& s, long long fallback) {
  const int n = s.count(s.token("the number of physical tags"), "number of physical tags");
  for (int k = 0; k < n; ++k) {
    const long long tag = s.nextInteger("a physical tag");
    if (k == 0) fallback = tag;
  }
  return fallback;
}

void skipReals(Scanner& s, int n) {
  for (int k = 0; k < n; ++k) s.nextReal("a bounding-box coordinate");
}

// Points: "tag x y z phys" (4.1) or "tag box(6) phys" (4.0); curves, surfaces and volumes:
// "tag box(6) phys bounding-entities". Only volumes matter here.
void readEntities(Scanner& s, GmshData& g) {
  int count[4];
  for (int& c : count) c = s.count(s.token("an entity count"), "entity count");
  for (int dim = 0; dim < 4; ++dim) {
    for (int i = 0; i < count[dim]; ++i) {
      if (s.atEnd()) s.fail("the $Entities section ends early");
      const long long tag = s.nextInteger("an entity tag");
      skipReals(s, dim == 0 && g.version == Version::v41 ? 3 : 6);
      const long long physical = readPhysicalTags(s, tag);
      if (dim == 3) g.physical[tag] = physical;
      if (dim == 0) continue;
      const int bounding = s.count(s.token("the number of bounding entities"), "number of bounding entities");
      for (int k = 0; k < bounding; ++k) s.nextInteger("a bounding entity tag");
    }
  }
}

void skipSection(Scanner& s, std::string_view name) {
  const std::string end = "$End" + std::string(name.substr(1));
  while (!s.atEnd())
    if (s.token(end) == end) return;
  s.fail("the file ends inside the ", name, " section (no ", end, ")");
}

int vertexOf(Scanner& s, const GmshData& g, const RawTet& tet, long long tag) {
  const auto it = g.node_index.find(tag);
  if (it == g.node_index.end()) throw error(s.name(), ":", tet.line, ": node ", tag, " is not defined in $Nodes");
  return it->second;
}

TetMesh resolve(Scanner& s, const GmshData& g, TetMeshBuilder& b) {
  if (g.tets.empty() && g.skipped_elements > 0)
    throw error(s.name(), ": the file has no 4-node tetrahedra (element type 4); only those are read");
  for (const RawTet& tet : g.tets) {
    for (long long node : tet.nodes) b.T.push_back(vertexOf(s, g, tet, node));
    const auto physical = tet.is_entity_tag ? g.physical.find(tet.tag) : g.physical.end();
    const long long region = physical != g.physical.end() ? physical->second : tet.tag;
    if (region < INT_MIN || region > INT_MAX) throw error(s.name(), ":", tet.line, ": region tag ", region, " is too large");
    b.region.push_back(static_cast<int>(region));
    b.tet_line.push_back(tet.line);
  }
  return b.finish();
}

}  // namespace

TetMesh readGmsh(const std::filesystem::path& path) { return parseGmsh(path.string(), readFileBytes(path)); }

TetMesh parseGmsh(const std::string& name, std::string_view bytes) {
  Scanner s(name, bytes, '\0');
  TetMeshBuilder b;
  b.vertex_file = b.tet_file = name;
  GmshData g;
  g.version = readFormat(s);
  while (!s.atEnd()) {
    const std::string_view section = s.token("a section");
    if (section.empty() || section[0] != '$') s.fail("expected a section such as $Nodes, found ", quoted(section));
    if (section == "$Nodes") {
      if (b.vertexCount() > 0) s.fail("a second $Nodes section is not supported");
      g.version == Version::v2 ? readNodesV2(s, g, b) : readNodesV4(s, g, b);
    } else if (section == "$Elements") {
      g.version == Version::v2 ? readElementsV2(s, g) : readElementsV4(s, g);
    } else if (section == "$Entities" && g.version != Version::v2) {
      readEntities(s, g);
    } else {
      skipSection(s, section);
      continue;
    }
    expectToken(s, "$End" + std::string(section.substr(1)));
  }
  return resolve(s, g, b);
}

}  // namespace qnsim::io
