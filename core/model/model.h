#pragma once
// Building the Model (qnsim/model.h): bodies, regions and their weights k, and the matrices L.
#include <memory>
#include <string>
#include <vector>

#include "qnsim/mesh.h"
#include "qnsim/model.h"

namespace qnsim {

// Appends a region and returns its index.
int addRegion(Model& model, std::string name, std::shared_ptr<const Material> material, const Fiber& fiber = {});

// Appends a tet body: `tet_region[e]` is the model region (a solid) of the mesh's tet e. Its tets go in
// in their centroids' spatial order (spatial_order.h; Body::mesh_tet says which is which).
// Masses are lumped: each tet gives density * V / 4 to each of its vertices.
void addTetBody(Model& model, const std::string& name, const TetMesh& mesh, double density, const std::vector<int>& tet_region);
// The inverse of Body::mesh_tet: the model's number of each of a tet body's mesh tets, in the mesh's order.
std::vector<int> modelTetsInMeshOrder(const Body& body);

// Appends a mass-spring body (cloth or strands), with spring rest lengths from its positions, each
// bending spring hinged on the stretch springs to its middle vertex. A cloth's mass comes from its
// triangles (`density` per area, a third of each triangle's to each corner), strands' from their
// segments (`density` per length, half of each segment's to each end); strands are drawn as tubes of
// `strand_radius`.
void addSpringBody(Model& model, const std::string& name, const SpringMesh& mesh, int stretch_region, int bend_region, double density,
                   double strand_radius = 0);

// A region's k: Eq. 11 over `interval` for solids (a PD energy's own weight, solidStiffness), the
// spring constant for springs. updateStiffness recomputes every region's.
double regionStiffness(const Region& region, const Vec2& interval);
void updateStiffness(Model& model, const Vec2& interval);

// L = sum over tets V k G^T G (+ fibres V kappa G_d^T G_d) + springs k G G^T + attachments k e e^T (n x n),
// without the removed elements; every diagonal entry is stored, zero or not.
SparseMatrix assembleLaplacian(const Model& model);
// L_e: the same without the attachments, the elastic part (its rows sum to zero: translation is free).
SparseMatrix assembleElasticLaplacian(const Model& model);

}  // namespace qnsim
