// Damping models (core/sim/damping.h): ether drag, rigid-modes-preserving drag (Mueller et al. 2007) and
// stiffness-proportional material damping beta L_e v, its term of g and its Hessian in A.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

#include "core/sim/damping.h"
#include "qnsim/parameters.h"
#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

// A free box (no gravity, no handles) solved to convergence every frame, so that what a run keeps or
// loses is the physics and the damping, not the solver's error.
Scene freeBox(const std::string& integrator = "backward_euler") {
  Scene scene = parseScene(R"({"version": 1, "gravity": [0, 0, 0], "time_step": 0.02,
    "solver": {"method": "newton", "iterations": 40, "gradient_tolerance": 1e-12},
    "bodies": [{"shape": {"type": "box", "size": [1, 0.4, 0.4], "cells": [5, 2, 2]}, "density": 1000,
      "materials": [{"model": "neo_hookean", "mu": 1e5, "lambda": 4e5}]}]})",
                           "free_box.json");
  applyOverride(scene, "integrator", integrator);
  return scene;
}

struct Momentum {
  Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();  // angular about the centre of mass
};

Momentum momentum(const Model& model, const Body& body, const VecX& x, const VecX& v) {
  double mass = 0;
  Vec3 centre = Vec3::Zero();
  for (int i = body.first_vertex; i < body.first_vertex + body.vertex_count; ++i) {
    mass += model.mass[i];
    centre += model.mass[i] * vertex(x, i);
  }
  centre /= mass;
  Momentum p;
  for (int i = body.first_vertex; i < body.first_vertex + body.vertex_count; ++i) {
    p.linear += model.mass[i] * vertex(v, i);
    p.angular += model.mass[i] * (vertex(x, i) - centre).cross(vertex(v, i));
  }
  return p;
}

double kineticEnergy(const Model& model, const VecX& v) {
  double e = 0;
  for (int i = 0; i < model.vertexCount(); ++i) e += 0.5 * model.mass[i] * vertex(v, i).squaredNorm();
  return e;
}

// The rest shape stretched by `stretch` along x about its centre, spinning about y and drifting along x.
void stretchedSpin(Simulation& sim, double stretch, double spin) {
  VecX x = sim.model().rest, v(x.size());
  for (int i = 0; i < sim.model().vertexCount(); ++i) {
    vertex(x, i).x() *= 1 + stretch;
    vertex(v, i) = Vec3(0.3, 0, 0) + Vec3(0, spin, 0).cross(vertex(x, i));
  }
  test::setMotion(sim, x, v);
}

Settings with(const Settings& base, const std::vector<std::pair<const char*, const char*>>& values) {
  Settings s = base;
  for (const auto& [key, value] : values) setParameter(s, key, value);
  return s;
}

TEST(Damping, EtherDragScalesTheVelocityBeforeTheStep) {
  for (const char* integrator : {"backward_euler", "implicit_midpoint", "bdf2"}) {
    Scene dragged_scene = freeBox(integrator);
    setParameter(dragged_scene.settings, "damping", "0.3");
    Simulation dragged(dragged_scene), plain(freeBox(integrator));
    stretchedSpin(dragged, 0.05, 2.0);
    test::setMotion(plain, dragged.positions(), 0.7 * dragged.velocities());
    dragged.step();
    plain.step();
    EXPECT_TRUE(dragged.positions() == plain.positions()) << integrator;
    EXPECT_TRUE(dragged.velocities() == plain.velocities()) << integrator;
  }
}

TEST(Damping, RigidModesDragKeepsMomentumAndTakesOnlyTheDeformation) {
  const BuiltModel built = test::buildInline(R"({"version": 1, "bodies": [
    {"shape": {"type": "box", "size": [1, 0.8, 0.6], "cells": [2, 2, 2]}, "materials": [{"model": "corotated"}]},
    {"shape": {"type": "cloth", "size": [1, 1], "vertices": [6, 6]}, "translate": [3, 0, 0],
     "materials": [{"region": "stretch", "model": "spring"}, {"region": "bend", "model": "spring"}]}]})");
  const Model& model = built.model;
  std::mt19937 rng(11);
  const VecX x = test::perturbed(model.rest, 0.1, rng), v = test::perturbed(VecX::Zero(x.size()), 2.0, rng);
  Settings settings;
  setParameter(settings, "damping_model", "rigid_modes");
  setParameter(settings, "damping", "1");
  VecX rigid, dragged, again;
  dragVelocities(model, settings, x, v, rigid);  // damping 1 leaves only the rigid motion
  setParameter(settings, "damping", "0.4");
  dragVelocities(model, settings, x, v, dragged);
  dragVelocities(model, settings, x, rigid, again);
  ASSERT_EQ(model.bodies.size(), 2u);
  for (const Body& body : model.bodies) {
    const Momentum before = momentum(model, body, x, v), after = momentum(model, body, x, dragged), kept = momentum(model, body, x, rigid);
    const double scale = before.linear.norm() + before.angular.norm();
    EXPECT_LE((after.linear - before.linear).norm(), 1e-13 * scale) << body.name;
    EXPECT_LE((after.angular - before.angular).norm(), 1e-13 * scale) << body.name;
    EXPECT_LE((kept.angular - before.angular).norm(), 1e-13 * scale) << body.name;
  }
  // 0.4 of the deformation's velocity is taken, none of the rigid motion's.
  EXPECT_LE((dragged - rigid - 0.6 * (v - rigid)).norm(), 1e-13 * v.norm());
  EXPECT_LE((again - rigid).norm(), 1e-13 * v.norm());
  EXPECT_GT(kineticEnergy(model, v - rigid), 0.5 * kineticEnergy(model, v));  // random velocities are mostly deformation

  // Points on a line: the inertia tensor is singular, and the momentum still stays.
  Model line;
  line.rest.resize(12);
  line.mass = Eigen::Vector4d(1, 2, 3, 4);
  for (int i = 0; i < 4; ++i) vertex(line.rest, i) = Vec3(i, 0, 0);
  Body body;
  body.name = "line";
  body.vertex_count = 4;
  line.bodies.push_back(body);
  const VecX w = test::perturbed(VecX::Zero(12), 1.0, rng);
  dragVelocities(line, settings, line.rest, w, dragged);
  ASSERT_TRUE(dragged.allFinite());
  const Momentum before = momentum(line, line.bodies[0], line.rest, w), after = momentum(line, line.bodies[0], line.rest, dragged);
  EXPECT_LE((after.linear - before.linear).norm() + (after.angular - before.angular).norm(), 1e-13 * w.norm());
}

// Vibration energy: the elastic energy plus the kinetic energy of what is not rigid motion.
double vibrationEnergy(const Simulation& sim) {
  Settings rigid_only;
  setParameter(rigid_only, "damping_model", "rigid_modes");
  setParameter(rigid_only, "damping", "1");
  VecX rigid;
  dragVelocities(sim.model(), rigid_only, sim.positions(), sim.velocities(), rigid);
  return sim.lastFrame().elastic_energy + kineticEnergy(sim.model(), sim.velocities() - rigid);
}

// Implicit midpoint keeps angular momentum, so what a drag takes of it shows.
TEST(Damping, RigidModesDragStillsTheVibrationButNotTheSpin) {
  struct Run {
    Momentum start, end;
    double vibration_start = 0, vibration_end = 0;
  };
  const auto run = [](const std::vector<std::pair<const char*, const char*>>& drag) {
    Scene scene = freeBox("implicit_midpoint");
    scene.settings = with(scene.settings, drag);
    Simulation sim(scene);
    stretchedSpin(sim, 0.1, 2.0);
    Run r;
    sim.step();
    r.start = momentum(sim.model(), sim.model().bodies[0], sim.positions(), sim.velocities());
    r.vibration_start = vibrationEnergy(sim);
    for (int f = 0; f < 50; ++f) sim.step();
    r.end = momentum(sim.model(), sim.model().bodies[0], sim.positions(), sim.velocities());
    r.vibration_end = vibrationEnergy(sim);
    return r;
  };
  const Run none = run({}), rigid = run({{"damping_model", "rigid_modes"}, {"damping", "0.1"}}),
            ether = run({{"damping_model", "ether"}, {"damping", "0.1"}});
  std::printf("after 50 frames: vibration kept %.3g (no drag), %.3g (rigid_modes), %.3g (ether); angular momentum kept %.6f, %.6f, %.3g\n",
              none.vibration_end / none.vibration_start, rigid.vibration_end / rigid.vibration_start,
              ether.vibration_end / ether.vibration_start, none.end.angular.norm() / none.start.angular.norm(),
              rigid.end.angular.norm() / rigid.start.angular.norm(), ether.end.angular.norm() / ether.start.angular.norm());
  EXPECT_LE((rigid.end.linear - rigid.start.linear).norm(), 1e-10 * rigid.start.linear.norm());
  EXPECT_LE((rigid.end.angular - rigid.start.angular).norm(), 1e-6 * rigid.start.angular.norm());
  EXPECT_LT(rigid.vibration_end, 0.01 * rigid.vibration_start);
  EXPECT_GT(none.vibration_end, 0.3 * none.vibration_start);
  EXPECT_LT(ether.end.linear.norm(), 0.01 * ether.start.linear.norm());
  EXPECT_LT(ether.end.angular.norm(), 0.01 * ether.start.angular.norm());
}

// An objective with every kind of term (test_objective.cpp's) plus material damping, its element frames
// taken at a random state.
struct DampedObjective {
  explicit DampedObjective(const std::string& json) : built(test::buildInline(json)), objective(built.model) {
    std::mt19937 rng(21);
    objective.setInertia(test::perturbed(built.model.rest, 0.05, rng), 900.0);
    objective.drags.push_back({5, Vec3(0.2, 0.3, 0.1), 5e3});
    objective.damping.weight = 30.0 * 0.05;  // beta / h
    objective.damping.anchor = test::perturbed(built.model.rest, 0.05, rng);
    const VecX x = test::perturbed(built.model.rest, 0.2, rng), v = test::perturbed(VecX::Zero(x.size()), 2.0, rng);
    objective.setDampingFrames(x, v, 0.05);
  }
  // The damping term's gradient at x: the objective's less the same objective's without it.
  VecX dampingGradient(const VecX& x) {
    VecX with_term, without;
    objective.evaluate(x, &with_term);
    const double weight = objective.damping.weight;
    objective.damping.weight = 0;
    objective.evaluate(x, &without);
    objective.damping.weight = weight;
    return with_term - without;
  }
  BuiltModel built;
  Objective objective;
};

const std::string kFiberBox =
    test::boxSceneJson(R"({"model": "corotated", "mu": 3e3, "lambda": 7e3, "fiber": {"direction": [1, 0, 0], "kappa": 5e3}})");

TEST(Damping, MaterialDampingGradientAndHessianMatchFiniteDifferences) {
  std::mt19937 rng(22);
  for (const std::string& json : {kFiberBox, test::clothSceneJson()}) {
    DampedObjective f(json);
    const VecX x = test::perturbed(f.built.model.rest, 0.1, rng), v = test::perturbed(VecX::Zero(x.size()), 1.0, rng);
    VecX gradient, gp, gm;
    EnergyParts parts;
    f.objective.evaluate(x, &gradient, &parts);
    EXPECT_GT(parts.damping, 0);  // a sum of squares
    EXPECT_LE((gradient - test::finiteDifferenceGradient(f.objective, x)).norm(), 1e-6 * gradient.norm()) << json;
    const VecX exact = f.objective.hessian(x, false) * v;
    f.objective.evaluate(x + 1e-6 * v, &gp);
    f.objective.evaluate(x - 1e-6 * v, &gm);
    EXPECT_LE((exact - (gp - gm) / 2e-6).norm(), 1e-6 * exact.norm()) << json;
  }
}

// The damping term's Hessian (constant): the objective's less the same objective's without it.
MatX dampingHessian(Objective& objective) {
  const VecX& x = objective.model().rest;
  const MatX with_term(objective.hessian(x, false));
  const double weight = objective.damping.weight;
  objective.damping.weight = 0;
  const MatX without(objective.hessian(x, false));
  objective.damping.weight = weight;
  return with_term - without;
}

// A = M/h^2 + c s^2 L + d L_e: d L_e bounds the damping term's Hessian (as L bounds PD energies'), and
// equals it on a strain rate along the element frames' axes (an expansion, for springs).
TEST(Damping, SystemMatrixBoundsTheDampingTermsHessian) {
  const std::pair<std::string, Vec3> cases[] = {{kFiberBox, Vec3(0.3, 0.1, -0.2)}, {test::clothSceneJson(), Vec3(0.2, 0.2, 0.2)}};
  for (const auto& [json, rates] : cases) {
    DampedObjective f(json);
    const Model& model = f.built.model;
    const double d = f.objective.damping.weight;
    const SparseMatrix L = assembleElasticLaplacian(model);
    const SystemMatrix damped(model, 900.0, 1.0, d), plain(model, 900.0, 1.0, 0.0);
    EXPECT_LE(SparseMatrix(damped.matrix() - plain.matrix() - d * L).norm(), 1e-12 * damped.matrix().norm()) << json;

    const MatX bound = d * MatX(perCoordinate(L)), H = dampingHessian(f.objective);
    const MatX gap = bound - H;
    EXPECT_GE(Eigen::SelfAdjointEigenSolver<MatX>(gap).eigenvalues().minCoeff(), -1e-9 * bound.norm()) << json;
    EXPECT_GT(gap.norm(), 0.1 * bound.norm()) << json << ": the frames are random, far from equality";

    f.objective.setDampingFrames(model.rest, VecX::Zero(model.rest.size()), 0.05);
    VecX strain(model.rest.size());
    for (int i = 0; i < model.vertexCount(); ++i) vertex(strain, i) = rates.asDiagonal() * vertex(model.rest, i);
    const double exact = strain.dot(dampingHessian(f.objective) * strain), bounded = strain.dot(bound * strain);
    EXPECT_NEAR(exact, bounded, 1e-10 * bounded) << json;
  }
}

// The damping force on a body that turns rigidly over a step at `rate` times the rate it turned at at the
// step's start, relative to the force the term would have without its turning frames (beta L_e v).
double forceOnATurn(const std::string& json, const Mat3& strain, double rate) {
  DampedObjective f(json);
  const Model& model = f.built.model;
  const Mat3 Q = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Vec3 omega(0.3, -2, 1), drift(0.5, 0, -1);
  const double h = 0.02;
  const Mat3 step = Eigen::AngleAxisd(rate * h * omega.norm(), omega.normalized()).toRotationMatrix();
  VecX x(model.rest.size()), velocity(x.size()), end(x.size());
  for (int i = 0; i < model.vertexCount(); ++i) {
    vertex(x, i) = Q * strain * vertex(model.rest, i) + Vec3(1, 0, 0);
    vertex(velocity, i) = drift + omega.cross(vertex(x, i));
    vertex(end, i) = step * vertex(x, i) + h * drift;
  }
  f.objective.damping.anchor = x;
  f.objective.setDampingFrames(x, velocity, h);
  const VecX without_frames = f.objective.damping.weight * (perCoordinate(assembleElasticLaplacian(model)) * (end - x));
  return f.dampingGradient(end).norm() / without_frames.norm();
}

// Turning is no strain: a tet turning on at its start's rate has no force from the term, strained or not,
// in any orientation. A change of rate within the step, or a spring (which knows no turn about its own
// axis), leaves a force of the second order in the step's turn (here 0.045 rad), and of the first in the
// change of rate times the strain.
TEST(Damping, MaterialDampingDampsStrainNotTurning) {
  const Mat3 none = Mat3::Identity(), strained = Vec3(1.2, 0.9, 1.05).asDiagonal();
  const double strained_tets = forceOnATurn(kFiberBox, strained, 1.0), faster = forceOnATurn(kFiberBox, none, 1.2),
               faster_strained = forceOnATurn(kFiberBox, strained, 1.2), springs = forceOnATurn(test::clothSceneJson(), none, 1.0);
  std::printf("force on a turn, relative to beta L_e v: tets %.2g, 20%% faster %.2g (strained: %.2g), springs %.2g\n", strained_tets,
              faster, faster_strained, springs);
  EXPECT_LE(strained_tets, 1e-10);
  EXPECT_LE(faster, 1e-2);
  EXPECT_LE(springs, 1e-2);
  EXPECT_LE(faster_strained, 0.05);
}

// The term acts on the velocity each integrator's forces see (integrator.h): (x - x^) a/h is v+ for
// backward Euler and BDF2, the midpoint's (v_n + v+)/2 for implicit midpoint; weighted by c s a beta/h.
TEST(Damping, MaterialDampingActsOnTheStepsVelocity) {
  for (const char* integrator : {"backward_euler", "implicit_midpoint", "bdf2"}) {
    Scene scene = freeBox(integrator);
    setParameter(scene.settings, "material_damping", "0.01");
    Simulation sim(scene);
    stretchedSpin(sim, 0.05, 2.0);
    sim.step();
    sim.step();  // BDF2's later steps use the step before
    const VecX v_before = sim.velocities(), x_before = sim.positions();
    sim.step();
    const MaterialDamping& term = test::objectiveOf(sim).damping;
    ASSERT_TRUE(term.active());
    const StepForm form = stepForm(sim.settings().integrator);
    const double h = sim.settings().time_step;
    EXPECT_NEAR(term.weight, form.energy_scale * form.argument_scale * form.velocity_scale * 0.01 / h, 1e-12) << integrator;
    const VecX v_force = std::string(integrator) == "implicit_midpoint" ? VecX(0.5 * (v_before + sim.velocities())) : sim.velocities();
    EXPECT_LE(((sim.positions() - term.anchor) * form.velocity_scale / h - v_force).norm(), 1e-9 * v_force.norm()) << integrator;
    EXPECT_GT((sim.positions() - x_before).norm(), 0);
  }
}

// Energy (kinetic + elastic) after `frames` frames of implicit midpoint from velocity v at rest.
double energyAfter(const Scene& scene, const VecX& v, int frames) {
  Simulation sim(scene);
  test::setMotion(sim, sim.model().rest, v);
  for (int f = 0; f < frames; ++f) sim.step();
  return sim.lastFrame().kinetic_energy + sim.lastFrame().elastic_energy;
}

// Rayleigh damping beta K gives a mode of frequency omega the damping ratio beta omega / 2, its energy the
// decay exp(-beta omega^2 t): high frequencies die out first. Implicit midpoint adds no damping of its own
// and a short step keeps omega h small, so an undamped run keeps each mode's energy and the ratio of the
// two runs is the material damping alone. Translation is never damped.
TEST(Damping, MaterialDampingStillsHighFrequenciesFirstAndNeverTranslation) {
  Scene plain = freeBox("implicit_midpoint");
  setParameter(plain.settings, "time_step", "0.001");
  Scene damped = plain;
  setParameter(damped.settings, "material_damping", "1e-4");
  const BuiltModel built = buildModel(plain);
  const Model& model = built.model;
  Objective elastic(model);
  elastic.setInertia(model.rest, 0.0);
  const MatX K(elastic.hessian(model.rest, false));
  VecX masses(3 * model.vertexCount());
  for (int i = 0; i < model.vertexCount(); ++i) masses.segment<3>(3 * i).setConstant(model.mass[i]);
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> modes(K, MatX(masses.asDiagonal()));
  const int n = static_cast<int>(masses.size()), frames = 100;
  const double t = frames * plain.settings.time_step;
  std::vector<double> kept;
  for (int mode : {6, 12, n / 4, n / 2, n - 1}) {  // 0..5 are the rigid modes
    const VecX v = 1e-3 * modes.eigenvectors().col(mode) / modes.eigenvectors().col(mode).cwiseAbs().maxCoeff();
    kept.push_back(energyAfter(damped, v, frames) / energyAfter(plain, v, frames));
    const double omega = std::sqrt(modes.eigenvalues()[mode]);
    std::printf("mode %3d, omega %6.1f rad/s: energy kept after %.2f s with beta = 1e-4 s: %.3g (Rayleigh beta K: %.3g)\n", mode, omega, t,
                kept.back(), std::exp(-1e-4 * omega * omega * t));
  }
  for (size_t i = 1; i < kept.size(); ++i) EXPECT_LT(kept[i], kept[i - 1]) << "mode " << i;
  EXPECT_GT(kept.front(), 0.9);
  EXPECT_LT(kept.back(), 0.2);

  Scene heavy = plain;
  setParameter(heavy.settings, "material_damping", "1");
  Simulation sim(heavy);
  VecX v(3 * model.vertexCount());
  for (int i = 0; i < model.vertexCount(); ++i) vertex(v, i) = Vec3(0.5, -0.2, 0.1);
  test::setMotion(sim, model.rest, v);
  for (int f = 0; f < 20; ++f) sim.step();
  EXPECT_LE((sim.velocities() - v).norm(), 1e-10 * v.norm());
  EXPECT_LE((sim.positions() - model.rest - 20 * sim.settings().time_step * v).norm(), 1e-10);
}

// Turning is not strain: a spinning body keeps its spin and a swinging one its swing. (An earlier form,
// beta L_e v itself, took all of a 2 rad/s spin in under 1 s at beta = 0.001 s; docs/scene_format.md.)
TEST(Damping, MaterialDampingKeepsASpinAndASwing) {
  for (const char* beta : {"0.001", "0.01"}) {
    Scene scene = freeBox("implicit_midpoint");
    setParameter(scene.settings, "material_damping", beta);
    Simulation sim(scene);
    stretchedSpin(sim, 0.0, 2.0);
    const Momentum start = momentum(sim.model(), sim.model().bodies[0], sim.positions(), sim.velocities());
    const double energy = kineticEnergy(sim.model(), sim.velocities());
    for (int f = 0; f < 50; ++f) sim.step();
    const Momentum end = momentum(sim.model(), sim.model().bodies[0], sim.positions(), sim.velocities());
    const double kept = end.angular.norm() / start.angular.norm();
    std::printf("a 1 m box spinning at 2 rad/s keeps %.6f of its angular momentum after 1 s with beta = %s s\n", kept, beta);
    EXPECT_GT(kept, 0.995) << beta;
    EXPECT_LE(kept, 1.0 + 1e-9) << beta;
    EXPECT_LE(sim.lastFrame().kinetic_energy + sim.lastFrame().elastic_energy, energy) << beta;
    EXPECT_LE((end.linear - start.linear).norm(), 1e-10 * start.linear.norm()) << beta;
  }
  // A stiff bar hanging from one vertex, released horizontally: the frame at which it first swings
  // through its lowest point.
  const auto lowestFrame = [](const char* beta) {
    Scene scene =
        parseScene(R"({"version": 1, "time_step": 0.01, "solver": {"method": "newton", "iterations": 40, "gradient_tolerance": 1e-10},
      "bodies": [{"shape": {"type": "box", "size": [1, 0.2, 0.2], "cells": [5, 1, 1]}, "density": 1000,
        "materials": [{"model": "neo_hookean", "mu": 1e6, "lambda": 4e6}], "handles": [{"select": {"indices": [0]}, "stiffness": 1e7}]}]})",
                   "pendulum.json");
    setParameter(scene.settings, "material_damping", beta);
    Simulation sim(scene);
    double previous = sim.lastFrame().com.y();
    for (int f = 1; f < 200; ++f) {
      sim.step();
      if (sim.lastFrame().com.y() > previous) return f - 1;
      previous = sim.lastFrame().com.y();
    }
    return -1;
  };
  const int undamped = lowestFrame("0"), damped = lowestFrame("0.003");
  std::printf("the pendulum first passes its lowest point at frame %d undamped, %d with beta = 0.003 s\n", undamped, damped);
  EXPECT_GT(undamped, 10);
  EXPECT_NEAR(damped, undamped, 1);
}

}  // namespace
}  // namespace qnsim
