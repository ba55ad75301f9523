#pragma once
// The surfaces an export draws, one per body with triangles: the body's render mesh when it has one
// (model.h, Body::render), else its simulation surface (Body::surface, which follows torn elements).
// Every drawn vertex is a fixed combination of up to four model vertices, sum_k weight[k] x[index[k]]:
// a surface vertex is its own model vertex (weights 1 0 0 0); a render mesh vertex takes the barycentric
// weights of its cage tet.
#include <string>
#include <vector>

#include "qnsim/model.h"

namespace qnsim {

struct DrawnSurface {
  std::string name;  // the body's
  std::vector<Eigen::Vector4i> index;
  std::vector<Eigen::Vector4d> weight;
  TriIndices F;  // triangles as indices into the drawn vertices
  MatX2 uv;      // one row per drawn vertex, or empty
  bool double_sided = false;  // a cloth
  int vertexCount() const { return static_cast<int>(index.size()); }
};

// Bodies without triangles (strands) draw nothing here.
std::vector<DrawnSurface> drawnSurfaces(const Model& model);

// The drawn vertices at positions x (3n).
void drawnPositions(const DrawnSurface& surface, const VecX& x, MatX3& P);
// Area-weighted vertex normals of the triangles F over P, unit length (+y for a vertex of no triangle).
void vertexNormals(const MatX3& P, const TriIndices& F, MatX3& N);

}  // namespace qnsim
