#version 330 core
// Geometry in one colour: wireframe overlays and the planar ground shadow. u_model flattens the
// mesh onto the ground along the key light for the shadow (identity otherwise).
layout(location = 0) in vec3 a_position;
uniform mat4 u_view_projection;
uniform mat4 u_model;
void main() { gl_Position = u_view_projection * u_model * vec4(a_position, 1.0); }
