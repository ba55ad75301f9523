#pragma once
// The scene a bare mesh file opens as (qnsim run mesh.obj): dropped on a ground plane, with a corotated
// material scaled to the mesh's size.
#include <filesystem>

#include "qnsim/scene.h"

namespace qnsim {

Scene sceneForBareMesh(const std::filesystem::path& mesh_path);

}  // namespace qnsim
