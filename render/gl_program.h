#pragma once
// A linked GLSL program with uniform setters (locations are looked up once and cached).
#include <string>
#include <unordered_map>

#include "view/camera.h"

namespace qnsim::render {

// The renderer draws what view/ describes and speaks its vocabulary (float vectors, camera, surface).
using namespace qnsim::view;

class Program {
 public:
  // Throws qnsim::Error with the driver's log when a stage does not compile or the program does not link.
  Program(const char* vertex_source, const char* fragment_source, const std::string& name);
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  void use() const;
  void set(const char* name, float value);
  void set(const char* name, int value);
  void set(const char* name, const Vec3f& value);
  void set(const char* name, const Vec4f& value);
  void set(const char* name, const Mat4f& value);

 private:
  int location(const char* name);
  unsigned id_ = 0;
  std::unordered_map<std::string, int> locations_;
};

}  // namespace qnsim::render
