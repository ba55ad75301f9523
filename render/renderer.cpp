#include "render/renderer.h"

#include <glad/gl.h>

#include <cmath>

#include "render/shaders_embedded.h"
#include "view/colormap.h"

namespace qnsim::render {
namespace {

const Vec3f kKeyDirection = Vec3f(0.35f, 1.0f, 0.3f).normalized();  // towards the key light


// Flattens points onto the plane n.x = n.p0 along the direction l (towards the light), lifted a hair.
Mat4f shadowMatrix(const Vec3f& p0, const Vec3f& n, const Vec3f& l) {
  const float nl = n.dot(l), d = n.dot(p0);
  Mat4f m = Mat4f::Identity();
  m.topLeftCorner<3, 3>() -= l * n.transpose() / nl;
  m.topRightCorner<3, 1>() = d * l / nl + 1e-3f * n;
  return m;
}

}  // namespace

Renderer::Renderer() {
  using namespace shaders;
  mesh_program_ = std::make_unique<Program>(mesh_vert, mesh_frag, "mesh");
  flat_program_ = std::make_unique<Program>(flat_vert, flat_frag, "flat");
  points_program_ = std::make_unique<Program>(points_vert, points_frag, "points");
  background_program_ = std::make_unique<Program>(background_vert, background_frag, "background");
  ground_program_ = std::make_unique<Program>(ground_vert, ground_frag, "ground");
  glGenVertexArrays(1, &empty_vao_);
}

Renderer::~Renderer() { glDeleteVertexArrays(1, &empty_vao_); }

void Renderer::setSurface(const SurfaceView& view) { surface_.setIndices(view.local); }

void Renderer::setColliders(const std::vector<Collider>& colliders) {
  DrawMesh all;
  for (const Collider& c : colliders) all.append(colliderMesh(c));
  colliders_.setPositions(all.positions);
  colliders_.setNormals(all.normals);
  colliders_.setIndices(all.indices);
}

void Renderer::setScene(const std::vector<Collider>& colliders, const VecX& rest) {
  setColliders(colliders);

  Vec3f lo, hi;
  bounds(rest, lo, hi);
  const float size = std::max((hi - lo).norm(), 1e-3f);
  if (!firstPlane(colliders, plane_point_, plane_normal_)) {  // a visual floor below the model
    plane_normal_ = Vec3f::UnitY();
    plane_point_ = Vec3f(0.5f * (lo.x() + hi.x()), std::min(0.0f, lo.y() - 0.05f * size), 0.5f * (lo.z() + hi.z()));
  }
  grid_spacing_ = std::pow(10.0f, std::floor(std::log10(size / 3.0f)));
  grid_radius_ = 6.0f * size;
  point_size_ = 7.0f;
  // The ground square, centred under the model.
  const Vec3f u = plane_normal_.unitOrthogonal(), v = plane_normal_.cross(u);
  const Vec3f middle = 0.5f * (lo + hi);
  const Vec3f c = middle - plane_normal_.dot(middle - plane_point_) * plane_normal_;
  ground_center_ = c;
  std::vector<float> quad;
  for (const auto& [a, b] : {std::pair{-1.f, -1.f}, {1.f, -1.f}, {1.f, 1.f}, {-1.f, 1.f}}) {
    const Vec3f p = c + grid_radius_ * (a * u + b * v);
    quad.insert(quad.end(), {p.x(), p.y(), p.z()});
  }
  ground_.setPositions(quad);
  ground_.setIndices({0, 1, 2, 0, 2, 3});
}

void Renderer::updateSurface(const std::vector<float>& positions, const std::vector<float>& normals, const std::vector<float>& colors) {
  surface_.setPositions(positions);
  surface_.setNormals(normals);
  surface_.setColors(colors);
}

void Renderer::setPoints(const std::vector<float>& positions, const std::vector<float>& colors) {
  points_.setPositions(positions);
  points_.setColors(colors);
}

void Renderer::drawBackground() {
  background_program_->use();
  background_program_->set("u_top", Vec3f(0.36f, 0.40f, 0.46f));
  background_program_->set("u_bottom", Vec3f(0.13f, 0.14f, 0.16f));
  glDepthMask(GL_FALSE);
  glBindVertexArray(empty_vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
}

void Renderer::drawGround(const Mat4f& view_projection, const OrbitCamera& camera) {
  ground_program_->use();
  ground_program_->set("u_view_projection", view_projection);
  ground_program_->set("u_center", ground_center_);
  const Vec3f u = plane_normal_.unitOrthogonal();
  ground_program_->set("u_axis_u", u);
  ground_program_->set("u_axis_v", plane_normal_.cross(u));
  ground_program_->set("u_spacing", grid_spacing_);
  ground_program_->set("u_radius", grid_radius_);
  // Seen from below, the floor is a faint see-through grid that hides nothing.
  const bool below = plane_normal_.dot(camera.eye() - plane_point_) < 0.0f;
  ground_program_->set("u_floor", below ? Vec3f(0.25f, 0.26f, 0.28f) : Vec3f(0.50f, 0.51f, 0.52f));
  ground_program_->set("u_line", Vec3f(0.30f, 0.31f, 0.33f));
  ground_program_->set("u_opacity", below ? 0.25f : 1.0f);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (below) glDepthMask(GL_FALSE);
  ground_.drawTriangles();
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

void Renderer::drawShadow(const Mat4f& view_projection, bool colliders) {
  if (plane_normal_.dot(kKeyDirection) < 0.2f) return;  // light grazing or below the plane: no shadow
  flat_program_->use();
  flat_program_->set("u_view_projection", view_projection);
  flat_program_->set("u_model", shadowMatrix(plane_point_, plane_normal_, kKeyDirection));
  flat_program_->set("u_color", Vec4f(0.0f, 0.0f, 0.0f, 0.35f));
  // The stencil lets each pixel darken once, however many triangles land on it.
  glEnable(GL_STENCIL_TEST);
  glStencilFunc(GL_EQUAL, 0, 0xFF);
  glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  surface_.drawTriangles();
  if (colliders && colliders_.indexCount() > 0) colliders_.drawTriangles();
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
  glDisable(GL_STENCIL_TEST);
}

void Renderer::drawSurface(const Mat4f& view_projection, const OrbitCamera& camera, const ViewStyle& style) {
  mesh_program_->use();
  mesh_program_->set("u_view_projection", view_projection);
  mesh_program_->set("u_eye", camera.eye());
  mesh_program_->set("u_key_direction", kKeyDirection);
  mesh_program_->set("u_fill_direction", (-camera.right() + 0.5f * camera.up() - 0.3f * camera.forward()).normalized().eval());
  mesh_program_->set("u_alpha", 1.0f);
  mesh_program_->set("u_use_flat", 0.0f);
  surface_.drawTriangles();
  if (style.colliders && colliders_.indexCount() > 0) {
    mesh_program_->set("u_use_flat", 1.0f);
    mesh_program_->set("u_flat_color", fromSrgb(150, 158, 170));
    colliders_.drawTriangles();
  }
  if (style.wireframe) {
    flat_program_->use();
    flat_program_->set("u_view_projection", view_projection);
    flat_program_->set("u_model", Mat4f::Identity().eval());
    flat_program_->set("u_color", Vec4f(0.05f, 0.05f, 0.07f, 0.55f));
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glEnable(GL_POLYGON_OFFSET_LINE);
    glPolygonOffset(-1.0f, -1.0f);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    surface_.drawTriangles();
    glDisable(GL_BLEND);
    glDisable(GL_POLYGON_OFFSET_LINE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  }
}

void Renderer::draw(const OrbitCamera& camera, const Viewport& vp, const ViewStyle& style) {
  glViewport(vp.x, vp.y, vp.width, vp.height);
  glEnable(GL_SCISSOR_TEST);
  glScissor(vp.x, vp.y, vp.width, vp.height);
  glClearStencil(0);
  glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDisable(GL_CULL_FACE);
  glEnable(GL_MULTISAMPLE);
  drawBackground();
  const Mat4f view_projection = camera.projection(vp.aspect()) * camera.view();
  const bool above = plane_normal_.dot(camera.eye() - plane_point_) > 0.0f;
  if (style.ground) drawGround(view_projection, camera);
  if (style.ground && style.shadow && above) drawShadow(view_projection, style.colliders);
  drawSurface(view_projection, camera, style);
  if (points_.vertexCount() > 0) {
    points_program_->use();
    points_program_->set("u_view_projection", view_projection);
    points_program_->set("u_point_size", point_size_);
    glEnable(GL_PROGRAM_POINT_SIZE);
    points_.drawArrays(GL_POINTS);
  }
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
}

}  // namespace qnsim::render
