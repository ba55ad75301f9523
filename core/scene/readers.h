#pragma once
// Internal to the scene reader: one function per part of the scene file.
#include <filesystem>

#include "core/scene/json_field.h"
#include "core/scene/scene_parser.h"

namespace qnsim::scene_detail {

// memory_share: the scene's setting, checked before a procedural shape is generated (memory_budget.h).
// load_mesh: parseScene's, empty for readTetMesh.
BodyDesc readBody(const JsonField& field, const std::filesystem::path& scene_dir, int index, double memory_share,
                  const MeshLoader& load_mesh);
// The settings of a scene file's top level (or of a group of it, `prefix` "solver") into `settings`.
void readParameters(const JsonField& field, const std::string& prefix, Settings& settings);
Collider readCollider(const JsonField& field);
void readCamera(const JsonField& field, CameraDesc& camera);
Mat3 readRotation(const JsonField& field);  // {"axis": [x, y, z], "degrees": d}
MotionSegment readMotion(const JsonField& field);
std::vector<MotionSegment> readMotionList(const JsonField& field);  // a JSON array of motions

}  // namespace qnsim::scene_detail
