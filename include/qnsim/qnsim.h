#pragma once
// qnsim: real-time simulation of hyperelastic solids and cloth with the quasi-Newton method of Liu,
// Bouaziz and Kavan (ACM TOG 2017), Projective Dynamics, Newton's method and position-based FEM beside
// it. docs/library.md walks through this API; examples/embed is a program that uses it.
//
//   qnsim::Simulation sim(qnsim::loadScene("scenes/cloth.json"));
//   sim.step();                                                  // one frame
//   sim.apply(qnsim::SetParameter{"solver.lbfgs_window", 8});    // every change is an Edit
//   qnsim::SimState saved = sim.state();                         // the whole dynamic state
#include "qnsim/collider.h"
#include "qnsim/edit.h"
#include "qnsim/error.h"
#include "qnsim/export.h"
#include "qnsim/history.h"
#include "qnsim/material.h"
#include "qnsim/mesh.h"
#include "qnsim/method.h"
#include "qnsim/model.h"
#include "qnsim/motion.h"
#include "qnsim/parameter.h"
#include "qnsim/parameters.h"
#include "qnsim/scene.h"
#include "qnsim/settings.h"
#include "qnsim/simulation.h"
#include "qnsim/state.h"
#include "qnsim/telemetry.h"
#include "qnsim/types.h"
#include "qnsim/version.h"
