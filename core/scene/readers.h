#pragma once
// Internal to the scene reader: one function per part of the scene file.
#include <filesystem>

#include "core/scene/json_field.h"
#include "core/scene/scene.h"

namespace qnsim::scene_detail {

BodyDesc readBody(const JsonField& field, const std::filesystem::path& scene_dir, int index);
Collider readCollider(const JsonField& field);
Mat3 readRotation(const JsonField& field);  // {"axis": [x, y, z], "degrees": d}

}  // namespace qnsim::scene_detail
