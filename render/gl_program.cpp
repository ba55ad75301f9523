#include "render/gl_program.h"

#include <glad/gl.h>

#include <vector>

#include "qnsim/error.h"

namespace qnsim::render {
namespace {

unsigned compile(GLenum stage, const char* source, const std::string& name) {
  const unsigned shader = glCreateShader(stage);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  int ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    std::vector<char> log(4096);
    glGetShaderInfoLog(shader, static_cast<int>(log.size()), nullptr, log.data());
    glDeleteShader(shader);
    throw error("shader '", name, stage == GL_VERTEX_SHADER ? ".vert" : ".frag", "' does not compile: ", log.data());
  }
  return shader;
}

}  // namespace

Program::Program(const char* vertex_source, const char* fragment_source, const std::string& name) {
  const unsigned vs = compile(GL_VERTEX_SHADER, vertex_source, name), fs = compile(GL_FRAGMENT_SHADER, fragment_source, name);
  id_ = glCreateProgram();
  glAttachShader(id_, vs);
  glAttachShader(id_, fs);
  glLinkProgram(id_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  int ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::vector<char> log(4096);
    glGetProgramInfoLog(id_, static_cast<int>(log.size()), nullptr, log.data());
    throw error("shader program '", name, "' does not link: ", log.data());
  }
}

Program::~Program() { glDeleteProgram(id_); }

void Program::use() const { glUseProgram(id_); }

int Program::location(const char* name) {
  const auto it = locations_.find(name);
  if (it != locations_.end()) return it->second;
  return locations_[name] = glGetUniformLocation(id_, name);
}

void Program::set(const char* name, float value) { glUniform1f(location(name), value); }
void Program::set(const char* name, int value) { glUniform1i(location(name), value); }
void Program::set(const char* name, const Vec3f& v) { glUniform3f(location(name), v.x(), v.y(), v.z()); }
void Program::set(const char* name, const Vec4f& v) { glUniform4f(location(name), v.x(), v.y(), v.z(), v.w()); }
void Program::set(const char* name, const Mat4f& m) { glUniformMatrix4fv(location(name), 1, GL_FALSE, m.data()); }

}  // namespace qnsim::render
