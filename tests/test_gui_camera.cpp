// The sandbox's orbit camera: projection and rays agree, framing keeps the model in view, controls
// move the camera as documented, and a resize (new aspect) keeps picking consistent.
#include <gtest/gtest.h>

#include "view/camera.h"

namespace qnsim::view {
namespace {

const Vec2f kViewport(800, 600);

TEST(GuiCamera, TargetProjectsToTheCentreAndTheCentreRayHitsIt) {
  OrbitCamera c;
  c.lookAt(Vec3f(1, 2, 3), Vec3f(0.5f, 0.2f, -0.1f));
  EXPECT_NEAR((c.eye() - Vec3f(1, 2, 3)).norm(), 0.0f, 1e-5f);
  Vec2f pixel;
  ASSERT_TRUE(c.project(c.target, kViewport, pixel));
  EXPECT_NEAR(pixel.x(), 400.0f, 1e-3f);
  EXPECT_NEAR(pixel.y(), 300.0f, 1e-3f);
  const Ray ray = c.ray(Vec2f(400, 300), kViewport);
  EXPECT_NEAR((ray.origin + c.distance * ray.direction - c.target).norm(), 0.0f, 1e-5f);
}

TEST(GuiCamera, RayAndProjectionAreInversesAtEveryPixelAndAspect) {
  OrbitCamera c;
  c.yaw = 0.7f;
  c.pitch = -0.4f;
  for (const Vec2f& viewport : {Vec2f(800, 600), Vec2f(300, 900), Vec2f(1600, 200)})  // resizes
    for (const Vec2f& pixel : {Vec2f(0, 0), Vec2f(17, 123), Vec2f(viewport - Vec2f(1, 1))}) {
      const Ray ray = c.ray(pixel, viewport);
      EXPECT_NEAR(ray.direction.norm(), 1.0f, 1e-5f);
      Vec2f back;
      ASSERT_TRUE(c.project(ray.origin + 2.5f * ray.direction, viewport, back));
      EXPECT_NEAR((back - pixel).norm(), 0.0f, 2e-2f) << viewport.transpose() << " / " << pixel.transpose();
    }
}

TEST(GuiCamera, PointsBehindTheEyeDoNotProject) {
  OrbitCamera c;
  Vec2f pixel;
  EXPECT_FALSE(c.project(c.eye() - c.forward(), kViewport, pixel));
}

TEST(GuiCamera, FrameKeepsEveryCornerOfTheBoxInView) {
  OrbitCamera c;
  c.yaw = 2.0f;
  c.pitch = 0.6f;
  const Vec3f lo(-0.3f, 0.0f, -1.0f), hi(2.0f, 0.5f, 0.2f);
  for (const Vec2f& viewport : {Vec2f(800, 600), Vec2f(300, 900)}) {
    c.frame(lo, hi, viewport.x() / viewport.y());
    for (int corner = 0; corner < 8; ++corner) {
      const Vec3f p((corner & 1) ? hi.x() : lo.x(), (corner & 2) ? hi.y() : lo.y(), (corner & 4) ? hi.z() : lo.z());
      Vec2f pixel;
      ASSERT_TRUE(c.project(p, viewport, pixel));
      EXPECT_TRUE(pixel.x() >= 0 && pixel.y() >= 0 && pixel.x() <= viewport.x() && pixel.y() <= viewport.y()) << pixel.transpose();
    }
  }
}

TEST(GuiCamera, OrbitPanZoomMoveAsDocumented) {
  OrbitCamera c;
  const float yaw = c.yaw, distance = c.distance;
  c.orbit(100, 0);
  EXPECT_GT(c.yaw, yaw);
  c.orbit(0, 1e6f);
  EXPECT_LT(c.pitch, 1.56f);  // clamped below the pole: up stays defined
  EXPECT_TRUE(c.view().allFinite());
  c.zoom(1);
  EXPECT_NEAR(c.distance, 0.9f * distance, 1e-5f);
  const Vec3f target = c.target;
  Vec2f before;
  c.project(target, kViewport, before);
  c.pan(50, 0, kViewport.y());
  Vec2f after;
  c.project(target, kViewport, after);  // the old target follows the mouse to the right
  EXPECT_NEAR(after.x() - before.x(), 50.0f, 0.5f);
  EXPECT_NEAR(after.y(), before.y(), 0.5f);
}

}  // namespace
}  // namespace qnsim::view
