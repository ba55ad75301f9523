#pragma once
// A vertex array with position (location 0), normal (1) and colour (2) buffers and optional indices.
// Buffers are re-specified on every upload (orphaning), which suits meshes that move every frame.
#include <vector>

namespace qnsim::render {

class MeshBuffers {
 public:
  MeshBuffers();
  ~MeshBuffers();
  MeshBuffers(const MeshBuffers&) = delete;
  MeshBuffers& operator=(const MeshBuffers&) = delete;

  void setPositions(const std::vector<float>& xyz);
  void setNormals(const std::vector<float>& xyz);
  void setColors(const std::vector<float>& rgb);
  void setIndices(const std::vector<unsigned>& indices);
  int vertexCount() const { return vertices_; }
  int indexCount() const { return indices_; }

  // Draws the indexed triangles, or `mode` over the vertices when there are no indices.
  void drawTriangles() const;
  void drawArrays(unsigned mode) const;

 private:
  void upload(int slot, const std::vector<float>& data);
  unsigned vao_ = 0, buffers_[3] = {0, 0, 0}, index_buffer_ = 0;
  int vertices_ = 0, indices_ = 0;
};

}  // namespace qnsim::render
