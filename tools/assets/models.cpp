#include "tools/assets/models.h"

namespace qnsim::assets {

Sdf squirrelTeeth() {
  // Two flat incisors hanging below the upper lip, slightly apart and tilted back at the tip.
  const Mat3 tilt = rotation(Vec3::UnitX(), -0.15);
  return mirroredX(roundBox(Vec3(0.0095, 0.040, 0.086), tilt, Vec3(0.0080, 0.020, 0.0045), 0.003));
}

Sdf squirrelHead() {
  const Sdf skull = ellipsoid(Vec3(0, 0.115, -0.005), Vec3(0.080, 0.078, 0.080));
  const Sdf cheeks = mirroredX(ellipsoid(Vec3(0.050, 0.070, 0.035), Vec3(0.048, 0.044, 0.044)));
  const Sdf muzzle = ellipsoid(Vec3(0, 0.080, 0.068), Vec3(0.036, 0.032, 0.034));
  const Sdf nose = ellipsoid(Vec3(0, 0.096, 0.100), Vec3(0.014, 0.010, 0.010));
  const Sdf eyes = mirroredX(sphere(Vec3(0.036, 0.128, 0.058), 0.014));
  // Ears: flattened ellipsoids leaning outwards, with a cone tip for the tuft.
  const Mat3 lean = rotation(Vec3::UnitZ(), -0.35) * rotation(Vec3::UnitX(), -0.15);
  const Sdf ear_leaf = orientedEllipsoid(Vec3(0.050, 0.195, -0.020), lean, Vec3(0.024, 0.046, 0.011));
  const Vec3 tip_base = Vec3(0.050, 0.195, -0.020) + lean * Vec3(0, 0.030, 0);
  const Sdf ear_tip = roundCone(tip_base, tip_base + lean * Vec3(0, 0.032, -0.004), 0.012, 0.003);
  const Sdf ears = mirroredX(smoothUnion({ear_leaf, ear_tip}, 0.008));
  const Sdf head = smoothUnion({skull, cheeks, muzzle, ears}, 0.018);
  return smoothUnion({head, nose, eyes, squirrelTeeth()}, 0.004);
}

Sdf hippo() {
  const Sdf body = ellipsoid(Vec3(-0.02, 0.37, 0), Vec3(0.40, 0.23, 0.25));
  const Sdf neck = ellipsoid(Vec3(0.28, 0.42, 0), Vec3(0.14, 0.15, 0.19));
  const Sdf head = ellipsoid(Vec3(0.42, 0.46, 0), Vec3(0.15, 0.12, 0.15));
  const Sdf snout = ellipsoid(Vec3(0.56, 0.38, 0), Vec3(0.12, 0.11, 0.17));
  const Sdf tail = roundCone(Vec3(-0.40, 0.42, 0), Vec3(-0.46, 0.38, 0), 0.025, 0.012);
  std::vector<Sdf> parts = {body, neck, head, snout, tail};
  for (double x : {-0.24, 0.20})
    parts.push_back(mirroredZ(roundCone(Vec3(x, 0.075, 0.14), Vec3(x, 0.32, 0.14), 0.075, 0.09)));
  const Sdf nostrils = mirroredZ(sphere(Vec3(0.635, 0.46, 0.07), 0.035));
  const Sdf eyes = mirroredZ(sphere(Vec3(0.44, 0.565, 0.075), 0.035));
  const Sdf ears = mirroredZ(ellipsoid(Vec3(0.34, 0.585, 0.095), Vec3(0.022, 0.040, 0.028)));
  return smoothUnion({smoothUnion(parts, 0.05), nostrils, eyes, ears}, 0.02);
}

}  // namespace qnsim::assets
