#include "render/gl_buffers.h"

#include <glad/gl.h>

namespace qnsim::render {

MeshBuffers::MeshBuffers() {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(3, buffers_);
  glGenBuffers(1, &index_buffer_);
  glBindVertexArray(vao_);
  for (unsigned slot = 0; slot < 3; ++slot) {
    glBindBuffer(GL_ARRAY_BUFFER, buffers_[slot]);
    glVertexAttribPointer(slot, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  }
  glEnableVertexAttribArray(0);
  glVertexAttrib3f(1, 0.0f, 1.0f, 0.0f);  // defaults while no buffer is given
  glVertexAttrib3f(2, 0.8f, 0.8f, 0.8f);
  glBindVertexArray(0);
}

MeshBuffers::~MeshBuffers() {
  glDeleteBuffers(3, buffers_);
  glDeleteBuffers(1, &index_buffer_);
  glDeleteVertexArrays(1, &vao_);
}

void MeshBuffers::upload(int slot, const std::vector<float>& data) {
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, buffers_[slot]);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(float)), data.data(), GL_STREAM_DRAW);
  glEnableVertexAttribArray(slot);
  glBindVertexArray(0);
}

void MeshBuffers::setPositions(const std::vector<float>& xyz) {
  upload(0, xyz);
  vertices_ = static_cast<int>(xyz.size() / 3);
}
void MeshBuffers::setNormals(const std::vector<float>& xyz) { upload(1, xyz); }
void MeshBuffers::setColors(const std::vector<float>& rgb) { upload(2, rgb); }

void MeshBuffers::setIndices(const std::vector<unsigned>& indices) {
  glBindVertexArray(vao_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, index_buffer_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(unsigned)), indices.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
  indices_ = static_cast<int>(indices.size());
}

void MeshBuffers::drawTriangles() const {
  glBindVertexArray(vao_);
  glDrawElements(GL_TRIANGLES, indices_, GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
}

void MeshBuffers::drawArrays(unsigned mode) const {
  glBindVertexArray(vao_);
  glDrawArrays(mode, 0, vertices_);
  glBindVertexArray(0);
}

}  // namespace qnsim::render
