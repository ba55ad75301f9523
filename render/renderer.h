#pragma once
// The 3D view: gradient background, ground grid with the model's planar shadow, the simulated
// surfaces (smooth shaded, coloured per vertex), colliders, a wireframe overlay and highlighted
// vertices. Needs a current OpenGL 3.3 core context with glad loaded.
#include <memory>
#include <vector>

#include "render/gl_buffers.h"
#include "render/gl_program.h"
#include "view/collider_mesh.h"
#include "view/surface_view.h"

namespace qnsim::render {

struct ViewStyle {
  bool wireframe = false;
  bool ground = true;
  bool colliders = true;
  bool shadow = true;
};

struct Viewport {
  int x = 0, y = 0, width = 1, height = 1;  // framebuffer pixels, origin at the bottom left
  float aspect() const { return static_cast<float>(width) / static_cast<float>(height > 0 ? height : 1); }
};

class Renderer {
 public:
  Renderer();
  ~Renderer();

  // A new scene's colliders; `rest` places the ground grid when the scene has no ground plane.
  void setScene(const std::vector<Collider>& colliders, const VecX& rest);
  // The colliders where they are now (moved by their motion or by an edit); the ground stays.
  void setColliders(const std::vector<Collider>& colliders);
  // The surface's triangles: for a new scene, and whenever elements are removed or restored.
  void setSurface(const SurfaceView& view);
  void updateSurface(const std::vector<float>& positions, const std::vector<float>& normals, const std::vector<float>& colors);
  // Highlighted vertices: positions and colours, 3 floats each.
  void setPoints(const std::vector<float>& positions, const std::vector<float>& colors);

  void draw(const OrbitCamera& camera, const Viewport& viewport, const ViewStyle& style);

 private:
  void drawBackground();
  void drawGround(const Mat4f& view_projection, const OrbitCamera& camera);
  void drawShadow(const Mat4f& view_projection, bool colliders);
  void drawSurface(const Mat4f& view_projection, const OrbitCamera& camera, const ViewStyle& style);

  std::unique_ptr<Program> mesh_program_, flat_program_, points_program_, background_program_, ground_program_;
  MeshBuffers surface_, colliders_, ground_, points_;
  unsigned empty_vao_ = 0;
  Vec3f plane_point_ = Vec3f::Zero(), plane_normal_ = Vec3f::UnitY(), ground_center_ = Vec3f::Zero();
  float grid_spacing_ = 0.1f, grid_radius_ = 10.0f;
  float point_size_ = 7.0f;
};

// Reads the framebuffer's rectangle (bottom-left origin) and writes it as a PNG, top row first.
// Throws qnsim::Error when the file cannot be written.
void saveFramebufferPng(const std::string& path, int x, int y, int width, int height);

}  // namespace qnsim::render
