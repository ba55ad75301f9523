#pragma once
// A colouring of the model's elements for parallel Gauss-Seidel: elements of one colour share no vertex,
// so they can be updated at the same time in any order with the same result.
#include <vector>

#include "core/model/model.h"

namespace qnsim {

// Element ids: tet e is e, spring s is tets.size() + s. Greedy in id order (each element takes the
// smallest colour none of its vertices' earlier elements has), so the colouring depends on the mesh alone.
std::vector<std::vector<int>> colorElements(const Model& model);

// For each vertex, the elements that touch it (CSR): tets as 4 e + a (a the vertex's place in tet e),
// springs as 2 s + end; removed elements included (the callers skip them), so it is fixed for the model.
struct VertexElements {
  std::vector<int> tet_start, tet_entry, spring_start, spring_entry;
  explicit VertexElements(const Model& model);
};

// A colouring of the vertices for parallel block Gauss-Seidel (Vertex Block Descent): two vertices of one
// colour share no element. Greedy in vertex order, so it depends on the mesh alone.
std::vector<std::vector<int>> colorVertices(const Model& model);

}  // namespace qnsim
