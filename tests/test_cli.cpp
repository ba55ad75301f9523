// The qnsim program on good and bad input: every bad input ends with one clear message naming the
// file and the line or field, and exit status 1 or 2 -- never a crash, a hang or a silent success.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "qnsim/scene.h"
#include "qnsim/version.h"
#include "tests/test_util.h"

namespace qnsim {
namespace {

struct Outcome {
  int status;  // exit status; 124 = timed out, >= 128 = killed by a signal
  std::string out, err;
};

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Outcome qnsim(const std::string& arguments) {
  const auto dir = test::scratchDir("cli");
  const std::string command = "timeout 120 " + std::string(QNSIM_EXECUTABLE) + " " + arguments + " >" + (dir / "out").string() +
                              " 2>" + (dir / "err").string();
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw), slurp(dir / "out"), slurp(dir / "err")};
}

std::filesystem::path writeFile(const std::string& name, const std::string& text) {
  const auto path = test::scratchDir("cli_input_" + name) / name;
  std::ofstream(path) << text;
  return path;
}

// Expects a clean failure whose single message mentions every one of `needles`.
void expectError(const std::string& arguments, std::initializer_list<std::string> needles) {
  const Outcome o = qnsim(arguments);
  EXPECT_TRUE(o.status == 1 || o.status == 2) << arguments << " -> status " << o.status << "\n" << o.err;
  for (const std::string& needle : needles) EXPECT_NE(o.err.find(needle), std::string::npos) << "'" << needle << "' not in: " << o.err;
  EXPECT_EQ(o.out, "") << arguments;
}

const std::string kValidScene = R"({"version": 1, "frames": 3, "bodies": [{"shape": {"type": "box", "size": [1, 1, 1], "cells": [1, 1, 1]},
  "materials": [{"model": "neo_hookean"}]}], "colliders": [{"type": "plane"}]})";

TEST(Cli, MissingAndUnreadableInputs) {
  expectError("run /no/such/scene.json", {"/no/such/scene.json", "no such file"});
  expectError("run " + test::scratchDir("folder").string(), {"is a folder"});
  // A picture dropped where a scene belongs is not read as JSON.
  expectError("run " + writeFile("picture.png", "\x89PNG\r\n\x1a\n").string(), {"picture.png: not a scene or mesh file", ".json", ".obj"});
  expectError("run", {"scene"});
  expectError("frobnicate", {"frobnicate", "run, params"});
}

TEST(Cli, MalformedSceneFilesNameTheFileAndTheField) {
  const std::string truncated = kValidScene.substr(0, 60);
  expectError("run " + writeFile("truncated.json", truncated).string(), {"truncated.json:", "JSON syntax error"});
  expectError("run " + writeFile("empty.json", "").string(), {"empty.json:1:1", "JSON syntax error"});
  std::string unknown = kValidScene;
  unknown.insert(1, R"("time_stpe": 0.01, )");
  expectError("run " + writeFile("unknown.json", unknown).string(), {"unknown.json", "/time_stpe", "did you mean 'time_step'"});
  std::string range = kValidScene;
  range.insert(1, R"("time_step": -1, )");
  expectError("run " + writeFile("range.json", range).string(), {"range.json", "/time_step", "[1e-05, 1]"});
  std::string type = kValidScene;
  type.insert(1, R"("solver": {"iterations": "ten"}, )");
  expectError("run " + writeFile("type.json", type).string(), {"type.json", "/solver/iterations", "whole number"});
  std::string field = kValidScene;
  field.replace(field.find("\"cells\""), 7, "\"cels\"");
  expectError("run " + writeFile("field.json", field).string(), {"field.json", "/bodies/0/shape/cels", "unknown field"});
  std::string material = kValidScene;
  material.replace(material.find("neo_hookean\"}"), 13, "neo_hookean\", \"mu\": -5}");
  expectError("run " + writeFile("material.json", material).string(), {"material.json", "/bodies/0/materials/0/mu", "-5 is not a number in [0, 1e+12]"});
  std::string version = kValidScene;
  version.replace(version.find("\"version\": 1"), 12, "\"version\": 7");
  expectError("run " + writeFile("version.json", version).string(), {"version.json", "/version", "version 1"});
  const std::string mesh = R"({"version": 1, "bodies": [{"mesh": "missing.mesh", "materials": [{"model": "corotated"}]}]})";
  expectError("run " + writeFile("mesh.json", mesh).string(), {"mesh.json", "/bodies/0/mesh", "missing.mesh"});
}

TEST(Cli, ASceneTooLargeForTheMachineIsRefusedWithItsEstimate) {
  const std::string huge = R"({"version": 1, "bodies": [{"shape": {"type": "box", "size": [1, 1, 1], "cells": [1000, 1000, 1000]},
    "materials": [{"model": "neo_hookean"}]}]})";
  expectError("run " + writeFile("huge.json", huge).string(), {"huge.json", "/bodies/0/shape/cells", "would need about", "memory_share"});
  expectError("run " + writeFile("huge.json", huge).string() + " --set memory_share=1", {"would need about", "100% of"});
}

// Nothing lost: a run killed while it streams its CSV leaves the file it would replace untouched (the
// lines go to a .partial file renamed into place at the end).
TEST(Cli, AKilledRunLeavesItsOutputFileAsItWas) {
  const auto dir = test::scratchDir("cli_killed");
  const auto csv = dir / "frames.csv", partial = dir / "frames.csv.partial";
  std::ofstream(csv) << "an earlier run's results\n";
  const std::string scene = (test::sourceDir() / "scenes" / "twisting_bar.json").string();
  ASSERT_EQ(std::system(("(" + std::string(QNSIM_EXECUTABLE) + " run " + scene + " --frames 100000 --quiet --frame-csv " + csv.string() +
                         " >/dev/null 2>&1 & echo $! > " + (dir / "pid").string() + ")")
                            .c_str()),
            0);
  // Kill it once it has written a few frames.
  for (int wait = 0; wait < 600 && !(std::filesystem::exists(partial) && std::filesystem::file_size(partial) > 1000); ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(std::filesystem::exists(partial)) << "the run never started writing";
  ASSERT_EQ(std::system(("kill -9 $(cat " + (dir / "pid").string() + ")").c_str()), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(slurp(csv), "an earlier run's results\n");
}

TEST(Cli, BadOverridesNameTheKey) {
  const std::string scene = writeFile("ok.json", kValidScene).string();
  expectError("run " + scene + " --set solver.iterations=many", {"solver.iterations", "'many'"});
  expectError("run " + scene + " --set solver.armijo_gamma=nan", {"solver.armijo_gamma"});
  expectError("run " + scene + " --set solver.lbfgs_window=-1", {"solver.lbfgs_window"});
  expectError("run " + scene + " --set solver.metod=qn", {"solver.metod", "did you mean 'solver.method'"});
  expectError("run " + scene + " --set solver.method=bfgs", {"solver.method", "qn|pd|newton|gd"});
  expectError("run " + scene + " --set solver.stiffness_interval=1.5,0.5", {"solver.stiffness_interval", "x_start"});
  expectError("run " + scene + " --set time_step", {"KEY=VALUE"});
  expectError("run " + scene + " --set material.nobody.mu=3", {"no material named 'nobody'"});
  expectError("run " + scene + " --frames 0", {"--frames"});
  expectError("run " + scene + " --frame-csv /no/such/dir/frames.csv", {"/no/such/dir/frames.csv", "cannot be written"});
}

// A command line tuned with --set becomes a scene file; with --frames 0 nothing is simulated.
TEST(Cli, SaveSceneWritesTheOverridesAsASceneFile) {
  const auto out = test::scratchDir("cli_save_scene") / "tuned.json";
  const Outcome o = qnsim("run scenes/twisting_bar.json --set solver.iterations=7 --set material.bar.mu=3e5 --save-scene " + out.string() +
                          " --frames 0");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("saved the scene with its overrides as " + out.string()), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("frames "), std::string::npos) << "nothing simulated: " << o.out;
  const Scene tuned = loadScene(out);
  EXPECT_EQ(tuned.settings.solver.iterations, 7);
  EXPECT_EQ(tuned.bodies[0].materials[0].material->get("mu"), 3e5);
  expectError("run scenes/twisting_bar.json --save-scene /no/such/dir/tuned.json --frames 0", {"/no/such/dir/tuned.json"});
}

TEST(Cli, BrokenMeshFilesNameTheFileAndTheLine) {
  const std::string node = "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 nan 0\n3 0 0 1\n";
  const auto dir = test::scratchDir("broken_mesh");
  std::ofstream(dir / "bad.node") << node;
  std::ofstream(dir / "bad.ele") << "1 4 0\n0 0 1 2 3\n";
  expectError("run " + (dir / "bad.node").string(), {"bad.node:4"});
  std::ofstream(dir / "flat.node") << "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 1 1 0\n";
  std::ofstream(dir / "flat.ele") << "1 4 0\n0 0 1 2 3\n";
  expectError("run " + (dir / "flat.ele").string(), {"flat.ele:2", "degenerate"});
  std::ofstream(dir / "short.ele") << "2 4 0\n0 0 1 2 3\n";
  std::ofstream(dir / "short.node") << "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n";
  expectError("run " + (dir / "short.ele").string(), {"short.ele"});
  std::ofstream(dir / "garbage.mesh") << "\x01\x02garbage\xff\n";
  expectError("run " + (dir / "garbage.mesh").string(), {"garbage.mesh"});
}

TEST(Cli, HelpParamsAndVersion) {
  for (const char* command : {"--help", "run --help", "params --help", "version --help"}) {
    const Outcome o = qnsim(command);
    EXPECT_EQ(o.status, 0) << command;
    EXPECT_NE(o.out.find("Usage"), std::string::npos) << command;
  }
  const Outcome params = qnsim("params");
  EXPECT_EQ(params.status, 0);
  for (const char* key : {"time_step", "solver.method", "solver.iterations", "solver.lbfgs_window", "solver.line_search", "solver.armijo_gamma",
                          "solver.stiffness_interval", "neo_hookean", "spline", "mu4"})
    EXPECT_NE(params.out.find(key), std::string::npos) << key;
  EXPECT_NE(qnsim("version").out.find(sparseBackend()), std::string::npos);
}

TEST(Cli, RunWritesTheDocumentedCsvFiles) {
  const auto dir = test::scratchDir("cli_csv");
  const Outcome o = qnsim("run " + writeFile("good.json", kValidScene).string() + " --frames 4 --reference --frame-csv " +
                          (dir / "f.csv").string() + " --iter-csv " + (dir / "i.csv").string());
  ASSERT_EQ(o.status, 0) << o.err;
  std::istringstream frames(slurp(dir / "f.csv")), iterations(slurp(dir / "i.csv"));
  std::string line;
  std::getline(frames, line);
  EXPECT_EQ(line,
            "frame,time,iterations,ls_trials,frame_ms,g,elastic_energy,kinetic_energy,min_det_f,inverted,active_contacts,max_penetration,"
            "self_contacts,max_self_penetration,bbox_diagonal,com_x,com_y,com_z,factorizations,reference_ms,rolled_back,torn,removed,"
            "intersections,min_distance,barrier_pairs,ccd_step,collider_lag");
  const auto cells = [](const std::string& row) {
    std::vector<std::string> out;
    std::stringstream in(row);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
    return out;
  };
  int rows = 0;
  while (std::getline(frames, line)) {
    ++rows;  // with --reference the exact solve's time is reported apart from the frame's
    const std::vector<std::string> row = cells(line);
    ASSERT_EQ(row.size(), 28u) << line;
    EXPECT_EQ(row[23], "-1") << "intersections: not checked without --check-intersections";
    EXPECT_EQ(row[12] + row[13], "00") << "self_contacts, max_self_penetration: the scene has no self-collisions";
    EXPECT_GT(std::stod(row[19]), 0.0) << "reference_ms: " << line;
    EXPECT_EQ(row[20], "0") << "rolled_back";
    EXPECT_EQ(row[21] + row[22], "00") << "torn, removed: the scene does not tear";
  }
  EXPECT_EQ(rows, 4);
  std::getline(iterations, line);
  EXPECT_EQ(line, "frame,iter,g,grad_norm,alpha,ls_trials,time_ms,rel_error,residual");
  std::getline(iterations, line);
  EXPECT_EQ(line.substr(0, 4), "1,0,");
  EXPECT_EQ(line.substr(line.size() - 3), ",1,");  // iterate 0 is x = y: relative error 1; no constraint residual for qn
  EXPECT_NE(o.out.find("rel. error"), std::string::npos);
}

// The valid scene's box starts half below its ground plane: penalties leave its 4 bottom corners in the
// ground, the barrier carries them out before its first solve and keeps them out.
TEST(Cli, CheckIntersectionsCountsEveryFrameAndSummarises) {
  const auto scene = writeFile("half_in_ground.json", kValidScene).string();
  const auto dir = test::scratchDir("cli_intersections");
  const Outcome penalty = qnsim("run " + scene + " --check-intersections --frame-csv " + (dir / "p.csv").string());
  ASSERT_EQ(penalty.status, 0) << penalty.err;
  EXPECT_NE(penalty.out.find("intersections  in 3 of 3 frames, the first at frame 1, at most 4"), std::string::npos) << penalty.out;
  std::istringstream csv(slurp(dir / "p.csv"));
  std::string line;
  std::getline(csv, line);
  std::getline(csv, line);
  EXPECT_EQ(line.substr(line.rfind(",4,") == std::string::npos ? 0 : line.rfind(",4,"), 3), ",4,") << line;
  const Outcome barrier = qnsim("run " + scene + " --check-intersections --set contact.model=barrier");
  ASSERT_EQ(barrier.status, 0) << barrier.err;
  EXPECT_NE(barrier.out.find("intersections  none"), std::string::npos) << barrier.out;
}

TEST(Cli, ExperimentRunsAFigureAndNamesTheKnownOnes) {
  const auto dir = test::scratchDir("cli_experiment");
  const Outcome o = qnsim("experiment fig14 --quick --out " + dir.string());
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("paper:"), std::string::npos);
  for (const char* ext : {".csv", ".svg", ".png"}) EXPECT_TRUE(std::filesystem::exists(dir / (std::string("fig14") + ext))) << ext;
  const Outcome unknown = qnsim("experiment fig99");
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.err.find("fig7"), std::string::npos) << unknown.err;
}

TEST(Cli, BareMeshGetsADefaultSceneOnAGroundPlane) {
  const Outcome o = qnsim("run " + (test::sourceDir() / "assets" / "sphere.mesh").string() + " --frames 40");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("sphere"), std::string::npos);
  EXPECT_NE(o.out.find("contacts"), std::string::npos);
}

// docs/cli.md covers the program: every subcommand `qnsim --help` lists has a section there, and every
// option that subcommand's --help lists is named in it.
bool names(const std::string& doc, const std::string& option) {
  for (size_t at = doc.find(option); at != std::string::npos; at = doc.find(option, at + 1)) {
    const char after = at + option.size() < doc.size() ? doc[at + option.size()] : ' ';
    if (after == '`' || after == ' ' || after == '=') return true;
  }
  return false;
}

TEST(Cli, TheReferenceDocumentsEveryCommandAndOption) {
  const std::string doc = slurp(test::sourceDir() / "docs" / "cli.md");
  const Outcome top = qnsim("--help");
  ASSERT_EQ(top.status, 0) << top.err;
  std::vector<std::string> commands;
  std::istringstream lines(top.out);
  bool listed = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first;
    if (line.rfind("Subcommands:", 0) == 0) listed = true;
    else if (listed && !line.empty() && line[0] == ' ' && words >> first) commands.push_back(first);
  }
  EXPECT_GE(commands.size(), 5u) << top.out;
  for (const std::string& command : commands) {
    EXPECT_NE(doc.find("## `qnsim " + command), std::string::npos) << "docs/cli.md has no section for qnsim " << command;
    const Outcome help = qnsim(command + " --help");
    ASSERT_EQ(help.status, 0) << help.err;
    std::istringstream options(help.out);
    for (std::string line; std::getline(options, line);) {  // "  -q,--quiet   text" or "  --script TEXT:{...}"
      const size_t start = line.find_first_not_of(' ');
      if (start == 0 || start == std::string::npos || line[start] != '-') continue;
      const std::string spec = line.substr(start, line.find("  ", start) - start);
      for (size_t at = spec.find("--"); at != std::string::npos; at = spec.find("--", at + 2)) {
        const std::string option = spec.substr(at, spec.find_first_of(" ,=", at) - at);
        if (option != "--help") {
          EXPECT_TRUE(names(doc, option)) << "docs/cli.md does not name qnsim " << command << " " << option;
        }
      }
    }
  }
}

}  // namespace
}  // namespace qnsim
