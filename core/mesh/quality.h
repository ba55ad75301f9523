#pragma once
// The quality of a tet mesh before it is simulated: dihedral angles and radius-edge ratios per tet, a
// histogram, the worst tets and where they are, and the surface's shells (qnsim mesh, docs/pipeline.md).
// Slivers (small dihedral angles) make the elastic energy stiff and the solves slow; tetgen's -q bounds
// the radius-edge ratio and, with a second number, the smallest dihedral angle.
#include <array>
#include <string>
#include <vector>

#include "qnsim/mesh.h"

namespace qnsim {

struct TetQuality {
  double min_dihedral = 0, max_dihedral = 0;  // degrees
  double radius_edge = 0;                      // circumradius / shortest edge (0.612 for a regular tet)
  double volume = 0;                           // m^3, signed
};
TetQuality tetQuality(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

struct MeshQualityReport {
  int vertices = 0, tets = 0, boundary_triangles = 0, shells = 0;  // shells: connected pieces of the boundary
  double volume = 0, smallest_volume = 0;
  double min_dihedral = 180, max_dihedral = 0, max_radius_edge = 0, mean_min_dihedral = 0;
  // Tets by their smallest dihedral angle: [0, 5), [5, 10), [10, 20), [20, 30), [30, 40), [40, 50), [50, 60), [60, 71] degrees.
  static constexpr std::array<double, 9> kBins = {0, 5, 10, 20, 30, 40, 50, 60, 71};
  std::array<int, 8> histogram{};
  std::vector<int> worst;  // up to 5 tets with the smallest dihedral angles, worst first
  std::vector<TetQuality> worst_quality;
  std::vector<Vec3> worst_centroid;
};
MeshQualityReport meshQuality(const TetMesh& mesh);

// The report as lines of text for a terminal.
std::string describeQuality(const MeshQualityReport& report);

}  // namespace qnsim
