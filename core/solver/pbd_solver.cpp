#include "core/solver/pbd_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/material/stiffness_fit.h"
#include "core/math/rotation_estimate.h"
#include "core/model/coloring.h"

namespace qnsim {

PbdSolver::PbdSolver(Objective& objective, const SolverSettings& settings)
    : objective_(objective), model_(objective.model()), settings_(settings), colors_(colorElements(objective.model())) {
  inverse_mass_ = model_.mass.cwiseInverse();
}

void PbdSolver::beginFrame(const VecX& x) {
  const int tets = model_.tets.size();
  argument_ = {objective_.argumentScale(), objective_.argumentScale() == 1.0 ? nullptr : &objective_.energyOffset()};
  // Without history the estimates start from the exact rotations; with rotation_update=frame they are
  // refined here, at y, and held through the sweeps.
  const bool fresh = static_cast<int>(rotations_.size()) != tets, per_frame = settings_.pbd.rotation_update == RotationUpdate::Frame;
  rotations_.resize(tets);
  if (fresh || per_frame)
    parallelFor(tets, 256, [&](int begin, int end) {
      for (int e = begin; e < end; ++e) {
        const Mat3 F = deformationGradient(x, argument_, model_.tets, e);
        if (fresh) rotations_[e] = svdRotation(F);
        if (per_frame) refineRotation(F, rotations_[e], settings_.pbd.rotation_iterations);
      }
    });
  moduli_.clear();
  for (const Region& r : model_.regions) {
    if (!r.is_solid()) {
      moduli_.push_back({r.stiffness, 0.0});
      continue;
    }
    const LameFit lame = fitLame(static_cast<const SolidMaterial&>(*r.material), settings_.stiffness_interval);
    moduli_.push_back({2.0 * lame.mu, lame.lambda});
  }
  lambda_corotational_.assign(tets, 0.0);
  lambda_volume_.assign(tets, 0.0);
  lambda_spring_.assign(model_.springs.size(), 0.0);
  lambda_attachment_.assign(model_.attachments.size(), Vec3::Zero());
  lambda_drag_.assign(objective_.drags.size(), Vec3::Zero());
  lambda_wind_.assign(objective_.winds.size(), Vec3::Zero());
  lambda_contact_.assign(objective_.contacts.size(), 0.0);
  lambda_self_contact_.assign(objective_.self_contacts.size(), 0.0);
  lambda_friction_.assign(objective_.frictions.size(), 0.0);
}

// pbd: compliance 0 and the parameter's stiffness. xpbd: alpha~ = alpha w / c with alpha = 1 / (modulus
// measure) (measure: the tet's volume, 1 for a spring); no modulus, no constraint.
ConstraintWeight PbdSolver::weight(double pbd_stiffness, double modulus, double measure) const {
  if (settings_.method == SolverMethod::Pbd) return {0.0, pbd_stiffness};
  if (!(modulus > 0)) return {std::numeric_limits<double>::infinity(), 1.0};
  return {objective_.inertiaWeight() / (objective_.energyScale() * modulus * measure), 1.0};
}

// A removed element (removal.h) is no constraint.
constexpr ConstraintWeight kRemoved{0.0, 0.0};

ConstraintWeight PbdSolver::corotationalWeight(int tet) const {
  if (model_.tets.removed[tet]) return kRemoved;
  return weight(settings_.pbd.corotational_stiffness, moduli_[model_.tets.region[tet]].corotational, model_.tets.volume[tet]);
}

ConstraintWeight PbdSolver::volumeWeight(int tet) const {
  if (model_.tets.removed[tet]) return kRemoved;
  return weight(settings_.pbd.volume_stiffness, moduli_[model_.tets.region[tet]].volume, model_.tets.volume[tet]);
}

ConstraintWeight PbdSolver::springWeight(int spring) const {
  if (model_.springs.removed[spring]) return kRemoved;
  return weight(settings_.pbd.spring_stiffness, moduli_[model_.springs.region[spring]].corotational, 1.0);
}

void PbdSolver::projectElement(PbdPositions& p, int element) {
  const TetElements& tets = model_.tets;
  if (element < tets.size()) {
    Eigen::Quaterniond& q = rotations_[element];
    if (settings_.pbd.rotation_update == RotationUpdate::Projection)
      refineRotation(deformationGradient(p.x, p.argument, tets, element), q, settings_.pbd.rotation_iterations);
    projectCorotational(p, tets, element, q.toRotationMatrix(), corotationalWeight(element), lambda_corotational_[element]);
    projectVolume(p, tets, element, volumeWeight(element), lambda_volume_[element]);
    return;
  }
  const int s = element - tets.size();
  projectDistance(p, model_.springs.vertices[s], model_.springs.rest_length[s], springWeight(s), lambda_spring_[s]);
}

// The terms of g outside the elastic energy, one after another (there are few, and several may share a
// vertex); contacts last, so that they have the sweep's last word (self-contacts, on 4 vertices each,
// after the collider contacts). With the convention of pbd_constraints.h, a term e in g has the
// multiplier -(1/w) de/dC: contacts push (lambda >= 0), friction is at most its bound (-bound/w <=
// lambda <= 0, with the compliance slip/bound of its quadratic part).
void PbdSolver::projectVertexTerms(VecX& x) {
  const double w = objective_.inertiaWeight(), c = objective_.energyScale();
  PbdPositions energy{x, inverse_mass_, argument_}, plain{x, inverse_mass_, {}};  // terms of c E(z) and of x itself
  for (size_t i = 0; i < model_.attachments.size(); ++i) {
    const Attachment& a = model_.attachments[i];
    projectVertexSpring(energy, a.vertex, Mat3::Identity() * (c * a.stiffness / w), a.target, lambda_attachment_[i]);
  }
  for (size_t i = 0; i < objective_.drags.size(); ++i) {
    const Drag& d = objective_.drags[i];
    projectVertexSpring(energy, d.vertex, Mat3::Identity() * (c * d.stiffness / w), d.target, lambda_drag_[i]);
  }
  for (size_t i = 0; i < objective_.winds.size(); ++i) {
    const WindTerm& t = objective_.winds[i];
    projectVertexSpring(plain, t.vertex, t.stiffness / w, t.target, lambda_wind_[i]);
  }
  for (size_t i = 0; i < objective_.frictions.size(); ++i) {
    const FrictionTerm& f = objective_.frictions[i];
    const Vec3 slip = (vertex(x, f.vertex) - f.anchor) - (vertex(x, f.vertex) - f.anchor).dot(f.normal) * f.normal;
    const double u = slip.norm();
    if (!(u > 0) || !(f.bound > 0)) continue;
    const Vec3 gradient = slip / u;
    projectConstraint(plain, &f.vertex, &gradient, 1, u, {w * f.slip / f.bound, 1.0}, lambda_friction_[i], -f.bound / w, 0.0);
  }
  for (size_t i = 0; i < objective_.contacts.size(); ++i) {
    const ContactTerm& t = objective_.contacts[i];
    const double gap = (energy.z(t.vertex) - t.point).dot(t.normal);
    projectConstraint(energy, &t.vertex, &t.normal, 1, gap, {w / (c * t.stiffness), 1.0}, lambda_contact_[i], 0.0);
  }
  VecX z(12);  // a self-contact's four vertices' z, numbered 0..3 (allocated once, not per term)
  Vec12 dgap;
  for (size_t i = 0; i < objective_.self_contacts.size(); ++i) {
    SelfContactTerm local = objective_.self_contacts[i];
    for (int k = 0; k < 4; ++k) z.segment<3>(3 * k) = energy.z(local.vertices[k]);
    const Eigen::Vector4i vertices = local.vertices;
    local.vertices = Eigen::Vector4i(0, 1, 2, 3);
    const double gap = local.gap(z, &dgap);
    const Vec3 gradient[4] = {dgap.segment<3>(0), dgap.segment<3>(3), dgap.segment<3>(6), dgap.segment<3>(9)};
    projectConstraint(energy, vertices.data(), gradient, 4, gap, {w / (c * local.stiffness), 1.0}, lambda_self_contact_[i], 0.0);
  }
}

void PbdSolver::sweep(VecX& x) {
  PbdPositions p{x, inverse_mass_, argument_};
  if (settings_.pbd.sweep == PbdSweep::Sequential) {
    const int count = model_.tets.size() + model_.springs.size();
    for (int e = 0; e < count; ++e) projectElement(p, e);
  } else {
    for (const std::vector<int>& color : colors_)
      parallelFor(static_cast<int>(color.size()), 32, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) projectElement(p, color[i]);
      });
  }
  projectVertexTerms(x);
}

// RMS of C + alpha~ lambda over the active elastic constraints at x (a spring's divided by its rest
// length, so that all are strains), with the rotation estimates as they are.
double PbdSolver::residual(const VecX& x) {
  const TetElements& tets = model_.tets;
  const int count = tets.size() + model_.springs.size();
  element_residual_.assign(count, 0.0);
  element_constraints_.assign(count, 0.0);
  parallelFor(count, 256, [&](int begin, int end) {
    for (int e = begin; e < end; ++e) {
      const auto add = [&](double r) {
        element_residual_[e] += r * r;
        element_constraints_[e] += 1;
      };
      if (e < tets.size()) {
        const Mat3 F = deformationGradient(x, argument_, tets, e);
        Mat3 dC_dF;
        if (const ConstraintWeight w = corotationalWeight(e); w.active())
          add(corotationalConstraint(F, rotations_[e].toRotationMatrix(), dC_dF) + w.compliance * lambda_corotational_[e]);
        if (const ConstraintWeight w = volumeWeight(e); w.active()) add(volumeConstraint(F, dC_dF) + w.compliance * lambda_volume_[e]);
        continue;
      }
      const int s = e - tets.size();
      const Eigen::Vector2i& v = model_.springs.vertices[s];
      const double length = (argument_.at(x, v[0]) - argument_.at(x, v[1])).norm(), rest = model_.springs.rest_length[s];
      if (const ConstraintWeight w = springWeight(s); w.active()) add((length - rest + w.compliance * lambda_spring_[s]) / rest);
    }
  });
  const double constraints = deterministicSum(element_constraints_.data(), count);
  return constraints > 0 ? std::sqrt(deterministicSum(element_residual_.data(), count) / constraints) : 0.0;
}

void PbdSolver::solve(VecX& x, FrameSolveResult& result) {
  Timer frame_timer, phase;
  result.times = {};
  result.ls_trials = 0;
  result.ccd_step = 1.0;
  result.iterations.clear();
  if (refresh_) refresh_(x);  // the frame's contact set, at y
  result.times.contacts += phase.ms();
  phase.restart();
  beginFrame(x);
  result.times.projection += phase.ms();
  double telemetry_ms = 0;  // evaluations of g for the telemetry: timed as gradient time, left out of time_ms
  const auto record = [&](int k) {
    Timer timer;
    result.g = objective_.evaluate(x, &gradient_, &result.parts);
    const double r = residual(x), ms = timer.ms();
    telemetry_ms += ms;
    result.times.gradient += ms;
    result.iterations.push_back({k, result.g, gradient_.norm(), k > 0 ? 1.0 : 0.0, 0, frame_timer.ms() - telemetry_ms, false, r});
  };
  record(0);
  const double initial_norm = result.iterations.front().grad_norm;
  for (int k = 1; k <= settings_.iterations; ++k) {
    phase.restart();
    if (limit_) before_ = x;
    sweep(x);
    result.times.projection += phase.ms();
    if (limit_) {
      phase.restart();
      result.ccd_step = std::min(result.ccd_step, limit_(before_, x));
      result.times.contacts += phase.ms();
    }
    const bool out_of_time = settings_.time_limit_ms > 0 && frame_timer.ms() - telemetry_ms >= settings_.time_limit_ms;
    if (!settings_.pbd.trace && k < settings_.iterations && !out_of_time) continue;
    record(k);
    if (out_of_time || (settings_.gradient_tolerance > 0 && result.iterations.back().grad_norm <= settings_.gradient_tolerance * initial_norm))
      break;
  }
}

}  // namespace qnsim
