#include "tools/assets/models.h"

namespace qnsim::assets {

Sdf squirrelTeeth() {
  // Two flat incisors hanging below the tip of the muzzle, with a gap between them wide enough for
  // two triangles (a narrower slot folds over when remeshed).
  const Mat3 tilt = rotation(Vec3::UnitX(), -0.12);
  return mirroredX(roundBox(Vec3(0.0105, 0.038, 0.094), tilt, Vec3(0.0080, 0.019, 0.0045), 0.003));
}

Sdf squirrelHead() {
  const Sdf skull = ellipsoid(Vec3(0, 0.118, -0.008), Vec3(0.080, 0.077, 0.080));
  const Sdf cheeks = mirroredX(ellipsoid(Vec3(0.050, 0.072, 0.035), Vec3(0.048, 0.044, 0.044)));
  const Sdf muzzle = ellipsoid(Vec3(0, 0.078, 0.075), Vec3(0.034, 0.030, 0.040));
  const Sdf nose = ellipsoid(Vec3(0, 0.094, 0.112), Vec3(0.015, 0.011, 0.010));
  const Sdf eyes = mirroredX(ellipsoid(Vec3(0.037, 0.132, 0.056), Vec3(0.018, 0.021, 0.016)));
  // Ears: rounded, flattened leaves leaning outwards, each with a pointed tuft on top.
  const Mat3 lean = rotation(Vec3::UnitZ(), -0.30) * rotation(Vec3::UnitX(), -0.20);
  const Vec3 ear_centre(0.052, 0.190, -0.028);
  const Sdf ear_leaf = orientedEllipsoid(ear_centre, lean, Vec3(0.027, 0.038, 0.011));
  const Vec3 tuft_base = ear_centre + lean * Vec3(0, 0.026, 0);
  const Sdf ear_tuft = roundCone(tuft_base, tuft_base + lean * Vec3(0, 0.034, -0.004), 0.011, 0.0025);
  const Sdf ears = mirroredX(smoothUnion({ear_leaf, ear_tuft}, 0.008));
  const Sdf head = smoothUnion({skull, cheeks, muzzle, ears}, 0.018);
  return smoothUnion({head, nose, eyes, squirrelTeeth()}, 0.004);
}

Sdf hippo() {
  const Sdf body = ellipsoid(Vec3(-0.04, 0.37, 0), Vec3(0.40, 0.23, 0.25));
  const Sdf neck = ellipsoid(Vec3(0.26, 0.42, 0), Vec3(0.14, 0.16, 0.20));
  const Sdf head = ellipsoid(Vec3(0.42, 0.47, 0), Vec3(0.17, 0.14, 0.17));
  // The snout: a big rounded block, wider than the head, as hippos have.
  const Sdf snout = roundBox(Vec3(0.58, 0.38, 0), Mat3::Identity(), Vec3(0.12, 0.11, 0.18), 0.08);
  const Sdf tail = roundCone(Vec3(-0.42, 0.42, 0), Vec3(-0.48, 0.38, 0), 0.025, 0.012);
  std::vector<Sdf> parts = {body, neck, head, snout, tail};
  for (double x : {-0.26, 0.18})
    parts.push_back(mirroredZ(roundCone(Vec3(x, 0.075, 0.14), Vec3(x, 0.32, 0.14), 0.075, 0.09)));
  const Sdf nostrils = mirroredZ(sphere(Vec3(0.665, 0.475, 0.07), 0.035));
  const Sdf eyes = mirroredZ(sphere(Vec3(0.45, 0.59, 0.08), 0.036));
  const Sdf ears = mirroredZ(ellipsoid(Vec3(0.33, 0.615, 0.10), Vec3(0.030, 0.045, 0.032)));
  return smoothUnion({smoothUnion(parts, 0.05), nostrils, eyes, ears}, 0.02);
}

}  // namespace qnsim::assets
