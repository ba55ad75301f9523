#pragma once
// What the scene reader shares with the rest of qnsim beyond qnsim/scene.h: the mesh loader the fuzz
// tests replace, and the pieces of applyOverride that live edits share (Simulation::apply).
#include <functional>

#include "core/mesh/tetrahedralize.h"
#include "qnsim/error.h"
#include "qnsim/scene.h"

namespace qnsim {

// Reads a body's "mesh" file (its path made absolute against the scene's folder). Empty: the file
// on disk, through readTetMesh. The fuzz tests pass one that touches neither the disk nor tetgen.
using MeshLoader = std::function<TetMesh(const std::filesystem::path& path, const TetgenOptions& options)>;
Scene parseScene(const std::string& json_text, const std::filesystem::path& path, const std::vector<std::string>& overrides,
                 const MeshLoader& load_mesh);

// Splits "material.NAME.PARAMETER"; false for a parameter key.
bool splitMaterialKey(const std::string& key, std::string& name, std::string& parameter);
// A copy of `material` with the key's PARAMETER set to `value`, checked; errors name the key.
std::unique_ptr<Material> overrideMaterial(const Material& material, const std::string& key, double value);
// The key's value parsed from text ("2e5") by its PARAMETER's declaration in `material`; errors name the key.
double parseMaterialValue(const Material& material, const std::string& key, const std::string& text);
// The error for a material key whose NAME no material has.
Error noMaterialNamed(const std::string& key, const std::string& name);

}  // namespace qnsim
