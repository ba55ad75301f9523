#pragma once
// A Simulation as Python holds it. step() runs without the GIL (other Python threads go on); while it
// does, any other call on the same object from another thread raises qnsim.Error instead of racing the
// frame loop.
#include "python/bindings.h"
#include "qnsim/simulation.h"

namespace qnsim::python {

class SimulationHandle {
 public:
  explicit SimulationHandle(Scene scene) : sim_(std::move(scene)) {}
  // The simulation, between frames; throws qnsim::Error while step() runs in another thread.
  Simulation& sim();
  // n frames, each with the GIL released; Ctrl+C (any pending Python signal) stops between frames
  // with KeyboardInterrupt, leaving the state of the last finished frame.
  void step(int frames);

 private:
  Simulation sim_;
  bool stepping_ = false;  // read and written with the GIL held
};

using SimulationClass = py::class_<SimulationHandle>;
// The live edits of edits.cpp: pins, drags, materials, state.
void bindEdits(SimulationClass& cls);
// compare.cpp: the next frame solved by several methods.
void bindCompare(SimulationClass& cls);

}  // namespace qnsim::python
