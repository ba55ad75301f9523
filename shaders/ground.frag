#version 330 core
// Anti-aliased grid lines (minor every u_spacing, major every 10) fading out with the distance from
// u_center, over a soft floor colour.
in vec3 v_position;
uniform vec3 u_center;
uniform vec3 u_axis_u;  // two unit vectors spanning the plane
uniform vec3 u_axis_v;
uniform float u_spacing;
uniform float u_radius;  // where the grid has faded out
uniform vec3 u_floor;    // gamma encoded
uniform vec3 u_line;
uniform float u_opacity;
out vec4 o_color;

float gridLine(vec2 coord) {
  vec2 d = abs(fract(coord - 0.5) - 0.5) / fwidth(coord);
  return 1.0 - min(min(d.x, d.y), 1.0);
}

void main() {
  vec3 r = v_position - u_center;
  vec2 uv = vec2(dot(v_position, u_axis_u), dot(v_position, u_axis_v)) / u_spacing;  // lines through the origin
  float minor = gridLine(uv), major = gridLine(uv / 10.0);
  float fade = 1.0 - smoothstep(0.35 * u_radius, u_radius, length(r));
  vec3 color = mix(u_floor, u_line, max(0.45 * minor, major) * fade);
  o_color = vec4(color, fade * u_opacity);
}
