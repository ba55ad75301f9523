#pragma once
// A coarse cage of tets around a detailed surface, at a resolution the user picks (PhysX's soft bodies
// and Houdini's embedded geometry simulate such a cage): the cells of a regular grid that hold part of
// the solid, five tets each (makeCellGrid), so that every surface vertex lies in a cage tet and the
// surface can be embedded (core/mesh/embedding.h) and drawn over it.
#include "qnsim/mesh.h"

namespace qnsim {

// `cells` cubes along the longest side of the surface's bounding box (2 to 64). A cell is kept when the
// surface passes through it (sampled at half a cell) or its centre is inside, as rays along two of the
// three axes find it: a surface with small holes or self-intersections gets a cage too. Throws
// qnsim::Error for a cell count out of range or an empty surface.
TetMesh voxelCage(const SurfaceMesh& surface, int cells);

}  // namespace qnsim
