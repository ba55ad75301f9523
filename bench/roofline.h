#pragma once
// The roofline of this processor and where a scene's phases stand against it: the memory bandwidth at
// several working-set sizes and the peak rate of fused multiply-adds (measured, not looked up), then
// each phase's bytes and flops per operation (counted from the scene's sizes), its measured time and
// the lower bound max(bytes / bandwidth, flops / peak) that the machine allows.
#include <string>
#include <vector>

namespace qnsim::bench {

struct Bandwidth {
  double working_set_bytes;  // three arrays per thread together
  double gb_per_s;           // all threads together
};

struct Roofs {
  int threads = 1;
  double peak_gflops = 0;  // eight- or four-lane FMA chains on every thread, the widest qnsim runs here (scalar without AVX2)
  std::vector<Bandwidth> bandwidth;  // ascending working sets
  // The bandwidth measured at the smallest working set not below `bytes` (the largest for any more).
  double bandwidthFor(double bytes) const;
};

Roofs measureRoofs(int threads);

// One phase of a frame, per operation (one evaluation of g and its gradient, one solve with A, one
// L-BFGS direction).
struct PhaseCost {
  std::string phase, operation;
  double operations_per_frame = 0;
  double bytes = 0, flops = 0;  // flops 0: not counted for this scene's materials
  double working_set_bytes = 0;
  double measured_us = 0;
};

// Runs the scene for `frames` frames on `threads` threads and returns its phases' costs.
std::vector<PhaseCost> scenePhases(const std::string& scene_path, int threads, int frames);

// Markdown: the roofs, then per scene each phase's counts, its time, its bound and their ratio.
std::string roofsTable(const Roofs& roofs);
std::string phaseTable(const std::string& scene, const std::vector<PhaseCost>& phases, const Roofs& roofs);

}  // namespace qnsim::bench
