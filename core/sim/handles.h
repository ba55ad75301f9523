#pragma once
// Handles: sets of vertices held by attachment springs whose targets follow keyframed motion.
#include <vector>

#include "core/model/model.h"
#include "qnsim/scene.h"

namespace qnsim {

struct HandleState {
  std::string body, name;
  HandleDesc desc;
  Vec3 center;                    // rest centroid (or the given centre)
  std::vector<int> attachments;   // indices into Model::attachments
  std::vector<Vec3> rest;         // rest position of each attached vertex
};

// The vertices (body-local indices) a selection picks from a body's rest positions.
std::vector<int> selectVertices(const Selection& selection, const MatX3& V, const TetMesh* mesh);

// Rigid transform of a handle at time t: target = center + R (X - center) + T.
void handleTransform(const HandleDesc& handle, double t, Mat3& R, Vec3& T);

// Moves every attachment target to its position at time t.
void updateHandleTargets(const std::vector<HandleState>& handles, double t, Model& model);

}  // namespace qnsim
