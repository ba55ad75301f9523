#pragma once
// What a scene or a body was read from (qnsim/scene.h's SceneSource): its JSON, keys in the order the file
// wrote them, and the folder its relative paths are relative to. The scene writer starts from it.
#include <filesystem>
#include <nlohmann/json.hpp>

namespace qnsim {

struct SceneSource {
  nlohmann::ordered_json json;
  std::filesystem::path folder;
};

}  // namespace qnsim
