#include <glad/gl.h>
#include <stb_image_write.h>

#include <string>
#include <vector>

#include "core/common/files.h"
#include "qnsim/error.h"
#include "render/renderer.h"

namespace qnsim::render {

void saveFramebufferPng(const std::string& path, int x, int y, int width, int height) {
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x, y, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  stbi_flip_vertically_on_write(1);  // GL rows start at the bottom
  std::string png;
  const auto append = [](void* out, void* data, int size) { static_cast<std::string*>(out)->append(static_cast<char*>(data), size); };
  const int ok = stbi_write_png_to_func(append, &png, width, height, 3, pixels.data(), width * 3);
  stbi_flip_vertically_on_write(0);
  if (!ok) throw error(path, ": cannot encode the screenshot");
  writeFileBytes(path, png);  // atomically
}

}  // namespace qnsim::render
