#version 330 core
// Three-light studio set-up in linear RGB: a warm key light from above (the one that casts the ground
// shadow), a cool fill from the viewer's side, a soft rim, a sky/ground hemisphere ambient and a
// little Blinn-Phong specular. Output is gamma encoded.
in vec3 v_position;
in vec3 v_normal;
in vec3 v_color;
uniform vec3 u_eye;
uniform vec3 u_key_direction;   // towards the key light
uniform vec3 u_fill_direction;  // towards the fill light (follows the camera)
uniform vec3 u_flat_color;
uniform float u_use_flat;       // 1: u_flat_color instead of the vertex colour
uniform float u_alpha;
out vec4 o_color;

void main() {
  vec3 n = normalize(v_normal);
  vec3 to_eye = normalize(u_eye - v_position);
  if (dot(n, to_eye) < 0.0) n = -n;  // cloth and open surfaces are lit from the side we see
  vec3 albedo = mix(v_color, u_flat_color, u_use_flat);
  vec3 sky = vec3(0.30, 0.33, 0.38), ground = vec3(0.12, 0.11, 0.10);
  vec3 ambient = mix(ground, sky, 0.5 + 0.5 * n.y);
  float key = max(dot(n, u_key_direction), 0.0);
  float fill = max(dot(n, u_fill_direction), 0.0);
  vec3 light = ambient + key * vec3(1.05, 0.98, 0.90) + fill * vec3(0.30, 0.34, 0.42);
  vec3 half_vector = normalize(u_key_direction + to_eye);
  float specular = 0.22 * pow(max(dot(n, half_vector), 0.0), 40.0) * step(0.0, key);
  float rim = 0.12 * pow(1.0 - max(dot(n, to_eye), 0.0), 3.0);
  vec3 color = albedo * light + vec3(specular + rim);
  o_color = vec4(pow(color, vec3(1.0 / 2.2)), u_alpha);
}
