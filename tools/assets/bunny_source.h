#pragma once
// The Stanford bunny as shipped by the npm package `bunny` 1.0.1 (public domain): index.js holds
// `exports.positions=[[x,y,z],...]` and `exports.cells=[[i,j,k],...]`.
#include <filesystem>

#include "qnsim/mesh.h"

namespace qnsim::assets {

// Runs `npm pack bunny@1.0.1` in `work_dir` (only when the unpacked index.js is not there yet) and
// returns the path of index.js. Throws qnsim::Error if npm or tar fail.
std::filesystem::path fetchBunnyPackage(const std::filesystem::path& work_dir);

// Parses the two arrays of index.js.
SurfaceMesh readBunnyJs(const std::filesystem::path& index_js);

}  // namespace qnsim::assets
