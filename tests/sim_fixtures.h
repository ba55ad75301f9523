#pragma once
// Small inline scenes and random states for tests of the objective and the solvers.
#include <random>
#include <string>

#include "core/sim/build_model.h"
#include "core/sim/simulation_impl.h"
#include "qnsim/scene.h"
#include "qnsim/simulation.h"

namespace qnsim::test {

// A 2 x 2 x 2-cell box (27 vertices, 40 tets) with one material, two attached corners, optional fibre.
inline std::string boxSceneJson(const std::string& material_json, const std::string& extra = "") {
  return R"({"version": 1, "bodies": [{"name": "box", "shape": {"type": "box", "size": [1, 0.8, 0.6], "cells": [2, 2, 2]},
    "density": 1000, "materials": [)" +
         material_json + R"(],
    "handles": [{"select": {"indices": [0, 26]}, "stiffness": 3e4}]}])" +
         extra + "}";
}

// A 6 x 6 cloth with stretch and bend springs and two pinned corners.
inline std::string clothSceneJson() {
  return R"({"version": 1, "bodies": [{"name": "cloth", "shape": {"type": "cloth", "size": [1, 1], "vertices": [6, 6]}, "density": 0.2,
    "materials": [{"region": "stretch", "model": "spring", "k": 300}, {"region": "bend", "model": "spring", "k": 20}],
    "handles": [{"select": {"indices": [0, 30]}, "stiffness": 1e3}]}]})";
}

inline BuiltModel buildInline(const std::string& json) { return buildModel(parseScene(json, "inline.json")); }

// The simulation's objective g (inside it; not part of the public API).
inline Objective& objectiveOf(Simulation& sim) { return *internals(sim).objective; }

// New positions and velocities, the rest of the state kept (a previous step, pins); PBD's rotation
// estimates start afresh from them.
inline void setMotion(Simulation& sim, const VecX& x, const VecX& v) {
  SimState s = sim.state();
  s.x = x;
  s.v = v;
  s.rotations.clear();
  sim.apply(LoadState{std::move(s)});
}

// Rest positions plus uniform noise of the given amplitude (relative to a 1 m object).
inline VecX perturbed(const VecX& rest, double amplitude, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  VecX x = rest;
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += u(rng);
  return x;
}

}  // namespace qnsim::test
