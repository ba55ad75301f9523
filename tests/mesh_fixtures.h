#pragma once
// Small meshes built in code and file helpers for the mesh tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <string>

#include <Eigen/Geometry>

#include "qnsim/error.h"
#include "qnsim/mesh.h"

namespace qnsim::test {

inline double tetVolume(const MatX3& V, const Eigen::Vector4i& t) {
  const Vec3 a = V.row(t[0]);
  return (Vec3(V.row(t[1])) - a).cross(Vec3(V.row(t[2])) - a).dot(Vec3(V.row(t[3])) - a) / 6.0;
}

inline double totalVolume(const TetMesh& mesh) {
  double sum = 0;
  for (Eigen::Index e = 0; e < mesh.T.rows(); ++e) sum += tetVolume(mesh.V, mesh.T.row(e));
  return sum;
}

// Volume enclosed by a closed surface (divergence theorem): positive when faces point outward.
inline double enclosedVolume(const MatX3& V, const TriIndices& F) {
  double sum = 0;
  for (Eigen::Index f = 0; f < F.rows(); ++f)
    sum += Vec3(V.row(F(f, 0))).dot(Vec3(V.row(F(f, 1))).cross(Vec3(V.row(F(f, 2))))) / 6.0;
  return sum;
}

// Unit cube corners, vertex i at (i & 1, (i >> 1) & 1, (i >> 2) & 1).
inline MatX3 cubeCorners() {
  MatX3 V(8, 3);
  for (int i = 0; i < 8; ++i) V.row(i) << (i & 1), ((i >> 1) & 1), ((i >> 2) & 1);
  return V;
}

// Four corner tets around a middle one (region 9 in the middle, 7 elsewhere), all positive.
inline TetMesh fiveTetCube() {
  TetMesh mesh;
  mesh.V = cubeCorners();
  mesh.T.resize(5, 4);
  mesh.T << 0, 1, 2, 4, 3, 2, 1, 7, 5, 4, 7, 1, 6, 7, 4, 2, 1, 2, 4, 7;
  mesh.region.resize(5);
  mesh.region << 7, 7, 7, 7, 9;
  return mesh;
}

// Kuhn subdivision of an n x n x n grid of unit cells (6 tets per cell around each cell's
// diagonal), positively oriented; n = 28 gives 131,712 tets.
inline TetMesh kuhnGrid(int n) {
  const int m = n + 1;
  TetMesh mesh;
  mesh.V.resize(m * m * m, 3);
  for (int z = 0, i = 0; z < m; ++z)
    for (int y = 0; y < m; ++y)
      for (int x = 0; x < m; ++x) mesh.V.row(i++) << x, y, z;
  const auto id = [m](int x, int y, int z) { return x + m * (y + m * z); };
  mesh.T.resize(6 * n * n * n, 4);
  int e = 0;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        std::array<int, 3> axes{0, 1, 2};
        do {
          std::array<int, 3> p{x, y, z};
          Eigen::Vector4i t;
          t[0] = id(p[0], p[1], p[2]);
          for (int k = 0; k < 3; ++k) ++p[axes[k]], t[k + 1] = id(p[0], p[1], p[2]);
          if (tetVolume(mesh.V, t) < 0) std::swap(t[2], t[3]);
          mesh.T.row(e++) = t;
        } while (std::next_permutation(axes.begin(), axes.end()));
      }
  mesh.region = Eigen::VectorXi::Zero(mesh.T.rows());
  return mesh;
}

inline std::filesystem::path writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Replaces line `line` (1-based) of text; an empty replacement keeps an empty line.
inline std::string withLine(const std::string& text, int line, const std::string& replacement) {
  std::size_t start = 0;
  for (int i = 1; i < line; ++i) start = text.find('\n', start) + 1;
  const std::size_t end = text.find('\n', start);
  return text.substr(0, start) + replacement + (end == std::string::npos ? "" : text.substr(end));
}

// The first `lines` lines of text.
inline std::string firstLines(const std::string& text, int lines) {
  std::size_t end = 0;
  for (int i = 0; i < lines; ++i) end = text.find('\n', end) + 1;
  return text.substr(0, end);
}

// The message of the qnsim::Error that f throws; a test failure if it throws nothing or another type.
template <class F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a qnsim::Error: " << e.what();
    return {};
  }
  ADD_FAILURE() << "no error was thrown";
  return {};
}

}  // namespace qnsim::test
