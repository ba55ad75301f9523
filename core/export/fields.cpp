// frameFields: what one frame's .vtu holds, from the simulation's public state.
#include <cmath>
#include <limits>

#include "core/collision/collider.h"
#include "core/common/parallel.h"
#include "core/material/fiber.h"
#include "core/math/svd3.h"
#include "qnsim/export.h"
#include "qnsim/simulation.h"

namespace qnsim {
namespace {

constexpr int kVtkLine = 3, kVtkTriangle = 5, kVtkTetra = 10;
constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

void addCell(FrameFields& f, int type, std::initializer_list<int> vertices, int element, int region, int body) {
  f.cell_type.push_back(type);
  f.connectivity.insert(f.connectivity.end(), vertices);
  f.offsets.push_back(static_cast<int>(f.connectivity.size()));
  f.element.push_back(element);
  f.region.push_back(region);
  f.body.push_back(body);
}

}  // namespace

FrameFields frameFields(const Simulation& sim) {
  const Model& model = sim.model();
  const VecX& x = sim.positions();
  const int n = model.vertexCount();
  FrameFields f;
  f.points = asRows(x);
  f.velocity = asRows(sim.velocities());
  f.displacement = asRows(x) - asRows(model.rest);
  if (!sim.colliders().empty()) {
    f.contact_distance.resize(n);
    parallelFor(n, 1024, [&](int begin, int end) {
      for (int v = begin; v < end; ++v) {
        double d = std::numeric_limits<double>::infinity();
        for (const Collider& c : sim.colliders()) d = std::min(d, closestSurfacePoint(c, vertex(x, v)).distance);
        f.contact_distance[v] = d;
      }
    });
  }

  // Cells: the tets, the cloth triangles and the strand segments still present, body by body.
  for (int b = 0; b < static_cast<int>(model.bodies.size()); ++b) {
    const Body& body = model.bodies[b];
    for (int e = body.first_tet; e < body.first_tet + body.tet_count; ++e) {
      if (model.tets.removed[e]) continue;
      const Eigen::Vector4i& t = model.tets.vertices[e];
      addCell(f, kVtkTetra, {t[0], t[1], t[2], t[3]}, e, model.tets.region[e], b);
    }
    if (body.is_cloth) {  // the triangles drawn (removal.cpp, updateSurfaces): their three edge springs present
      for (Eigen::Index k = 0; k < body.triangles.rows(); ++k) {
        const auto s = body.triangle_springs.row(k);
        if (model.springs.removed[s[0]] || model.springs.removed[s[1]] || model.springs.removed[s[2]]) continue;
        addCell(f, kVtkTriangle, {body.triangles(k, 0), body.triangles(k, 1), body.triangles(k, 2)}, static_cast<int>(k),
                model.springs.region[s[0]], b);
      }
    } else if (body.spring_count > 0) {  // strands: their stretch springs still present
      for (int s = body.first_spring; s < body.first_spring + body.spring_count; ++s)
        if (model.springs.hinge[s][0] < 0 && !model.springs.removed[s])
          addCell(f, kVtkLine, {model.springs.vertices[s][0], model.springs.vertices[s][1]}, s, model.springs.region[s], b);
    }
  }

  const int cells = static_cast<int>(f.cell_type.size());
  f.det_f.assign(cells, kNone);
  f.energy_density.assign(cells, kNone);
  f.stress.assign(cells, Mat3::Constant(kNone));
  f.stress_norm.assign(cells, kNone);
  f.strain.assign(cells, kNone);
  parallelFor(cells, 256, [&](int begin, int end) {
    for (int c = begin; c < end; ++c) {
      const int e = f.element[c];
      if (f.cell_type[c] == kVtkTetra) {
        const Mat3 F = model.tets.deformationGradient(x, e);
        const Region& region = model.regions[model.tets.region[e]];
        Mat3 P;
        double psi = model.solid(model.tets.region[e]).energyAndStress(F, &P);
        psi += addFiberEnergyAndStress(region.fiber, F, &P);
        f.det_f[c] = F.determinant();
        f.energy_density[c] = psi;
        f.stress[c] = P;
        f.stress_norm[c] = P.norm();
        f.strain[c] = (svd3(F).sigma.array() - 1.0).abs().maxCoeff();
      } else if (f.cell_type[c] == kVtkLine) {
        const Eigen::Vector2i& s = model.springs.vertices[e];
        f.strain[c] = std::abs((vertex(x, s[0]) - vertex(x, s[1])).norm() / model.springs.rest_length[e] - 1.0);
      }
    }
  });
  return f;
}

}  // namespace qnsim
