// The integrators as minimisations (core/sim/integrator.h), each frame solved to convergence:
// on a body vibrating against two attachment springs, with no gravity, backward Euler damps the
// motion strongly, BDF2 less, and implicit midpoint keeps the energy (it is symplectic).
#include <gtest/gtest.h>

#include "qnsim/simulation.h"
#include "tests/sim_fixtures.h"

namespace qnsim {
namespace {

double totalEnergy(const Simulation& sim) {
  const Model& m = sim.model();
  double attachment = 0;
  for (const Attachment& a : m.attachments) attachment += 0.5 * a.stiffness * (vertex(sim.positions(), a.vertex) - a.target).squaredNorm();
  return sim.lastFrame().kinetic_energy + sim.lastFrame().elastic_energy + attachment;
}

double energyAfter(const char* integrator, int frames) {
  Scene scene = parseScene(R"({"version": 1, "gravity": [0, 0, 0], "solver": {"method": "newton", "iterations": 30, "gradient_tolerance": 1e-12},
    "bodies": [{"shape": {"type": "box", "size": [1, 0.4, 0.4], "cells": [4, 2, 2]}, "velocity": [0, 1, 0], "density": 1000,
      "materials": [{"model": "neo_hookean", "mu": 1e5, "lambda": 4e5}],
      "handles": [{"select": {"box": {"min": [-0.6, -1, -1], "max": [-0.49, 1, 1]}}, "stiffness": 1e5}]}]})",
                           "vibrating.json");
  applyOverride(scene, "integrator", integrator);
  Simulation sim(scene);
  sim.step();
  const double start = totalEnergy(sim);
  for (int f = 1; f < frames; ++f) sim.step();
  return totalEnergy(sim) / start;
}

TEST(Integrators, BackwardEulerDampsMostMidpointKeepsTheEnergy) {
  const double be = energyAfter("backward_euler", 60), bdf2 = energyAfter("bdf2", 60), midpoint = energyAfter("implicit_midpoint", 60);
  std::printf("energy kept after 60 frames: backward Euler %.3f, BDF2 %.3f, implicit midpoint %.3f\n", be, bdf2, midpoint);
  EXPECT_LT(be, bdf2);
  EXPECT_LT(bdf2, midpoint);
  EXPECT_NEAR(midpoint, 1.0, 0.05);
  EXPECT_LT(be, 0.5);
}

}  // namespace
}  // namespace qnsim
