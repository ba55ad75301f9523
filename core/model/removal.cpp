#include "core/model/removal.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/hash.h"
#include "core/common/parallel.h"
#include "core/math/svd3.h"
#include "core/model/model.h"
#include "core/mesh/surface.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {

// The indices whose flag is set, in increasing order.
std::vector<int> flagged(const std::vector<char>& flags) {
  std::vector<int> out;
  for (size_t i = 0; i < flags.size(); ++i)
    if (flags[i]) out.push_back(static_cast<int>(i));
  return out;
}

// The largest principal stretch an element of a material bears: 1 + tear_strain (1 + tear_scatter r),
// r hashed from the element (`kind` tells tets and springs apart); infinite when it never tears.
double stretchLimit(const Material& material, int kind, int element) {
  if (!(material.tearStrain() > 0)) return std::numeric_limits<double>::infinity();
  return 1.0 + material.tearStrain() * (1.0 + material.tearScatter() * hashedUnit(kind, element));
}

bool anyMaterialTears(const Model& model) {
  return std::any_of(model.regions.begin(), model.regions.end(), [](const Region& r) { return r.material->tearStrain() > 0; });
}

// Marks elements[i] for every i where test(i) holds, in parallel; the marks do not depend on the thread count.
template <class Test>
std::vector<char> markWhere(int count, Test test) {
  std::vector<char> marks(count, 0);
  parallelFor(count, 256, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) marks[i] = test(i);
  });
  return marks;
}

// Whether the segment pq crosses the wedge, whose plane has the normal n = u x v.
bool crosses(const CutWedge& cut, const Vec3& n, const Vec3& p, const Vec3& q) {
  const double dp = n.dot(p - cut.apex), dq = n.dot(q - cut.apex);
  if (!((dp < 0 && dq > 0) || (dp > 0 && dq < 0))) return false;
  const Vec3 r = p + dp / (dp - dq) * (q - p) - cut.apex;  // on the plane: r = s u + t v
  return r.cross(cut.v).dot(n) >= 0 && cut.u.cross(r).dot(n) >= 0;  // s |n|^2 >= 0 and t |n|^2 >= 0
}

void removeSpring(Model& model, int s, int& count) {
  if (model.springs.removed[s]) return;
  model.springs.removed[s] = 1;
  ++count;
}

// Springs left without purpose by removals: a cloth's edge springs of no remaining triangle, then a
// cloth's or strands' bending springs whose hinge lost a spring. Returns how many it removed.
int removeOrphanedSprings(Model& model) {
  SpringElements& springs = model.springs;
  int count = 0;
  for (const Body& body : model.bodies) {
    if (body.spring_count == 0) continue;
    std::vector<char> edge(springs.size(), 0), used(springs.size(), 0);
    for (Eigen::Index f = 0; f < body.triangle_springs.rows(); ++f) {
      const auto s = body.triangle_springs.row(f);
      const bool present = !springs.removed[s[0]] && !springs.removed[s[1]] && !springs.removed[s[2]];
      for (int k = 0; k < 3; ++k) edge[s[k]] = 1, used[s[k]] |= present;
    }
    const int end = body.first_spring + body.spring_count;
    for (int s = body.first_spring; s < end; ++s)
      if (edge[s] && !used[s]) removeSpring(model, s, count);
    for (int s = body.first_spring; s < end; ++s) {
      const Eigen::Vector2i& hinge = springs.hinge[s];
      if (hinge[0] >= 0 && (springs.removed[hinge[0]] || springs.removed[hinge[1]])) removeSpring(model, s, count);
    }
  }
  return count;
}

}  // namespace

ElementSet overstretchedElements(const Model& model, const VecX& x) {
  if (!anyMaterialTears(model)) return {};
  const TetElements& tets = model.tets;
  const SpringElements& springs = model.springs;
  const auto tetTears = [&](int e) {
    const double limit = stretchLimit(*model.regions[tets.region[e]].material, 1, e);
    return !tets.removed[e] && std::isfinite(limit) && svd3(tets.deformationGradient(x, e)).sigma.cwiseAbs().maxCoeff() > limit;
  };
  const auto springTears = [&](int s) {
    const double limit = stretchLimit(*model.regions[springs.region[s]].material, 2, s);
    const double length = (vertex(x, springs.vertices[s][0]) - vertex(x, springs.vertices[s][1])).norm();
    return !springs.removed[s] && length > limit * springs.rest_length[s];
  };
  return {flagged(markWhere(tets.size(), tetTears)), flagged(markWhere(springs.size(), springTears))};
}

ElementSet elementsCrossedBy(const Model& model, const VecX& x, const CutWedge& cut) {
  const Vec3 n = cut.u.cross(cut.v);
  if (!(n.norm() > 1e-12 * cut.u.norm() * cut.v.norm())) return {};  // u and v parallel: no surface
  const TetElements& tets = model.tets;
  const SpringElements& springs = model.springs;
  const auto tetCrossed = [&](int e) {
    if (tets.removed[e]) return false;
    const Eigen::Vector4i& t = tets.vertices[e];
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (crosses(cut, n, vertex(x, t[a]), vertex(x, t[b]))) return true;
    return false;
  };
  const auto springCrossed = [&](int s) {
    return !springs.removed[s] && crosses(cut, n, vertex(x, springs.vertices[s][0]), vertex(x, springs.vertices[s][1]));
  };
  return {flagged(markWhere(tets.size(), tetCrossed)), flagged(markWhere(springs.size(), springCrossed))};
}

int removeElements(Model& model, const ElementSet& elements) {
  int count = 0;
  for (int e : elements.tets)
    if (!model.tets.removed[e]) model.tets.removed[e] = 1, ++count;
  for (int s : elements.springs) removeSpring(model, s, count);
  if (count == 0) return 0;
  count += removeOrphanedSprings(model);
  updateSurfaces(model);
  return count;
}

bool setRemovedElements(Model& model, const ElementSet& elements) {
  for (int e : elements.tets)
    if (e < 0 || e >= model.tets.size()) throw error("removed tet ", e, " does not exist (the model has ", model.tets.size(), ")");
  for (int s : elements.springs)
    if (s < 0 || s >= model.springs.size()) throw error("removed spring ", s, " does not exist (the model has ", model.springs.size(), ")");
  std::vector<char> tets(model.tets.size(), 0), springs(model.springs.size(), 0);
  for (int e : elements.tets) tets[e] = 1;
  for (int s : elements.springs) springs[s] = 1;
  if (tets == model.tets.removed && springs == model.springs.removed) return false;
  model.tets.removed = std::move(tets);
  model.springs.removed = std::move(springs);
  updateSurfaces(model);
  return true;
}

ElementSet removedElements(const Model& model) { return {flagged(model.tets.removed), flagged(model.springs.removed)}; }

int removedCount(const Model& model) {
  return static_cast<int>(std::count(model.tets.removed.begin(), model.tets.removed.end(), 1) +
                          std::count(model.springs.removed.begin(), model.springs.removed.end(), 1));
}

std::vector<int> verticesWithoutElements(const Model& model) {
  std::vector<char> used(model.vertexCount(), 0);
  for (int e = 0; e < model.tets.size(); ++e)
    if (!model.tets.removed[e])
      for (int a = 0; a < 4; ++a) used[model.tets.vertices[e][a]] = 1;
  for (int s = 0; s < model.springs.size(); ++s)
    if (!model.springs.removed[s]) used[model.springs.vertices[s][0]] = used[model.springs.vertices[s][1]] = 1;
  std::vector<int> out;
  for (int v = 0; v < model.vertexCount(); ++v)
    if (!used[v]) out.push_back(v);
  return out;
}

void updateSurfaces(Model& model) {
  for (Body& body : model.bodies) {
    std::vector<int> present;
    if (body.is_cloth) {
      for (Eigen::Index f = 0; f < body.triangles.rows(); ++f) {
        const auto s = body.triangle_springs.row(f);
        if (!model.springs.removed[s[0]] && !model.springs.removed[s[1]] && !model.springs.removed[s[2]]) present.push_back(int(f));
      }
      body.surface = body.triangles(present, Eigen::all);
      continue;
    }
    if (body.spring_count > 0) {  // strands: their stretch springs still present (no hinge) are the segments
      for (int s = body.first_spring; s < body.first_spring + body.spring_count; ++s)
        if (model.springs.hinge[s][0] < 0 && !model.springs.removed[s]) present.push_back(s);
      body.segments.resize(static_cast<Eigen::Index>(present.size()), 2);
      for (size_t i = 0; i < present.size(); ++i) body.segments.row(static_cast<Eigen::Index>(i)) = model.springs.vertices[present[i]].transpose();
      continue;
    }
    for (int e : modelTetsInMeshOrder(body))  // in the mesh's order, so that the faces keep theirs
      if (!model.tets.removed[e]) present.push_back(e);
    TetIndices T(static_cast<Eigen::Index>(present.size()), 4);
    for (size_t i = 0; i < present.size(); ++i) T.row(static_cast<Eigen::Index>(i)) = model.tets.vertices[present[i]].transpose();
    body.surface = boundaryFaces(T);
  }
}

}  // namespace qnsim
