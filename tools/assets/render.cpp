#include "tools/assets/render.h"

#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "qnsim/error.h"

namespace qnsim::assets {

SurfaceMesh boundaryOf(const TetMesh& mesh, Eigen::VectorXi* face_region) {
  // Outward faces of a positive tet (a, b, c, d); a face seen once lies on the boundary.
  constexpr int kFaces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  std::map<std::array<int, 3>, std::pair<std::array<int, 3>, int>> seen;
  for (Eigen::Index e = 0; e < mesh.T.rows(); ++e)
    for (const auto& f : kFaces) {
      std::array<int, 3> tri = {mesh.T(e, f[0]), mesh.T(e, f[1]), mesh.T(e, f[2])}, key = tri;
      std::sort(key.begin(), key.end());
      const auto [it, inserted] = seen.try_emplace(key, tri, mesh.region.size() ? mesh.region[e] : 0);
      if (!inserted) seen.erase(it);
    }
  SurfaceMesh s;
  s.V = mesh.V;
  s.F.resize(static_cast<Eigen::Index>(seen.size()), 3);
  if (face_region) face_region->resize(s.F.rows());
  Eigen::Index row = 0;
  for (const auto& [key, value] : seen) {
    s.F.row(row) << value.first[0], value.first[1], value.first[2];
    if (face_region) (*face_region)[row] = value.second;
    ++row;
  }
  return s;
}

namespace {

struct Image {
  int width, height;
  std::vector<std::array<float, 3>> rgb;
  std::vector<float> depth;
};

Vec3 regionColour(int region) {
  static const Vec3 palette[] = {{0.72, 0.58, 0.44}, {0.97, 0.96, 0.86}, {0.45, 0.65, 0.85}, {0.55, 0.8, 0.5}};
  return palette[std::clamp(region, 0, 3)];
}

// Camera frame: rows are right, up, towards-viewer.
Mat3 cameraFrame(Vec3 towards_viewer) {
  towards_viewer.normalize();
  Vec3 right = Vec3::UnitY().cross(towards_viewer);
  if (right.norm() < 1e-6) right = Vec3::UnitX();
  right.normalize();
  Mat3 R;
  R.row(0) = right;
  R.row(1) = towards_viewer.cross(right);
  R.row(2) = towards_viewer;
  return R;
}

void drawTriangle(Image& img, const std::array<Vec3, 3>& s, const Vec3& colour) {
  const double x0 = std::max(0.0, std::floor(std::min({s[0].x(), s[1].x(), s[2].x()})));
  const double x1 = std::min(img.width - 1.0, std::ceil(std::max({s[0].x(), s[1].x(), s[2].x()})));
  const double y0 = std::max(0.0, std::floor(std::min({s[0].y(), s[1].y(), s[2].y()})));
  const double y1 = std::min(img.height - 1.0, std::ceil(std::max({s[0].y(), s[1].y(), s[2].y()})));
  const auto edge = [](const Vec3& a, const Vec3& b, double x, double y) { return (b.x() - a.x()) * (y - a.y()) - (b.y() - a.y()) * (x - a.x()); };
  const double area = edge(s[0], s[1], s[2].x(), s[2].y());
  if (std::abs(area) < 1e-12) return;
  const double len[3] = {(s[2] - s[1]).head<2>().norm(), (s[0] - s[2]).head<2>().norm(), (s[1] - s[0]).head<2>().norm()};
  for (int y = static_cast<int>(y0); y <= static_cast<int>(y1); ++y)
    for (int x = static_cast<int>(x0); x <= static_cast<int>(x1); ++x) {
      const double px = x + 0.5, py = y + 0.5;
      const double w0 = edge(s[1], s[2], px, py) / area, w1 = edge(s[2], s[0], px, py) / area, w2 = 1.0 - w0 - w1;
      if (w0 < 0 || w1 < 0 || w2 < 0) continue;
      const float z = static_cast<float>(w0 * s[0].z() + w1 * s[1].z() + w2 * s[2].z());
      const std::size_t i = static_cast<std::size_t>(y) * img.width + x;
      if (z <= img.depth[i]) continue;
      img.depth[i] = z;
      // Pixel distance to the nearest edge, for a faint wireframe.
      const double dist = std::min({w0 * std::abs(area) / len[0], w1 * std::abs(area) / len[1], w2 * std::abs(area) / len[2]});
      const double shade = dist < 0.6 ? 0.8 : 1.0;
      for (int k = 0; k < 3; ++k) img.rgb[i][k] = static_cast<float>(std::min(1.0, colour[k] * shade));
    }
}

void drawView(Image& img, int x_offset, int size, const SurfaceMesh& s, const Eigen::VectorXi& region, const Vec3& towards_viewer,
              const Vec3& centre, double radius) {
  const Mat3 R = cameraFrame(towards_viewer);
  const double scale = 0.5 * size * 0.92 / radius;
  const Vec3 light = (R.transpose() * Vec3(-0.4, 0.6, 1.0)).normalized();  // upper left, behind the viewer
  for (Eigen::Index f = 0; f < s.F.rows(); ++f) {
    std::array<Vec3, 3> screen;
    std::array<Vec3, 3> world;
    for (int k = 0; k < 3; ++k) {
      world[k] = s.V.row(s.F(f, k));
      const Vec3 c = R * (world[k] - centre);
      screen[k] = Vec3(x_offset + 0.5 * size + scale * c.x(), 0.5 * size - scale * c.y(), c.z());
    }
    const Vec3 n = (world[1] - world[0]).cross(world[2] - world[0]).normalized();
    if (n.dot(R.row(2)) <= 0) continue;  // back face
    const double lambert = 0.3 + 0.7 * std::max(0.0, n.dot(light));
    drawTriangle(img, screen, lambert * regionColour(region[f]));
  }
}

}  // namespace

void renderPreview(const TetMesh& mesh, const std::filesystem::path& png, int view_size) {
  Eigen::VectorXi region;
  const SurfaceMesh s = boundaryOf(mesh, &region);
  const Vec3 lo = s.V.colwise().minCoeff(), hi = s.V.colwise().maxCoeff();
  const Vec3 centre = 0.5 * (lo + hi);
  const double radius = 0.5 * (hi - lo).norm();
  Image img{3 * view_size, view_size, {}, {}};
  img.rgb.assign(static_cast<std::size_t>(img.width) * img.height, {0.93f, 0.94f, 0.96f});
  img.depth.assign(img.rgb.size(), -std::numeric_limits<float>::infinity());
  const Vec3 views[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3(1.0, 0.7, 1.2)};
  for (int v = 0; v < 3; ++v) drawView(img, v * view_size, view_size, s, region, views[v], centre, radius);
  std::vector<unsigned char> bytes(img.rgb.size() * 3);
  for (std::size_t i = 0; i < img.rgb.size(); ++i)
    for (int k = 0; k < 3; ++k) bytes[3 * i + k] = static_cast<unsigned char>(std::lround(255.0f * img.rgb[i][k]));
  std::filesystem::create_directories(png.parent_path());
  if (!stbi_write_png(png.string().c_str(), img.width, img.height, 3, bytes.data(), 3 * img.width))
    throw error(png.string(), ": cannot write the PNG");
}

}  // namespace qnsim::assets
