#include "core/sim/handles.h"

#include <algorithm>
#include <cmath>

namespace qnsim {

std::vector<int> selectVertices(const Selection& s, const MatX3& V, const TetMesh* mesh) {
  std::vector<int> out;
  switch (s.kind) {
    case Selection::Kind::All:
      for (int i = 0; i < V.rows(); ++i) out.push_back(i);
      break;
    case Selection::Kind::Box:
      for (int i = 0; i < V.rows(); ++i)
        if ((V.row(i).transpose().array() >= s.min.array()).all() && (V.row(i).transpose().array() <= s.max.array()).all()) out.push_back(i);
      break;
    case Selection::Kind::Sphere:
      for (int i = 0; i < V.rows(); ++i)
        if ((V.row(i).transpose() - s.center).norm() <= s.radius) out.push_back(i);
      break;
    case Selection::Kind::Indices:
      out = s.indices;
      break;
    case Selection::Kind::Region:
      if (mesh)
        for (int e = 0; e < mesh->T.rows(); ++e)
          if (mesh->region[e] == s.region)
            for (int c = 0; c < 4; ++c) out.push_back(mesh->T(e, c));
      break;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void handleTransform(const HandleDesc& handle, double t, Mat3& R, Vec3& T) {
  const RigidTransform pose = motionAt(handle.motion, t);
  R = pose.R;
  T = pose.T;
}

void updateHandleTargets(const std::vector<HandleState>& handles, double t, Model& model) {
  for (const HandleState& h : handles) {
    if (h.desc.motion.empty() && !h.desc.positions.empty()) {  // held exactly where it was pinned
      for (size_t i = 0; i < h.attachments.size(); ++i) model.attachments[h.attachments[i]].target = h.rest[i];
      continue;
    }
    Mat3 R;
    Vec3 T;
    handleTransform(h.desc, t, R, T);
    for (size_t i = 0; i < h.attachments.size(); ++i) model.attachments[h.attachments[i]].target = h.center + R * (h.rest[i] - h.center) + T;
  }
}

}  // namespace qnsim
