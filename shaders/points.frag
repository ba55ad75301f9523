#version 330 core
in vec3 v_color;
out vec4 o_color;
void main() {
  vec2 p = 2.0 * gl_PointCoord - 1.0;
  float r = dot(p, p);
  if (r > 1.0) discard;
  vec3 color = mix(v_color, vec3(0.05), smoothstep(0.55, 0.9, r));  // dark outline
  o_color = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}
