#version 330 core
uniform vec4 u_color;  // already gamma encoded
out vec4 o_color;
void main() { o_color = u_color; }
