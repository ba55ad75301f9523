#pragma once
// A tiny software rasteriser for looking at assets without a GPU: boundary triangles of a tet mesh,
// orthographic views, Lambert shading, faint edges, one colour per region. Writes PNG.
#include <filesystem>

#include "qnsim/mesh.h"

namespace qnsim::assets {

// Outward boundary triangles of a positively oriented tet mesh, with the region of the tet behind each
// (qnsim::boundaryFaces gives the faces but not their tets, which the colouring needs).
SurfaceMesh boundaryOf(const TetMesh& mesh, Eigen::VectorXi* face_region = nullptr);

// Three views side by side (front from +z, side from +x, three-quarter from above), each
// `view_size` pixels square, the same scale in all three.
void renderPreview(const TetMesh& mesh, const std::filesystem::path& png, int view_size);

}  // namespace qnsim::assets
