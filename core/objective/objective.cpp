#include "core/objective/objective.h"

#include <algorithm>

#include "core/common/parallel.h"
#include "core/common/simd.h"
#include "core/material/fiber.h"
#include "core/material/models.h"
#include "core/math/polar3.h"
#include "core/objective/spring_kernels.h"

namespace qnsim {
namespace {

// dE/dx_a = V P g_a of tet e: the columns of V P Dm^-T, and minus their sum for x0 (12 at force).
inline void tetForces(const TetElements& tets, int e, const Mat3& P, double* force) {
  const Mat3 H = tets.volume[e] * P * tets.rest_inverse[e].transpose();
  Eigen::Map<Eigen::Matrix<double, 3, 4>> f(force);
  f.rightCols<3>() = H;
  f.col(0) = -(H.col(0) + H.col(1) + H.col(2));
}

}  // namespace

Objective::Objective(const Model& model) : model_(model) {
  const int n = model.vertexCount(), nt = model.tets.size(), ns = model.springs.size();
  y_ = model.rest;
  damping.anchor = model.rest;
  element_energy_.assign(nt + ns, 0.0);
  element_force_.assign(4 * nt + ns + n, Vec3::Zero());
  vertex_energy_.assign(n, 0.0);
  // Incidence: for every vertex, the slots of element_force_ that act on it, in element order: first
  // those added (the tets', and the springs' on their first vertex), then those subtracted (a spring's
  // one force acts on its second vertex negated). Two plain loops, no sign per slot to branch on.
  std::vector<int> added(n, 0), subtracted(n, 0);
  for (const auto& t : model.tets.vertices)
    for (int a = 0; a < 4; ++a) ++added[t[a]];
  for (const auto& s : model.springs.vertices) ++added[s[0]], ++subtracted[s[1]];
  incidence_start_.assign(n + 1, 0);
  incidence_subtracted_.resize(n);
  for (int v = 0; v < n; ++v) {
    incidence_subtracted_[v] = incidence_start_[v] + added[v];
    incidence_start_[v + 1] = incidence_subtracted_[v] + subtracted[v];
  }
  incidence_slot_.resize(incidence_start_[n]);
  std::vector<int> next_added(incidence_start_.begin(), incidence_start_.end() - 1), next_subtracted = incidence_subtracted_;
  for (int e = 0; e < nt; ++e)
    for (int a = 0; a < 4; ++a) incidence_slot_[next_added[model.tets.vertices[e][a]]++] = 4 * e + a;
  spring_vertex_.assign(n, 0);
  for (int s = 0; s < ns; ++s) {
    incidence_slot_[next_added[model.springs.vertices[s][0]]++] = 4 * nt + s;
    incidence_slot_[next_subtracted[model.springs.vertices[s][1]]++] = 4 * nt + s;
    spring_vertex_[model.springs.vertices[s][0]] = spring_vertex_[model.springs.vertices[s][1]] = 1;
  }
  chooseTetKernels();  // sizes its tables here, so that no pass allocates
}

void Objective::setInertia(const VecX& y, double weight) {
  y_ = y;
  inertia_weight_ = weight;
}

void Objective::setEnergyTransform(double scale, double argument_scale, const VecX& offset) {
  energy_scale_ = scale;
  argument_scale_ = argument_scale;
  offset_ = offset;
}

const VecX& Objective::energyArgument(const VecX& x) {
  if (argument_scale_ == 1.0) return x;
  argument_ = argument_scale_ * x + offset_;
  return argument_;
}

// Calls run(first, last) for every run of consecutive present tets of one run key in [begin, end) (of
// one region, or all strain-polynomial), and clears the removed ones: their energies, and their forces
// where `force` holds those of [begin, end) (12 per tet).
template <class Run>
void Objective::forEachTetRun(int begin, int end, double* force, const Run& run) {
  const TetElements& tets = model_.tets;
  for (int first = begin; first < end;) {
    if (tets.removed[first]) {  // a removed element (removal.h) adds nothing
      element_energy_[first] = 0.0;
      if (force) std::fill_n(force + 12 * (first - begin), 12, 0.0);
      ++first;
      continue;
    }
    int last = first + 1;
    while (last < end && runKey(tets.region[last]) == runKey(tets.region[first]) && !tets.removed[last]) ++last;
    run(first, last);
    first = last;
  }
}

void Objective::chooseTetKernels() {
  const int regions = static_cast<int>(model_.regions.size());
  tet_kernel_.assign(regions, TetKernel::General);
  strain_forms_.assign(regions, StrainPolynomial{});
  if (!tetKernels()) return;
  for (int r = 0; r < regions; ++r) {
    if (model_.regions[r].fiber.kappa != 0.0) continue;
    const Material* material = model_.regions[r].material.get();
    const auto* strain = dynamic_cast<const StrainPolynomialMaterial*>(material);
    const std::optional<StrainPolynomial> form = strain ? strain->polynomialForm() : std::nullopt;
    if (dynamic_cast<const NeoHookean*>(material)) tet_kernel_[r] = TetKernel::NeoHookean;
    else if (form) tet_kernel_[r] = TetKernel::StrainPolynomial, strain_forms_[r] = *form;
  }
}

TetGeometry Objective::tetGeometry() const {
  const TetElements& tets = model_.tets;
  return {tets.vertices.data()->data(), tets.rest_inverse.data()->data(), tets.volume.data()};
}

NeoHookeanTets Objective::neoHookeanTets(int region) const {
  const NeoHookean::Constants c = static_cast<const NeoHookean&>(model_.solid(region)).constants();
  return {tetGeometry(), c.mu, c.lambda, c.inversion_j};
}

// The split of the tets for their forces (corner_targets.h): one part a thread, of at least 256 tets (the
// chunk of the passes without forces).
const CornerTargets& Objective::cornerTargets() {
  const int nt = model_.tets.size(), parts = std::max(1, std::min(threadCount(), nt / 256));
  if (corner_targets_.parts() != parts)
    corner_targets_ = qnsim::cornerTargets(model_.tets.vertices, spring_vertex_, parts, 4 * nt + model_.springs.size());
  return corner_targets_;
}

// The parts one by one, each in chunks of tets whose forces make() writes to a buffer that stays in the
// first-level cache, from which addCorners takes them in tet order.
template <class Make>
void Objective::addTetForces(const Make& make) {
  const CornerTargets& targets = cornerTargets();
  parallelFor(targets.parts(), 1, [&](int begin, int end) {
    constexpr int kChunk = 64;
    alignas(64) double force[12 * kChunk];
    for (int p = begin; p < end; ++p) {
      for (int i = targets.owned_start[p]; i < targets.owned_start[p + 1]; ++i)
        element_force_[targets.accumulator + targets.owned_vertex[i]] = Vec3::Zero();
      for (int first = targets.part_start[p]; first < targets.part_start[p + 1]; first += kChunk) {
        const int last = std::min(first + kChunk, targets.part_start[p + 1]);
        make(first, last, force);
        addCorners(first, last, force);
      }
    }
  });
}

// The corner forces of tets [first, last) (12 per tet from `force`) added to their owners' accumulators
// or stored in their slots.
void Objective::addCorners(int first, int last, const double* force) {
  const int* slot = corner_targets_.slot.data();
  const int accumulator = corner_targets_.accumulator;
  double* out = element_force_.data()->data();  // locals: the stores below cannot move them
  for (int c = 4 * first; c < 4 * last; ++c, force += 3) {
    double* target = out + 3 * slot[c];
    Eigen::Map<Eigen::Vector2d> xy(target);  // x and y in one register
    if (slot[c] >= accumulator) xy += Eigen::Map<const Eigen::Vector2d>(force), target[2] += force[2];
    else xy = Eigen::Map<const Eigen::Vector2d>(force), target[2] = force[2];
  }
}

void Objective::evaluateTets(const VecX& x, TetOutput output) {
  if (output == TetOutput::Stress) tet_stress_.resize(model_.tets.size());
  chooseTetKernels();
  if (output == TetOutput::Forces)
    return addTetForces([&](int begin, int end, double* force) {
      forEachTetRun(begin, end, force, [&](int first, int last) { evaluateTetRun(x, first, last, output, force, begin); });
    });
  parallelFor(model_.tets.size(), 256, [&](int begin, int end) {
    forEachTetRun(begin, end, nullptr, [&](int first, int last) { evaluateTetRun(x, first, last, output); });
  });
}

// Tets [first, last), present and of one run key: through a vector kernel where one applies, else
// through the material's batch call (svd3 batches) in blocks of 16. The forces (TetOutput::Forces) go
// to `force`, tet force_first's first.
void Objective::evaluateTetRun(const VecX& x, int first, int last, TetOutput output, double* force, int force_first) {
  const TetElements& tets = model_.tets;
  const int region = tets.region[first];
  const TetPassOutput out{element_energy_.data(), output == TetOutput::Stress ? tet_stress_.data()->data() : nullptr,
                          output == TetOutput::Forces ? force : nullptr, force_first};
  if (tet_kernel_[region] == TetKernel::NeoHookean) return tetKernels()->neoHookeanPass(neoHookeanTets(region), x.data(), first, last, out);
  if (tet_kernel_[region] == TetKernel::StrainPolynomial) return strainPolynomialRun(x, first, last, output, out);
  const bool with_stress = output != TetOutput::Energy;
  constexpr int kBlock = 16;
  Mat3 F[kBlock], P[kBlock];
  double psi[kBlock];
  for (int start = first; start < last; start += kBlock) {
    const int size = std::min(kBlock, last - start);
    for (int i = 0; i < size; ++i) F[i] = tets.deformationGradient(x, start + i);
    model_.solid(region).energiesAndStresses(F, size, psi, with_stress ? P : nullptr);
    for (int i = 0; i < size; ++i) {
      const int e = start + i;
      psi[i] += addFiberEnergyAndStress(model_.regions[region].fiber, F[i], with_stress ? &P[i] : nullptr);
      element_energy_[e] = tets.volume[e] * psi[i];
      if (output == TetOutput::Forces) tetForces(tets, e, P[i], force + 12 * (e - force_first));
      if (output == TetOutput::Stress) tet_stress_[e] = P[i];
    }
  }
}

// The strain-polynomial kernel in chunks, then the tets it found without a polar rotation (flat,
// inverted or stretched beyond its iteration) one by one through the material, whose SVD takes them.
void Objective::strainPolynomialRun(const VecX& x, int first, int last, TetOutput output, const TetPassOutput& out) {
  const StrainPolynomialTets view{tetGeometry(), model_.tets.region.data(), strain_forms_.data(),
                                  static_cast<int>(strain_forms_.size()), kPolarMinDet};
  constexpr int kChunk = 64;
  int unrotated[kChunk];
  for (int start = first; start < last; start += kChunk) {
    const int count = tetKernels()->strainPolynomialPass(view, x.data(), start, std::min(last, start + kChunk), out, unrotated);
    for (int i = 0; i < count; ++i) evaluateTet(x, unrotated[i], output, out);
  }
}

// One tet through its material, where the pass `out` writes; its forces by the kernels' code (so that
// evaluate and the deferred gradient agree bit for bit). Only for regions a vector kernel runs.
void Objective::evaluateTet(const VecX& x, int e, TetOutput output, const TetPassOutput& out) {
  const TetElements& tets = model_.tets;
  Mat3 P;
  const double psi = model_.solid(tets.region[e]).energyAndStress(tets.deformationGradient(x, e), output == TetOutput::Energy ? nullptr : &P);
  element_energy_[e] = tets.volume[e] * psi;
  if (output == TetOutput::Stress) tet_stress_[e] = P;
  if (output == TetOutput::Forces) tetKernels()->forcesFromStress(tetGeometry(), e, P.data(), out.force + 12 * (e - out.force_first));
}

// The forces of the stresses evaluateTets kept (TetOutput::Stress), by the code that would have made
// them with TetOutput::Forces, so that both give the same bits (the kernels that pass chose).
void Objective::forcesFromStresses() {
  const TetElements& tets = model_.tets;
  addTetForces([&](int begin, int end, double* force) {
    forEachTetRun(begin, end, force, [&](int first, int last) {
      if (tet_kernel_[tets.region[first]] != TetKernel::General) {
        tetKernels()->forcesFromStresses(tetGeometry(), tet_stress_.data()->data(), first, last, force, begin);
        return;
      }
      for (int e = first; e < last; ++e) tetForces(tets, e, tet_stress_[e], force + 12 * (e - begin));
    });
  });
}

// Always with forces: the vectorised kernel writes them at little extra cost.
void Objective::evaluateSprings(const VecX& x) {
  const SpringElements& springs = model_.springs;
  if (springs.size() == 0) return;
  region_stiffness_.resize(model_.regions.size());
  for (size_t r = 0; r < model_.regions.size(); ++r) region_stiffness_[r] = model_.regions[r].stiffness;
  const SpringView view{springs.vertices.data()->data(), springs.rest_length.data(), springs.region.data(),
                        springs.removed.data(), region_stiffness_.data()};
  const auto kernel = avx2Available() ? spring_avx2::springForces : spring_portable::springForces;
  double* energy = element_energy_.data() + model_.tets.size();
  double* force = element_force_.data()->data() + 3 * 4 * model_.tets.size();
  parallelFor(springs.size(), 1024, [&](int begin, int end) { kernel(view, x.data(), begin, end, energy, force); });
}

double Objective::evaluate(const VecX& x, VecX* gradient, EnergyParts* parts) {
  evaluateElements(x, gradient ? TetOutput::Forces : TetOutput::Energy);
  return assemble(x, true, parts, gradient);
}

double Objective::evaluateDeferringGradient(const VecX& x, EnergyParts* parts) {
  evaluateElements(x, TetOutput::Stress);
  return assemble(x, true, parts, nullptr);
}

void Objective::completeGradient(const VecX& x, VecX& gradient) {
  forcesFromStresses();
  assemble(x, false, nullptr, &gradient);
}

// The elements' energies, and what `output` asks for of the tets (the springs' and the damping's forces always).
void Objective::evaluateElements(const VecX& x, TetOutput output) {
  const VecX& z = energyArgument(x);
  evaluateTets(z, output);
  evaluateSprings(z);
  if (damping.active()) evaluateDamping(x, output != TetOutput::Energy);
}

// g(x) and its parts when `energies` is set (0 otherwise), and the gradient when `gradient` is given,
// from what evaluateElements left for x: the elements' energies and forces, then the vertices' and the
// other terms'.
double Objective::assemble(const VecX& x, bool energies, EnergyParts* parts, VecX* gradient) {
  EnergyParts e;  // a local, which the loops below keep in registers
  const VecX& z = argument_scale_ == 1.0 ? x : argument_;  // energyArgument(x), set by evaluateElements
  const bool damped = damping.active();
  const double c = energy_scale_, cs = energy_scale_ * argument_scale_;  // d/dx of c E(s x + o) = c s grad E
  if (energies) e.elastic = c * deterministicSum(element_energy_.data(), static_cast<int>(element_energy_.size()));

  const int n = model_.vertexCount();
  if (gradient) gradient->resize(3 * n);
  const double w = inertia_weight_;
  parallelFor(n, 512, [&](int begin, int end) {
    for (int v = begin; v < end; ++v) {
      const Vec3 dx = vertex(x, v) - vertex(y_, v);
      if (energies) vertex_energy_[v] = 0.5 * w * model_.mass[v] * dx.squaredNorm();
      if (!gradient) continue;
      const Vec3 g = corner_targets_.owned[v] ? element_force_[corner_targets_.accumulator + v] : vertexForce(element_force_, v);
      const Vec3 g_damping = damped ? vertexForce(damping_force_, v) : Vec3::Zero();
      vertex(*gradient, v) = w * model_.mass[v] * dx + cs * g + g_damping;
    }
  });
  if (energies) e.inertia = deterministicSum(vertex_energy_.data(), n);
  if (energies && damped) e.damping = deterministicSum(damping_energy_.data(), static_cast<int>(damping_energy_.size()));

  for (const Attachment& a : model_.attachments) {
    const Vec3 d = vertex(z, a.vertex) - a.target;
    if (energies) e.attachment += 0.5 * c * a.stiffness * d.squaredNorm();
    if (gradient) vertex(*gradient, a.vertex) += cs * a.stiffness * d;
  }
  for (const ContactTerm& t : contacts) {
    const double depth = std::min(0.0, t.gap(z));
    if (energies) e.contact += 0.5 * c * t.stiffness * depth * depth;
    if (gradient) vertex(*gradient, t.vertex) += cs * t.stiffness * depth * t.normal;
  }
  Vec12 dgap;
  for (const SelfContactTerm& t : self_contacts) {
    const double gap = t.gap(z);
    if (gap >= 0) continue;
    if (energies) e.self_contact += 0.5 * c * t.stiffness * gap * gap;
    if (!gradient) continue;
    t.gap(z, &dgap);
    for (int i = 0; i < 4; ++i) vertex(*gradient, t.vertices[i]) += cs * t.stiffness * gap * dgap.segment<3>(3 * i);
  }
  for (const FrictionTerm& f : frictions) {
    const Vec3 slip = (vertex(x, f.vertex) - f.anchor) - (vertex(x, f.vertex) - f.anchor).dot(f.normal) * f.normal;
    const double u = slip.norm();
    if (energies) e.friction += f.bound * (u <= f.slip ? 0.5 * u * u / f.slip : u - 0.5 * f.slip);
    if (gradient) vertex(*gradient, f.vertex) += f.bound / std::max(u, f.slip) * slip;
  }
  for (const Drag& d : drags) {
    const Vec3 r = vertex(z, d.vertex) - d.target;
    if (energies) e.drag += 0.5 * c * d.stiffness * r.squaredNorm();
    if (gradient) vertex(*gradient, d.vertex) += cs * d.stiffness * r;
  }
  for (const WindTerm& t : winds) {
    const Vec3 r = vertex(x, t.vertex) - t.target;
    const Vec3 f = t.stiffness * r;
    if (energies) e.wind += 0.5 * r.dot(f);
    if (gradient) vertex(*gradient, t.vertex) += f;
  }
  if (barrier) {
    const double b = barrier(x, gradient);
    if (energies) e.barrier = b;
  }
  if (parts) *parts = e;
  return e.total();
}

}  // namespace qnsim
