// Resource bounds: a scene that would need more memory than the machine can give is refused
// before anything is allocated, with the estimate and the limit in a message that names the field.
#include <gtest/gtest.h>

#include <functional>

#include "core/common/memory_budget.h"
#include "core/common/timer.h"
#include "core/sim/build_model.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {

std::string boxJson(int cells) {
  const std::string c = std::to_string(cells);
  return R"({"version": 1, "bodies": [{"name": "box", "shape": {"type": "box", "size": [1, 1, 1], "cells": [)" + c + "," + c + "," + c +
         R"(]}, "materials": [{"model": "neo_hookean", "mu": 3e4, "lambda": 1e5}]}]})";
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ResourceBounds, AHugeBoxIsRefusedAtOnceWithTheEstimateAndTheLimit) {
  Timer timer;
  const std::string message = errorOf([] { parseScene(boxJson(1000), "huge.json", {"memory_share=1"}); });
  EXPECT_LT(timer.ms(), 1000.0) << "refused before the mesh was generated";
  EXPECT_NE(message.find("huge.json"), std::string::npos) << message;
  EXPECT_NE(message.find("/bodies/0/shape/cells"), std::string::npos) << message;
  EXPECT_NE(message.find("1003003001 vertices"), std::string::npos) << message;
  EXPECT_NE(message.find("would need about"), std::string::npos) << message;
  EXPECT_NE(message.find("TB"), std::string::npos) << message;
  EXPECT_NE(message.find("memory_share"), std::string::npos) << message;
  const std::string cloth = errorOf([] {
    parseScene(R"({"version": 1, "bodies": [{"shape": {"type": "cloth", "size": [1, 1], "vertices": [2000, 2000]},
      "materials": [{"region": "stretch", "model": "spring", "k": 1}, {"region": "bend", "model": "spring", "k": 1}]}]})",
               "cloth.json", {"memory_share=0.01"});
  });
  EXPECT_NE(cloth.find("/bodies/0/shape/vertices"), std::string::npos) << cloth;
}

TEST(ResourceBounds, TheEstimateGrowsWithTheCountsAndCoversWhatWasMeasured) {
  // Peaks measured with `qnsim run` (one frame, docs/reliability.md): a 40^3-cell box 496 MB, a cloth of
  // 400 x 400 vertices 587 MB. The estimate must not be below them.
  EXPECT_GE(estimateModelBytes({41.0 * 41 * 41, 5.0 * 40 * 40 * 40, 0, 0}), 496e6);
  EXPECT_GE(estimateModelBytes({0, 0, 400.0 * 400, 6.0 * 400 * 400}), 587e6);
  EXPECT_LT(estimateModelBytes({11.0 * 11 * 11, 5000, 0, 0}), 50e6) << "and stays modest for small models";
  EXPECT_GT(availableMemoryBytes(), 1e8);
  EXPECT_EQ(formatBytes(1.5e9), "1.5 GB");
}

TEST(ResourceBounds, TheShareIsASettingAppliedBeforeTheBodies) {
  const ModelSize box40{41.0 * 41 * 41, 5.0 * 40 * 40 * 40, 0, 0};
  if (estimateModelBytes(box40) <= 0.01 * availableMemoryBytes()) GTEST_SKIP() << "this machine has room for it at any share";
  EXPECT_NE(errorOf([] { parseScene(boxJson(40), "box.json", {"memory_share=0.01"}); }), "");
  Scene scene = parseScene(boxJson(40), "box.json", {"memory_share=1"});
  EXPECT_EQ(scene.bodies[0].mesh.T.rows(), 320000);
  // The whole model is checked again when it is built (meshes from files have no counts in advance).
  scene.settings.memory_share = 0.01;
  const std::string message = errorOf([&] { buildModel(scene); });
  EXPECT_NE(message.find("scene 'box'"), std::string::npos) << message;
}

}  // namespace
}  // namespace qnsim
