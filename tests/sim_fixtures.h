#pragma once
#include <algorithm>
// Small inline scenes and random states for tests of the objective and the solvers.
#include <random>
#include <string>
#include <vector>

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

// The box on a ground plane just under it, one thread, with `edits` (--set assignments) applied.
inline Scene boxOnGround(const std::vector<std::string>& edits,
                         const std::string& material = R"({"model": "neo_hookean", "mu": 3e4, "lambda": 1e5})") {
  Scene scene = parseScene(boxSceneJson(material, R"(, "colliders": [{"type": "plane", "point": [0, -0.45, 0]}])"), "inline.json");
  scene.settings.threads = 1;
  for (const std::string& e : edits) applyOverride(scene, e);
  return scene;
}

// A sphere driven down by 0.35 m in `stroke_time` seconds (0.3: at 1.2 m/s, 4 cm a frame, a quarter of a
// cell) into a soft box resting on the ground, which it squeezes to half its height (the bunny through the
// torus in small); one thread, contact.model=barrier, with `edits` applied.
inline Scene squeezedBox(const std::string& material, const std::vector<std::string>& edits, const std::string& stroke_time = "0.3") {
  Scene scene = parseScene(R"({"version": 1, "gravity": [0, -9.81, 0],
    "bodies": [{"name": "box", "shape": {"type": "box", "size": [0.6, 0.6, 0.6], "cells": [4, 4, 4]}, "translate": [0, 0.301, 0],
      "density": 100, "materials": [{"model": ")" + material + R"(", "mu": 2e3, "lambda": 1e4}]}],
    "colliders": [{"type": "plane", "name": "ground"},
      {"type": "sphere", "name": "pusher", "center": [0, 0.8, 0], "radius": 0.15,
       "motion": [{"type": "keys", "keys": [{"time": 0}, {"time": )" + stroke_time + R"(, "translate": [0, -0.35, 0]},
         {"time": 2, "translate": [0, -0.35, 0]}]}]}]})",
                           "inline.json");
  scene.settings.threads = 1;
  applyOverride(scene, "contact.model=barrier");
  for (const std::string& e : edits) applyOverride(scene, e);
  return scene;
}

// The box, free, its bottom 5 cm above the ground and thrown down at `speed` (m/s), with `edits` applied.
inline Scene thrownBox(const std::string& material, double speed, const std::vector<std::string>& edits) {
  Scene scene = parseScene(boxSceneJson(material, R"(, "colliders": [{"type": "plane", "name": "ground"}])"), "inline.json");
  scene.bodies[0].velocity = Vec3(0, -speed, 0);
  scene.bodies[0].handles.clear();
  for (int v = 0; v < scene.bodies[0].mesh.V.rows(); ++v) scene.bodies[0].mesh.V(v, 1) += 0.45;
  for (const std::string& e : edits) applyOverride(scene, e);
  return scene;
}

// A 6 x 6 cloth with stretch and bend springs and two pinned corners.
inline std::string clothSceneJson() {
  return R"({"version": 1, "bodies": [{"name": "cloth", "shape": {"type": "cloth", "size": [1, 1], "vertices": [6, 6]}, "density": 0.2,
    "materials": [{"region": "stretch", "model": "spring", "k": 300}, {"region": "bend", "model": "spring", "k": 20}],
    "handles": [{"select": {"indices": [0, 30]}, "stiffness": 1e3}]}]})";
}

inline BuiltModel buildInline(const std::string& json) { return buildModel(parseScene(json, "inline.json")); }

// The model's number of a body's mesh tet (the model keeps the tets in a spatial order, Body::mesh_tet).
inline int modelTet(const Body& body, int mesh_tet) {
  const auto at = std::find(body.mesh_tet.begin(), body.mesh_tet.end(), mesh_tet);
  return at == body.mesh_tet.end() ? -1 : body.first_tet + static_cast<int>(at - body.mesh_tet.begin());
}

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
