#include "plot/mesh_picture.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "plot/canvas.h"
#include "plot/layout.h"

namespace qnsim::plot {
namespace {

using P3 = std::array<double, 3>;

P3 sub(const P3& a, const P3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const P3& a, const P3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
P3 cross(const P3& a, const P3& b) { return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}; }
P3 normalized(const P3& a) {
  const double n = std::sqrt(dot(a, a));
  return n > 0 ? P3{a[0] / n, a[1] / n, a[2] / n} : a;
}

constexpr Color kFront{0.36f, 0.56f, 0.86f}, kBack{0.90f, 0.58f, 0.36f}, kRigid{0.62f, 0.62f, 0.62f};

// A colour and depth buffer of size x size pixels (the supersampled panel).
struct Buffer {
  int size;
  std::vector<Color> color;
  std::vector<double> depth;
  explicit Buffer(int n) : size(n), color(n * n, kWhite), depth(n * n, std::numeric_limits<double>::infinity()) {}
};

struct Projector {
  P3 eye, right, up, forward;
  double scale, centre;  // pixels per unit of tan(angle), the panel's centre
  Projector(const PictureCamera& c, int size) : eye(c.eye) {
    forward = normalized(sub(c.target, c.eye));
    right = normalized(cross(forward, {0, 1, 0}));
    up = cross(right, forward);
    scale = 0.5 * size / std::tan(0.5 * c.fov_degrees * M_PI / 180);
    centre = 0.5 * size;
  }
  P3 operator()(const P3& p) const {  // pixel x, pixel y (down), depth
    const P3 d = sub(p, eye);
    const double z = dot(d, forward);
    return {centre + scale * dot(d, right) / z, centre - scale * dot(d, up) / z, z};
  }
};

// Diffuse light from `light_direction` (a unit vector towards the light) on whichever side of the
// triangle faces the camera.
Color shade(const P3& normal, const P3& to_eye, const P3& light_direction, bool rigid) {
  const bool front = dot(normal, to_eye) >= 0;
  const P3 n = front ? normal : P3{-normal[0], -normal[1], -normal[2]};
  const double light = 0.3 + 0.7 * std::max(0.0, dot(n, light_direction));
  const Color& base = rigid ? kRigid : front ? kFront : kBack;
  const auto f = static_cast<float>(std::min(light, 1.0));
  return {base.r * f, base.g * f, base.b * f};
}

void rasterize(Buffer& buffer, const P3& a, const P3& b, const P3& c, const Color& color) {
  if (a[2] <= 0 || b[2] <= 0 || c[2] <= 0) return;  // behind the camera
  const double area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  if (std::abs(area) < 1e-12) return;
  const int x0 = std::max(0, static_cast<int>(std::floor(std::min({a[0], b[0], c[0]})))),
            x1 = std::min(buffer.size - 1, static_cast<int>(std::ceil(std::max({a[0], b[0], c[0]})))),
            y0 = std::max(0, static_cast<int>(std::floor(std::min({a[1], b[1], c[1]})))),
            y1 = std::min(buffer.size - 1, static_cast<int>(std::ceil(std::max({a[1], b[1], c[1]}))));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const double px = x + 0.5, py = y + 0.5;
      const double wa = ((b[0] - px) * (c[1] - py) - (b[1] - py) * (c[0] - px)) / area,
                   wb = ((c[0] - px) * (a[1] - py) - (c[1] - py) * (a[0] - px)) / area, wc = 1 - wa - wb;
      if (wa < 0 || wb < 0 || wc < 0) continue;
      const double z = wa * a[2] + wb * b[2] + wc * c[2];
      double& depth = buffer.depth[y * buffer.size + x];
      if (z < depth) depth = z, buffer.color[y * buffer.size + x] = color;
    }
}

Buffer render(const MeshPicture& mesh, const PictureCamera& camera, int size) {
  Buffer buffer(size);
  const Projector project(camera, size);
  // A headlight, a little above the viewer: every visible face is lit, folds by their angle to it.
  const P3 light = normalized(P3{0.3 * project.up[0] - project.forward[0], 0.3 * project.up[1] - project.forward[1], 0.3 * project.up[2] - project.forward[2]});
  const auto vertex = [&](int i) { return P3{mesh.positions[3 * i], mesh.positions[3 * i + 1], mesh.positions[3 * i + 2]}; };
  for (size_t t = 0; t + 2 < mesh.triangles.size(); t += 3) {
    const P3 a = vertex(mesh.triangles[t]), b = vertex(mesh.triangles[t + 1]), c = vertex(mesh.triangles[t + 2]);
    const P3 normal = normalized(cross(sub(b, a), sub(c, a))), to_eye = sub(camera.eye, a);
    rasterize(buffer, project(a), project(b), project(c), shade(normal, to_eye, light, t / 3 >= mesh.first_rigid));
  }
  return buffer;
}

// The camera looking the same way, moved so that every mesh's bounding sphere fills the panel.
PictureCamera framed(const PictureCamera& camera, const std::vector<MeshPicture>& meshes) {
  P3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  for (const MeshPicture& m : meshes)
    for (size_t i = 0; i + 2 < m.positions.size(); i += 3)
      for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], m.positions[i + c]), hi[c] = std::max(hi[c], m.positions[i + c]);
  if (!(lo[0] <= hi[0])) return camera;  // nothing to frame
  const P3 centre{0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])}, forward = normalized(sub(camera.target, camera.eye));
  const double radius = 0.5 * std::sqrt(dot(sub(hi, lo), sub(hi, lo))), distance = 1.05 * radius / std::sin(0.5 * camera.fov_degrees * M_PI / 180);
  PictureCamera c = camera;
  c.target = centre;
  for (int i = 0; i < 3; ++i) c.eye[i] = centre[i] - distance * forward[i];
  return c;
}

}  // namespace

Image renderMeshes(const std::vector<MeshPicture>& meshes, const PictureCamera& camera, const std::string& heading, int panel_size) {
  constexpr int kSamples = 2;  // per pixel and axis
  const int top = static_cast<int>(std::lround(headingHeight(!heading.empty()))), label_height = 28;
  Canvas canvas(panel_size * static_cast<int>(meshes.size()), top + label_height + panel_size);
  if (!heading.empty()) canvas.text(10, 8, heading, kText, Typography::heading);
  for (size_t m = 0; m < meshes.size(); ++m) {
    const int left = panel_size * static_cast<int>(m);
    canvas.text(left + 0.5 * (panel_size - Canvas::textWidth(meshes[m].label, Typography::label)), top + 6, meshes[m].label, kText, Typography::label);
    const Buffer buffer = render(meshes[m], framed(camera, meshes), kSamples * panel_size);
    for (int y = 0; y < panel_size; ++y)
      for (int x = 0; x < panel_size; ++x) {
        Color sum{0, 0, 0};
        for (int sy = 0; sy < kSamples; ++sy)
          for (int sx = 0; sx < kSamples; ++sx) {
            const Color& c = buffer.color[(kSamples * y + sy) * buffer.size + kSamples * x + sx];
            sum = {sum.r + c.r, sum.g + c.g, sum.b + c.b};
          }
        const float n = kSamples * kSamples;
        canvas.blend(left + x, top + label_height + y, {sum.r / n, sum.g / n, sum.b / n}, 1.0);
      }
    if (m > 0) canvas.line(left, top, left, top + label_height + panel_size, kGrid, 1.0);
  }
  return canvas.take();
}

}  // namespace qnsim::plot
