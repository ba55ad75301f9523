#pragma once
// Dense types used everywhere. Positions of n vertices are stored as one vector of length 3n
// (x0 y0 z0 x1 y1 z1 ...), the row-major flattening of the n x 3 matrix x of the paper.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/SparseCore>

namespace qnsim {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using MatX3 = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;  // V: #V x 3
using TetIndices = Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>;  // T: #T x 4
using TriIndices = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;  // F: #F x 3
using EdgeIndices = Eigen::Matrix<int, Eigen::Dynamic, 2, Eigen::RowMajor>;  // E: #E x 2
using MatX2 = Eigen::Matrix<double, Eigen::Dynamic, 2, Eigen::RowMajor>;    // UV: #V x 2
using SparseMatrix = Eigen::SparseMatrix<double>;

// Views of a 3n vector as the n x 3 matrix of the paper.
inline Eigen::Map<MatX3> asRows(VecX& x) { return {x.data(), x.size() / 3, 3}; }
inline Eigen::Map<const MatX3> asRows(const VecX& x) { return {x.data(), x.size() / 3, 3}; }
inline Eigen::Map<VecX> flatten(MatX3& V) { return {V.data(), V.size()}; }
inline Eigen::Map<const VecX> flatten(const MatX3& V) { return {V.data(), V.size()}; }

inline Eigen::Ref<Vec3> vertex(VecX& x, Eigen::Index i) { return x.segment<3>(3 * i); }
inline Eigen::Ref<const Vec3> vertex(const VecX& x, Eigen::Index i) { return x.segment<3>(3 * i); }

}  // namespace qnsim
