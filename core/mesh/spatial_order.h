#pragma once
// An order of points along a space-filling curve (Morton's Z-order over their bounding box), so that
// points near in space are mostly near in the order: the model keeps its tets in this order of their
// centroids, which keeps a pass over them within a small set of vertices at a time.
#include <vector>

#include "qnsim/types.h"

namespace qnsim {

// The indices of the rows of `points`, sorted by their Z-order code (21 bits per axis over the points'
// bounding box of the finite points); equal codes keep their order. A NaN or infinite coordinate sorts as
// the box's low one.
std::vector<int> spatialOrder(const MatX3& points);

}  // namespace qnsim
