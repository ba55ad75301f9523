#include "core/objective/vertex_blocks.h"

#include <algorithm>

#include "core/common/parallel.h"

namespace qnsim {

VertexBlocks::VertexBlocks(const Objective& objective, EigenvalueFilter filter)
    : objective_(objective), model_(objective.model()), filter_(filter), incident_(objective.model()) {}

void VertexBlocks::index() {
  const int n = model_.vertexCount();
  offset_gradient_.clear();
  if (objective_.argumentScale() != 1.0) {
    offset_gradient_.resize(model_.tets.size());
    for (int e = 0; e < model_.tets.size(); ++e) offset_gradient_[e] = model_.tets.deformationGradient(objective_.energyOffset(), e);
  }
  // Two passes over the same terms in the same order: count, then place.
  std::vector<int> next;
  const auto each = [&](auto&& emit) {
    for (int i = 0; i < static_cast<int>(model_.attachments.size()); ++i)
      emit(model_.attachments[i].vertex, Term{Term::Kind::Attachment, i, 0});
    for (int i = 0; i < static_cast<int>(objective_.contacts.size()); ++i)
      emit(objective_.contacts[i].vertex, Term{Term::Kind::Contact, i, 0});
    for (int i = 0; i < static_cast<int>(objective_.self_contacts.size()); ++i)
      for (int k = 0; k < 4; ++k) emit(objective_.self_contacts[i].vertices[k], Term{Term::Kind::SelfContact, i, k});
    for (int i = 0; i < static_cast<int>(objective_.frictions.size()); ++i)
      emit(objective_.frictions[i].vertex, Term{Term::Kind::Friction, i, 0});
    for (int i = 0; i < static_cast<int>(objective_.drags.size()); ++i) emit(objective_.drags[i].vertex, Term{Term::Kind::Drag, i, 0});
    for (int i = 0; i < static_cast<int>(objective_.winds.size()); ++i) emit(objective_.winds[i].vertex, Term{Term::Kind::Wind, i, 0});
  };
  term_start_.assign(n + 1, 0);
  each([&](int v, const Term&) { ++term_start_[v + 1]; });
  for (int v = 0; v < n; ++v) term_start_[v + 1] += term_start_[v];
  terms_.resize(term_start_[n]);
  next.assign(term_start_.begin(), term_start_.end() - 1);
  each([&](int v, const Term& t) { terms_[next[v]++] = t; });
}

namespace {
void add(VertexBlocks::Block& b, const TetVertexTerms& t) {
  b.energy += t.energy;
  b.gradient += t.gradient;
  b.hessian += t.hessian;
}
}  // namespace

Vec3 VertexBlocks::argument(const VecX& x, int v) const {
  const double s = objective_.argumentScale();
  return s == 1.0 ? Vec3(vertex(x, v)) : Vec3(s * vertex(x, v) + vertex(objective_.energyOffset(), v));
}

// F(z) = s F(x) + F(o) of tet e.
Mat3 VertexBlocks::deformation(const VecX& x, int e) const {
  const Mat3 F = model_.tets.deformationGradient(x, e);
  return objective_.argumentScale() == 1.0 ? F : Mat3(objective_.argumentScale() * F + offset_gradient_[e]);
}

// From the material's V Psi(F(z)), V P g_a and its block: c V Psi, gradient c s V P g_a, Hessian c s^2
// (filtered block), plus material damping's on x itself.
TetVertexTerms VertexBlocks::tetTerms(const VecX& x, int e, const TetVertexTerms& material, int a) const {
  const double c = objective_.energyScale(), s = objective_.argumentScale();
  TetVertexTerms t{c * material.energy, c * s * material.gradient, c * s * s * material.hessian};
  if (objective_.damping.active()) {
    const TetVertexTerms d = objective_.dampingTetVertexTerms(x, e, a);
    t.energy += d.energy, t.gradient += d.gradient, t.hessian += d.hessian;
  }
  return t;
}

void VertexBlocks::addTet(const VecX& x, int entry, Block& b) const {
  const int e = entry / 4, a = entry % 4;
  if (model_.tets.removed[e]) return;
  add(b, tet_cache_.empty() ? tetTerms(x, e, tetVertexTerms(model_, e, a, deformation(x, e), filter_), a) : tet_cache_[entry]);
}

void VertexBlocks::cacheTets(const VecX& x) {
  tet_cache_.resize(4 * static_cast<size_t>(model_.tets.size()));
  parallelFor(model_.tets.size(), 64, [&](int begin, int end) {
    for (int e = begin; e < end; ++e) {
      if (model_.tets.removed[e]) continue;
      const std::array<TetVertexTerms, 4> material = tetVertexTermsOfAll(model_, e, deformation(x, e), filter_);
      for (int a = 0; a < 4; ++a) tet_cache_[4 * e + a] = tetTerms(x, e, material[a], a);
    }
  });
}

void VertexBlocks::addSpring(const VecX& x, int entry, Block& b) const {
  const int i = entry / 2, end = entry % 2;
  if (model_.springs.removed[i]) return;
  const Eigen::Vector2i& v = model_.springs.vertices[i];
  const double c = objective_.energyScale(), s = objective_.argumentScale();
  const double k = model_.regions[model_.springs.region[i]].stiffness, rest = model_.springs.rest_length[i];
  const Vec3 d = argument(x, v[0]) - argument(x, v[1]);
  const double length = d.norm(), stretch = length - rest;
  b.energy += 0.5 * c * k * stretch * stretch;
  if (length > 0) b.gradient += (end == 0 ? 1.0 : -1.0) * c * s * k * stretch / length * d;
  b.hessian += c * s * s * springBlock(d, rest, k, filter_);
  if (objective_.damping.active()) add(b, objective_.dampingSpringTerms(x, i, end));
}

void VertexBlocks::addTerm(const VecX& x, int v, const Term& t, Block& b) const {
  const double c = objective_.energyScale(), s = objective_.argumentScale();
  const Vec3 z = argument(x, v);
  const auto spring = [&](double k, const Vec3& target) {  // c k/2 |z - target|^2
    b.energy += 0.5 * c * k * (z - target).squaredNorm();
    b.gradient += c * s * k * (z - target);
    b.hessian += c * s * s * k * Mat3::Identity();
  };
  switch (t.kind) {
    case Term::Kind::Attachment: spring(model_.attachments[t.index].stiffness, model_.attachments[t.index].target); break;
    case Term::Kind::Drag: spring(objective_.drags[t.index].stiffness, objective_.drags[t.index].target); break;
    case Term::Kind::Contact: {
      const ContactTerm& term = objective_.contacts[t.index];
      const double depth = std::min(0.0, (z - term.point).dot(term.normal));
      if (depth == 0.0) break;
      b.energy += 0.5 * c * term.stiffness * depth * depth;
      b.gradient += c * s * term.stiffness * depth * term.normal;
      b.hessian += c * s * s * term.stiffness * term.normal * term.normal.transpose();
      break;
    }
    case Term::Kind::SelfContact: {  // its Gauss-Newton block on this vertex, as the assembled Hessian
      const SelfContactTerm& term = objective_.self_contacts[t.index];
      VecX z4(12);
      for (int k = 0; k < 4; ++k) z4.segment<3>(3 * k) = argument(x, term.vertices[k]);
      SelfContactTerm local = term;
      local.vertices = Eigen::Vector4i(0, 1, 2, 3);
      Vec12 dgap;
      const double gap = local.gap(z4, &dgap);
      if (gap >= 0) break;
      const Vec3 dv = dgap.segment<3>(3 * t.slot);
      b.energy += 0.5 * c * term.stiffness * gap * gap;
      b.gradient += c * s * term.stiffness * gap * dv;
      b.hessian += c * s * s * term.stiffness * dv * dv.transpose();
      break;
    }
    case Term::Kind::Friction: {  // on x itself, outside the energy transform
      const FrictionTerm& f = objective_.frictions[t.index];
      const Vec3 slip = (vertex(x, v) - f.anchor) - (vertex(x, v) - f.anchor).dot(f.normal) * f.normal;
      const double u = slip.norm();
      b.energy += f.bound * (u <= f.slip ? 0.5 * u * u / f.slip : u - 0.5 * f.slip);
      b.gradient += f.gradient(vertex(x, v));
      b.hessian += f.hessian(vertex(x, v));
      break;
    }
    case Term::Kind::Wind: {
      const WindTerm& w = objective_.winds[t.index];
      const Vec3 r = vertex(x, v) - w.target;
      b.energy += 0.5 * r.dot(w.stiffness * r);
      b.gradient += w.stiffness * r;
      b.hessian += w.stiffness;
      break;
    }
  }
}

VertexBlocks::Block VertexBlocks::block(const VecX& x, int v) const {
  const double w = objective_.inertiaWeight(), m = model_.mass[v];
  const Vec3 dx = vertex(x, v) - vertex(objective_.inertiaTarget(), v);
  Block b{0.5 * w * m * dx.squaredNorm(), w * m * dx, w * m * Mat3::Identity()};
  for (int i = incident_.tet_start[v]; i < incident_.tet_start[v + 1]; ++i) addTet(x, incident_.tet_entry[i], b);
  for (int i = incident_.spring_start[v]; i < incident_.spring_start[v + 1]; ++i) addSpring(x, incident_.spring_entry[i], b);
  for (int i = term_start_[v]; i < term_start_[v + 1]; ++i) addTerm(x, v, terms_[i], b);
  return b;
}

}  // namespace qnsim
