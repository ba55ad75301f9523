#version 330 core
// Highlighted vertices (handles, selection, hover) as round screen-space dots.
layout(location = 0) in vec3 a_position;
layout(location = 2) in vec3 a_color;
uniform mat4 u_view_projection;
uniform float u_point_size;
out vec3 v_color;
void main() {
  v_color = a_color;
  gl_Position = u_view_projection * vec4(a_position, 1.0);
  gl_Position.z -= 0.002 * gl_Position.w;  // drawn just in front of the surface they sit on
  gl_PointSize = u_point_size;
}
