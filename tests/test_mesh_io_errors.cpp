// Broken mesh files: every reader must throw qnsim::Error "<path>:<line>: <plain words>" (or
// "<path>: <words>"), and must never crash, hang or over-allocate, whatever the bytes.
#include <gtest/gtest.h>

#include <random>

#include "core/mesh/io_formats.h"
#include "core/mesh/mesh_io.h"
#include "tests/mesh_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

namespace fs = std::filesystem;
using test::errorOf;
using test::firstLines;
using test::withLine;
using test::writeText;

// The five-tet cube, numbered from 0. Line numbers below refer to these texts.
const std::string kNode =
    "8 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 1 1 0\n4 0 0 1\n5 1 0 1\n6 0 1 1\n7 1 1 1\n";
const std::string kEle = "5 4 0\n0 0 1 2 4\n1 3 2 1 7\n2 5 4 7 1\n3 6 7 4 2\n4 1 2 4 7\n";
const std::string kMedit =
    "MeshVersionFormatted 2\nDimension 3\nVertices\n8\n"                                          // lines 1-4
    "0 0 0 0\n1 0 0 0\n0 1 0 0\n1 1 0 0\n0 0 1 0\n1 0 1 0\n0 1 1 0\n1 1 1 0\n"                   // 5-12
    "Tetrahedra\n5\n1 2 3 5 1\n4 3 2 8 1\n6 5 8 2 1\n7 8 5 3 1\n2 3 5 8 1\nEnd\n";             // 13-20

fs::path sample(const std::string& name) { return test::testDataDir() / "meshes" / name; }

// Writes `text` as dir/name (plus the partner files given) and returns the reader's error message.
class BrokenFiles : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::scratchDir(::testing::UnitTest::GetInstance()->current_test_info()->name()); }

  std::string tetError(const std::string& name, const std::string& text) {
    path_ = writeText(dir_ / name, text);
    return errorOf([&] { readTetMesh(path_); });
  }
  std::string surfaceError(const std::string& name, const std::string& text) {
    path_ = writeText(dir_ / name, text);
    return errorOf([&] { readSurfaceMesh(path_); });
  }
  // A node/ele pair; the error is expected in `broken` ("node" or "ele").
  std::string pairError(const std::string& node, const std::string& ele, const std::string& broken) {
    writeText(dir_ / "b.node", node);
    writeText(dir_ / "b.ele", ele);
    path_ = dir_ / ("b." + broken);
    return errorOf([&] { readTetMesh(dir_ / "b.node"); });
  }
  // "<path><rest>...": the message names the file (and line) first.
  void expectStart(const std::string& message, const std::string& rest) const {
    EXPECT_TRUE(message.starts_with(path_.string() + rest)) << "message: " << message << "\nexpected: " << path_.string() + rest;
  }

  fs::path dir_, path_;
};

// ---- TetGen ---------------------------------------------------------------------------------------

TEST_F(BrokenFiles, TetgenTruncated) {
  expectStart(pairError(firstLines(kNode, 6), kEle, "node"), ":6: expected 8 points, the file ends after 5");
  expectStart(pairError(kNode, firstLines(kEle, 3), "ele"), ":3: expected 5 tetrahedra, the file ends after 2");
  expectStart(pairError(withLine(kNode, 3, "1 1 0"), kEle, "node"), ":3: the line ends early, expected a coordinate");
}

TEST_F(BrokenFiles, TetgenNonNumericAndNonFinite) {
  expectStart(pairError(withLine(kNode, 4, "2 0 one 0"), kEle, "node"), ":4: expected a coordinate (a number), found 'one'");
  expectStart(pairError(withLine(kNode, 5, "3 nan 1 0"), kEle, "node"), ":5: vertex coordinate 'nan' is not a finite number");
  expectStart(pairError(withLine(kNode, 6, "4 0 0 -inf"), kEle, "node"), ":6: vertex coordinate '-inf' is not a finite number");
  expectStart(pairError(withLine(kNode, 7, "5 1 0 1e999"), kEle, "node"), ":7: the number '1e999' is out of range");
  expectStart(pairError(kNode, withLine(kEle, 2, "0 0 1 2.5 4"), "ele"), ":2: expected a vertex index (an integer), found '2.5'");
}

TEST_F(BrokenFiles, TetgenIndicesAndNumbering) {
  expectStart(pairError(kNode, withLine(kEle, 4, "2 5 4 8 1"), "ele"), ":4: vertex index 8 is out of range (8 points, numbered from 0)");
  expectStart(pairError(kNode, withLine(kEle, 4, "2 5 4 -1 1"), "ele"), ":4: vertex index -1 is out of range");
  expectStart(pairError(kNode, withLine(kEle, 4, "2 5 4 99999999999999999999 1"), "ele"), ":4: the number '99999999999999999999' is too large");
  expectStart(pairError(withLine(kNode, 4, "5 0 1 0"), kEle, "node"), ":4: point number 5 out of sequence (expected 2)");
  expectStart(pairError(withLine(kNode, 2, "7 0 0 0"), kEle, "node"), ":2: the first point is numbered 7");
  expectStart(pairError(kNode, withLine(kEle, 6, "4 1 2 4 7 extra"), "ele"), ":6: unexpected extra value 'extra'");
  // The smallest long long in a file numbered from 1 (found by fuzzing: subtracting the base overflowed).
  const std::string one_based = "2 3 0 0\n1 0 0 0\n2 1 0 0\n";
  expectStart(pairError(one_based, "1 4 0\n1 1 2 -9223372036854775808 1\n", "ele"),
              ":2: vertex index -9223372036854775808 is out of range (2 points, numbered from 1)");
}

TEST_F(BrokenFiles, TetgenHeaders) {
  expectStart(pairError(withLine(kNode, 1, "8 2 0 0"), kEle, "node"), ":1: only 3D .node files are supported (dimension 2)");
  expectStart(pairError(withLine(kNode, 1, "-8 3 0 0"), kEle, "node"), ":1: negative number of points (-8)");
  expectStart(pairError(kNode, withLine(kEle, 1, "5 6 0"), "ele"), ":1: tetrahedra must have 4 or 10 nodes (found 6)");
  // A huge count must fail at the end of the data, not allocate for 2e9 points first.
  expectStart(pairError(withLine(kNode, 1, "2000000000 3 0 0"), kEle, "node"), ":9: expected 2000000000 points, the file ends after 8");
  expectStart(pairError(withLine(kNode, 1, "20000000000 3 0 0"), kEle, "node"), ":1: number of points 20000000000 is too large");
}

TEST_F(BrokenFiles, TetgenDegenerateAndMixedOrientation) {
  expectStart(pairError(kNode, withLine(kEle, 3, "1 0 1 2 3"), "ele"), ":3: degenerate tetrahedron (volume 0)");
  expectStart(pairError(kNode, withLine(kEle, 5, "3 6 4 7 2"), "ele"), ":5: tetrahedron is inverted relative to the rest of the mesh");
  expectStart(pairError(kNode, withLine(kEle, 5, "3 6 6 7 2"), "ele"), ":5: vertex 6 appears twice");
}

TEST_F(BrokenFiles, TetgenMissingPartnerAndEmpty) {
  path_ = dir_ / "lonely.ele";
  writeText(dir_ / "lonely.node", kNode);
  expectStart(errorOf([&] { readTetMesh(dir_ / "lonely.node"); }), ": file not found (it is needed with lonely.node)");
  path_ = dir_ / "nothing.node";
  expectStart(errorOf([&] { readTetMesh(path_); }), ": file not found");
  expectStart(pairError(kNode, "", "ele"), ": the file is empty");
  expectStart(pairError("# only a comment\n\n", kEle, "node"), ":1: unexpected end of file, expected the number of points");
}

// ---- Medit ----------------------------------------------------------------------------------------

TEST_F(BrokenFiles, MeditTruncatedAndNonNumeric) {
  expectStart(tetError("b.mesh", firstLines(kMedit, 9)), ":9: expected 8 vertices, the file ends after 5");
  expectStart(tetError("b.mesh", firstLines(kMedit, 17)), ":17: expected 5 tetrahedra, the file ends after 3");
  expectStart(tetError("b.mesh", withLine(kMedit, 7, "0 x 0 0")), ":7: expected a coordinate (a number), found 'x'");
  expectStart(tetError("b.mesh", withLine(kMedit, 8, "1 NaN 0 0")), ":8: vertex coordinate 'NaN' is not a finite number");
}

TEST_F(BrokenFiles, MeditIndicesAndGeometry) {
  expectStart(tetError("b.mesh", withLine(kMedit, 16, "4 3 2 9 1")), ":16: vertex index 9 is out of range (8 vertices, numbered from 1)");
  expectStart(tetError("b.mesh", withLine(kMedit, 15, "0 2 3 5 1")), ":15: vertex index 0 is out of range");
  expectStart(tetError("b.mesh", withLine(kMedit, 15, "1 2 3 4 1")), ":15: degenerate tetrahedron (volume 0)");
  expectStart(tetError("b.mesh", withLine(kMedit, 17, "5 6 8 2 1")), ":17: tetrahedron is inverted relative to the rest of the mesh");
  // The first tet listed again in place of the middle one (found by fuzzing: every face is then shared,
  // and the mesh has no boundary at all).
  const std::string twice = tetError("b.mesh", withLine(kMedit, 19, "1 2 3 5 1"));
  expectStart(twice, ":19: tetrahedron overlaps the one at " + path_.string() + ":15 (both lie on the same side of their common face");
}

TEST_F(BrokenFiles, MeditStructure) {
  expectStart(tetError("b.mesh", withLine(kMedit, 13, "Tetrahedrons")), ":13: unknown Medit keyword 'Tetrahedrons'");
  expectStart(tetError("b.mesh", withLine(kMedit, 2, "Dimension 2")), ":2: only 3D Medit meshes are supported (Dimension 2)");
  expectStart(tetError("b.mesh", withLine(kMedit, 4, "-8")), ":4: negative number of vertices (-8)");
  expectStart(tetError("b.mesh", firstLines(kMedit, 12)), ": the file has no tetrahedra");
  expectStart(tetError("b.mesh", ""), ": the file is empty");
  // Sections it does not use are skipped by size, so a short one is still an error.
  expectStart(tetError("b.mesh", withLine(kMedit, 20, "Edges 2\n1 2 0")), ":21: expected 2 Edges, the file ends after 1");
}

// ---- Gmsh -----------------------------------------------------------------------------------------

TEST_F(BrokenFiles, GmshVariants) {
  const std::string v2 = test::readText(sample("cube5_v2.msh"));
  expectStart(tetError("b.msh", withLine(v2, 2, "2.2 1 8")), ":2: binary Gmsh files are not supported");
  expectStart(tetError("b.msh", withLine(v2, 2, "3.0 0 8")), ":2: Gmsh format version 3.0 is not supported");
  expectStart(tetError("b.msh", "$NOD\n1\n1 0 0 0\n$ENDNOD\n"), ":1: not a Gmsh file: expected $MeshFormat, found '$NOD'");
}

TEST_F(BrokenFiles, GmshData) {
  const std::string v2 = test::readText(sample("cube5_v2.msh"));
  expectStart(tetError("b.msh", firstLines(v2, 15)), ":15: expected 8 nodes, the file ends after 5");
  expectStart(tetError("b.msh", withLine(v2, 13, "30 0 y 0")), ":13: expected a coordinate (a number), found 'y'");
  expectStart(tetError("b.msh", withLine(v2, 14, "40 1 nan 0")), ":14: vertex coordinate 'nan' is not a finite number");
  expectStart(tetError("b.msh", withLine(v2, 25, "4 4 2 7 1 40 30 20 81")), ":25: node 81 is not defined in $Nodes");
  expectStart(tetError("b.msh", withLine(v2, 24, "3 4 2 7 1 10 20 30 40")), ":24: degenerate tetrahedron (volume 0)");
  expectStart(tetError("b.msh", withLine(v2, 19, "$EndNode")), ":19: expected $EndNodes, found '$EndNode'");
  expectStart(tetError("b.msh", withLine(v2, 12, "10 1 0 0")), ":12: node 10 is defined twice");
  const std::string v41 = test::readText(sample("cube5_v41.msh"));
  expectStart(tetError("b.msh", firstLines(v41, 24)), ":24: expected 8 nodes, the file ends after 4");
  expectStart(tetError("b.msh", withLine(v41, 42, "6 2 3 5 9")), ":42: node 9 is not defined in $Nodes");
  expectStart(tetError("b.msh", withLine(v41, 12, "2 9 1 8")), ":12: the $Nodes header announces 9 nodes, the blocks hold 8");
}

// ---- Surfaces -------------------------------------------------------------------------------------

TEST_F(BrokenFiles, Obj) {
  const std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  expectStart(surfaceError("b.obj", withLine(obj, 4, "f 1 2 9")), ":4: vertex index 9 is out of range (3 vertices so far)");
  expectStart(surfaceError("b.obj", withLine(obj, 4, "f 0 1 2")), ":4: vertex index 0 is out of range");
  expectStart(surfaceError("b.obj", withLine(obj, 4, "f 1 -4 2")), ":4: vertex index -4 is out of range");
  expectStart(surfaceError("b.obj", withLine(obj, 4, "f 1/1 x/2 3")), ":4: expected a vertex index (an integer), found 'x'");
  expectStart(surfaceError("b.obj", withLine(obj, 4, "f 1 2")), ":4: a face needs at least 3 vertices (found 2)");
  expectStart(surfaceError("b.obj", withLine(obj, 2, "v 1 a 0")), ":2: expected a coordinate (a number), found 'a'");
  expectStart(surfaceError("b.obj", withLine(obj, 2, "v 1 0 inf")), ":2: vertex coordinate 'inf' is not a finite number");
  expectStart(surfaceError("b.obj", withLine(obj, 3, "vertex 0 1 0")), ":3: unknown OBJ statement 'vertex'");
  expectStart(surfaceError("b.obj", "# nothing\n"), ": the file has no vertices");
  expectStart(surfaceError("b.obj", firstLines(obj, 3)), ": the file has no faces");
}

TEST_F(BrokenFiles, Off) {
  const std::string off = test::readText(sample("cube.off"));
  expectStart(surfaceError("b.off", firstLines(off, 14)), ":14: expected 6 faces, the file ends after 3");
  expectStart(surfaceError("b.off", firstLines(off, 6)), ":6: expected 8 vertices, the file ends after 3");
  expectStart(surfaceError("b.off", withLine(off, 12, "4 0 2 3 8")), ":12: vertex index 8 is out of range (8 vertices, numbered from 0)");
  expectStart(surfaceError("b.off", withLine(off, 5, "1 0 zero")), ":5: expected a coordinate (a number), found 'zero'");
  expectStart(surfaceError("b.off", withLine(off, 1, "OFF BINARY")), ":1: binary OFF files are not supported");
  expectStart(surfaceError("b.off", withLine(off, 1, "4OFF")), ":1: only 3D OFF files are supported");
  expectStart(surfaceError("b.off", withLine(off, 1, "ply")), ":1: not an OFF file: expected OFF, found 'ply'");
}

TEST_F(BrokenFiles, Stl) {
  const std::string ascii = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1\nendloop\nendfacet\nendsolid t\n";
  expectStart(surfaceError("b.stl", ascii), ":7: expected a coordinate (a number), found 'endloop'");
  expectStart(surfaceError("b.stl", withLine(ascii, 6, "vertex 0 1 nan")), ":6: vertex coordinate 'nan' is not a finite number");
  expectStart(surfaceError("b.stl", withLine(ascii, 3, "inner loop")), ":3: expected outer, found 'inner'");
  expectStart(surfaceError("b.stl", "abc"), ": not an STL file (no 'solid' and too short for a binary STL)");
  std::string binary(84, '\0');
  binary[80] = 2;  // two triangles announced, none present
  expectStart(surfaceError("b.stl", binary + std::string(30, '\0')), ": binary STL announces 2 triangles (184 bytes) but the file has 114 bytes");
  std::string nan_binary(84 + 50, '\0');
  nan_binary[80] = 1;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(nan_binary.data() + 84 + 12, &nan, 4);
  expectStart(surfaceError("b.stl", nan_binary), ": triangle 1: vertex coordinate is not a finite number");
}

// A count near the top of int fails at the end of the data in every format, before anything is made for
// it (as TetgenHeaders checks for .node files).
TEST_F(BrokenFiles, HugeCountsFailAtTheEndOfTheData) {
  expectStart(tetError("b.mesh", firstLines(withLine(kMedit, 4, "2000000000"), 12)), ":12: expected 2000000000 vertices, the file ends after 8");
  const std::string v2 = test::readText(sample("cube5_v2.msh"));
  expectStart(tetError("b.msh", firstLines(withLine(v2, 10, "2000000000"), 18)), ":18: expected 2000000000 nodes, the file ends after 8");
  const std::string off = test::readText(sample("cube.off"));
  expectStart(surfaceError("b.off", firstLines(withLine(off, 3, "2000000000 2000000000 0"), 11)),
              ":11: expected 2000000000 vertices, the file ends after 8");
  std::string stl(84 + 50, '\0');
  const uint32_t triangles = 2000000000;
  std::memcpy(stl.data() + 80, &triangles, 4);
  expectStart(surfaceError("b.stl", stl), ": binary STL announces 2000000000 triangles (100000000084 bytes) but the file has 134 bytes");
}

// ---- Any bytes ------------------------------------------------------------------------------------

// Parses `bytes` as the format of `name` (in memory: thousands of variants, no disk traffic) and
// checks the outcome is a mesh or a qnsim::Error naming the file.
void expectMeshOrNamedError(const std::string& name, const std::string& bytes) {
  const std::string ext = fs::path(name).extension().string();
  static const std::string node = test::readText(sample("cube5.node")), ele = test::readText(sample("cube5.ele"));
  try {
    if (ext == ".node") io::parseNodeEle(name, bytes, "x.ele", ele);
    else if (ext == ".ele") io::parseNodeEle("x.node", node, name, bytes);
    else if (ext == ".mesh") io::parseMedit(name, bytes);
    else if (ext == ".msh") io::parseGmsh(name, bytes);
    else if (ext == ".obj") io::parseObj(name, bytes);
    else if (ext == ".off") io::parseOff(name, bytes);
    else io::parseStl(name, bytes);
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with(name + ":") || message.starts_with("x.")) << message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << name << ": not a qnsim::Error: " << e.what();
  }
}

const char* const kSamples[] = {"cube5.node", "cube5.ele", "cube5.mesh", "cube5_v2.msh", "cube5_v41.msh", "cube.obj", "cube.off", "cube.stl"};

// Every prefix of every sample, then random byte edits: no crash, no other exception.
TEST(MeshIoFuzz, TruncatedAndMutatedSamplesGiveErrors) {
  std::mt19937 rng(2024);
  const std::string alphabet = "0123456789 -+.eE\n\t#$/xnaif\xff";
  for (const char* name : kSamples) {
    SCOPED_TRACE(name);
    const std::string text = test::readText(sample(name));
    for (std::size_t n = 0; n <= text.size(); ++n) expectMeshOrNamedError(name, text.substr(0, n));
    for (int trial = 0; trial < 2000; ++trial) {
      std::string mutated = text;
      for (int edits = 1 + trial % 3; edits > 0; --edits) mutated[rng() % mutated.size()] = alphabet[rng() % alphabet.size()];
      expectMeshOrNamedError(name, mutated);
    }
  }
}

TEST(MeshIoFuzz, GarbageBytesGiveErrors) {
  std::mt19937 rng(7);
  for (const char* name : kSamples) {
    for (int trial = 0; trial < 200; ++trial) {
      std::string garbage(rng() % 2000, '\0');
      for (char& c : garbage) c = static_cast<char>(rng());
      expectMeshOrNamedError(name, garbage);
    }
  }
  // And through the file readers, binary garbage under every extension.
  const fs::path dir = test::scratchDir("garbage");
  std::string garbage(1000, '\0');
  for (char& c : garbage) c = static_cast<char>(rng());
  writeText(dir / "g.ele", garbage);
  for (const char* name : {"g.node", "g.mesh", "g.msh", "g.obj", "g.off", "g.stl"}) {
    const fs::path path = writeText(dir / name, garbage);
    const bool surface = path.extension() == ".obj" || path.extension() == ".off" || path.extension() == ".stl";
    const std::string message = errorOf([&] { surface ? (void)readSurfaceMesh(path) : (void)readTetMesh(path); });
    EXPECT_TRUE(message.starts_with(dir.string())) << message;
  }
}

}  // namespace
}  // namespace qnsim
