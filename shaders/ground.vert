#version 330 core
// A large square on the ground plane; the grid is drawn procedurally in the fragment shader.
layout(location = 0) in vec3 a_position;
uniform mat4 u_view_projection;
out vec3 v_position;
void main() {
  v_position = a_position;
  gl_Position = u_view_projection * vec4(a_position, 1.0);
}
