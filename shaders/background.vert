#version 330 core
// One triangle that covers the viewport; v_height goes from 0 (bottom) to 1 (top).
out float v_height;
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  v_height = 0.5 * p.y;
  gl_Position = vec4(2.0 * p - 1.0, 0.9999, 1.0);
}
