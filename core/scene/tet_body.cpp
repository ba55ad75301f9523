// makeTetBody (qnsim/scene.h): a body from a program's own arrays, checked as a mesh file is.
#include <cmath>

#include "core/mesh/mesh_check.h"
#include "qnsim/error.h"
#include "qnsim/scene.h"

namespace qnsim {

BodyDesc makeTetBody(std::string name, MatX3 V, TetIndices T, std::shared_ptr<const Material> material, double density) {
  const std::string source = "body '" + name + "'";
  if (!dynamic_cast<const SolidMaterial*>(material.get()))
    throw error(source, ": a tet body needs a solid material (", material ? "got the spring material" : "got none", ")");
  if (!(std::isfinite(density) && density > 0)) throw error(source, ": the density must be positive and finite, got ", density);
  BodyDesc body;
  body.name = std::move(name);
  body.source = "arrays";
  body.density = density;
  body.mesh.V = std::move(V);
  body.mesh.T = std::move(T);
  body.mesh.region = Eigen::VectorXi::Zero(body.mesh.T.rows());
  const Eigen::Index vertices = body.mesh.V.rows();
  const MeshRepairs repairs = checkTetMesh(body.mesh, source);
  if (body.mesh.V.rows() != vertices)  // the checker dropped vertices that no (non-sliver) tet uses
    throw error(source, ": ", vertices - body.mesh.V.rows(), " of its vertices are used by no tet of positive volume; "
                "remove them, so that its vertices keep your indices");
  if (repairs.slivers > 0) throw error(source, ": ", repairs.slivers, " tets have (almost) no volume");
  body.materials.push_back({body.name, -1, std::move(material), {}, std::nullopt});
  return body;
}

}  // namespace qnsim
