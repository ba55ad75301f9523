#version 330 core
in float v_height;
uniform vec3 u_top;     // gamma encoded
uniform vec3 u_bottom;
out vec4 o_color;
void main() { o_color = vec4(mix(u_bottom, u_top, smoothstep(0.0, 1.0, v_height)), 1.0); }
