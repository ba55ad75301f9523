#pragma once
// The dynamic state of a simulation: everything a step reads and writes, as one copyable value (the
// changing half of a simulation, as MuJoCo's mjData beside the Model). Saving, loading, resetting,
// rolling back a diverged frame and the Compare tab's re-solve of a frame all copy it. Restored into a
// Simulation of the same scene and edits (Simulation::apply(LoadState)), it continues exactly as the
// simulation it came from did: the following frames are the same bits.
// Units: metres, seconds, metres per second; stiffnesses in N/m.
#include <filesystem>
#include <vector>

#include "qnsim/types.h"

namespace qnsim {

// Elements by index: tets into Model::tets, springs into Model::springs, each increasing.
struct ElementSet {
  std::vector<int> tets, springs;
  int size() const { return static_cast<int>(tets.size() + springs.size()); }
  bool operator==(const ElementSet&) const = default;
};

// A vertex held where it was pinned by an attachment spring k/2 |x_v - point|^2 (part of A).
struct Pin {
  int vertex;
  Vec3 point;
  double stiffness;
  bool operator==(const Pin&) const = default;
};

// A vertex pulled towards a target by a spring k/2 |x_v - target|^2 in g and its gradient only, never
// in A (the sandbox's mouse drag), so it needs no refactorisation.
struct Drag {
  int vertex;
  Vec3 target;
  double stiffness;
  bool operator==(const Drag&) const = default;
};

// Where a collider stood: its position and rotation (Collider's pose).
struct ColliderPose {
  Vec3 position;
  Mat3 rotation;
  bool operator==(const ColliderPose&) const = default;
};

struct SimState {
  int frame = 0;
  double time = 0;  // s
  VecX x, v;        // positions and velocities, 3n: x0 y0 z0 x1 ...
  // The start of the frame before (BDF2 reads them); x and v themselves before the first frame.
  VecX x_previous, v_previous;
  ElementSet removed;            // torn or cut elements
  // The removed elements A was factored without: `removed`, unless tearing.matrix=keep left A as it was.
  ElementSet matrix_removed;
  std::vector<Pin> pins;         // attachments added by PinVertices, in the order they were made
  std::vector<int> released;     // vertices whose scene-handle attachments UnpinVertices released, increasing
  std::vector<Drag> drags;       // the drag of SetDrag
  // What a method carries from one frame to the next:
  std::vector<Eigen::Quaterniond> rotations;  // pbd, xpbd: each tet's rotation estimate (empty: from each F)
  double spectral_radius = 0;  // chebyshev with solver.chebyshev_rho = 0: rho as estimated (0: not yet)
  // contact.model=barrier: the barrier's stiffness kappa at the end of the last frame, from which the
  // next frame's friction takes its normal forces (0: none yet).
  double barrier_stiffness = 0;
  // contact.push: where each of the scene's colliders stood at the end of the last frame, when that
  // frame ended with them behind their script (the next frame's motion starts there); empty otherwise.
  std::vector<ColliderPose> collider_poses;
  bool operator==(const SimState&) const;
};

// Writes the state as JSON ("format": "qnsim-state", version 2; every number exactly as it is, so a
// state read back is the same bits). Throws qnsim::Error naming the file when it cannot be written.
void writeState(const std::filesystem::path& path, const SimState& state);
// Reads a state written by writeState (or a version 1 file, whose previous step is taken to be its
// x and v). Throws qnsim::Error naming the file and the field on a missing file or malformed content.
SimState readState(const std::filesystem::path& path);

}  // namespace qnsim
