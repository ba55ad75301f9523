// Recording from the sandbox: the convergence CSV and SVG over a frame range, and OBJ frames.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "app/gui/logic/recorder.h"
#include "qnsim/error.h"
#include "tests/sim_fixtures.h"
#include "tests/test_util.h"

namespace qnsim::gui {
namespace {

RecordedFrame frame(int number, bool reference) {
  RecordedFrame f{number, {}, {}};
  for (int k = 0; k <= 4; ++k) {
    f.iterations.push_back({k, 10.0 / (k + 1), 1.0 / (k + 1), k ? 1.0 : 0.0, k ? 1 : 0, 0.5 * k, false});
    if (reference) f.rel_error.push_back(std::pow(0.1, k));
  }
  return f;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(GuiRecording, CsvHasOneRowPerIterationAndEmptyErrorsWithoutReference) {
  std::ostringstream out;
  writeConvergenceCsv(out, {frame(3, true), frame(4, false)});
  std::istringstream in(out.str());
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "frame,iteration,g,grad_norm,alpha,ls_trials,time_ms,rel_error");
  int rows = 0;
  std::string last;
  while (std::getline(in, line)) {
    ++rows;
    last = line;
  }
  EXPECT_EQ(rows, 10);
  EXPECT_EQ(last.back(), ',');  // frame 4 has no reference
}

TEST(GuiRecording, RecorderWritesCsvAndSvgAfterTheRange) {
  const auto base = test::scratchDir("gui_recording") / "run";
  ConvergenceRecorder recorder;
  recorder.start(base, 3, "Box");
  EXPECT_TRUE(recorder.active());
  EXPECT_EQ(recorder.add(frame(1, true)), "");
  EXPECT_EQ(recorder.add(frame(2, true)), "");
  const std::string written = recorder.add(frame(3, true));
  EXPECT_FALSE(recorder.active());
  EXPECT_NE(written.find("run.csv"), std::string::npos);
  const std::string svg = read(base.string() + ".svg");
  EXPECT_NE(svg.find("Box: frames 1 to 3"), std::string::npos);
  EXPECT_NE(svg.find("Relative error (Eq. 12)"), std::string::npos);
  EXPECT_NE(svg.find(">frame 2<"), std::string::npos);
  const std::string csv = read(base.string() + ".csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 16);
}

TEST(GuiRecording, StoppingEarlyWritesWhatWasRecordedAndPanelsFallBackWithoutReference) {
  ConvergenceRecorder recorder;
  recorder.start(test::scratchDir("gui_recording_early") / "early", 10, "Box");
  EXPECT_EQ(recorder.finish(), "");  // nothing yet
  recorder.start(test::scratchDir("gui_recording_early") / "early", 10, "Box");
  recorder.add(frame(1, false));
  EXPECT_NE(recorder.finish().find("early.svg"), std::string::npos);
  const auto panels = convergencePanels({frame(1, false)});
  ASSERT_EQ(panels.size(), 2u);
  EXPECT_EQ(panels[1].y_label, "g_k - min_k g_k");
  EXPECT_TRUE(panels[0].y.log);
}

TEST(GuiRecording, ObjFrameHasTheDrawnSurface) {
  const BuiltModel built = test::buildInline(test::boxSceneJson(R"({"model": "neo_hookean"})"));
  const view::SurfaceView view = view::makeSurfaceView(built.model);
  const auto path = test::scratchDir("gui_recording_obj") / "frame.obj";
  writeSurfaceObj(path, view, built.model.rest);
  const std::string obj = read(path);
  size_t v = 0, f = 0;
  std::istringstream in(obj);
  for (std::string line; std::getline(in, line);) {
    v += line.rfind("v ", 0) == 0;
    f += line.rfind("f ", 0) == 0;
  }
  EXPECT_EQ(v, 26u);
  EXPECT_EQ(f, 48u);  // 6 faces x 4 squares x 2 triangles
  EXPECT_THROW(writeSurfaceObj("/nonexistent/dir/x.obj", view, built.model.rest), Error);
}

}  // namespace
}  // namespace qnsim::gui
