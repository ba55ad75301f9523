// Exports (qnsim/export.h): the fields of a .vtu are the simulation's, an OBJ frame reads back as the drawn
// surface, and a .glb keeps the glTF validator's rules (chunk and buffer lengths, alignment, accessor bounds)
// and reads back with tinygltf into the simulated positions. python/tests/test_export.py reads the .vtu files
// with meshio.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/common/files.h"
#include "core/export/drawn_surfaces.h"
#include "core/mesh/mesh_io.h"
#include "qnsim/error.h"
#include "qnsim/export.h"
#include "qnsim/scene.h"
#include "qnsim/simulation.h"
#include "tests/test_util.h"

#if QNSIM_HAVE_TINYGLTF
#include <tiny_gltf.h>
#endif

namespace qnsim {
namespace {

namespace fs = std::filesystem;

// A 4 x 2 x 2 box dropped on a ground plane, with two material regions, and a cloth over it.
const char* kScene = R"({"version": 1, "frames": 3, "time_step": 0.02,
  "bodies": [
    {"name": "box", "shape": {"type": "box", "size": [0.4, 0.2, 0.2], "cells": [4, 2, 2]}, "translate": [0, 0.25, 0],
     "velocity": [0.5, 0, 0],
     "materials": [{"name": "soft", "model": "neo_hookean", "mu": 2e4, "lambda": 5e4},
                   {"name": "hard", "model": "corotated", "mu": 1e5, "lambda": 1e5,
                    "select": {"box": {"min": [0, -1, -1], "max": [1, 1, 1]}}}]},
    {"name": "sheet", "shape": {"type": "cloth", "size": [0.5, 0.5], "vertices": [6, 6]}, "translate": [0, 0.5, 0],
     "materials": [{"region": "stretch", "model": "spring", "k": 500}, {"region": "bend", "model": "spring", "k": 5}]}],
  "colliders": [{"type": "plane"}]})";

Scene scene() { return parseScene(kScene, test::scratchDir("export_scene") / "scene.json"); }

std::string slurp(const fs::path& path) { return readFileBytes(path); }

TEST(Export, FieldsAreTheSimulations) {
  Simulation sim(scene());
  sim.step();
  sim.step();
  const FrameFields f = frameFields(sim);
  const Model& m = sim.model();
  ASSERT_EQ(f.points.rows(), m.vertexCount());
  EXPECT_EQ(flatten(f.points), sim.positions());
  EXPECT_EQ(flatten(f.velocity), sim.velocities());
  EXPECT_EQ(flatten(f.displacement), sim.positions() - m.rest);
  // Every tet, then the cloth's 2 * 5 * 5 triangles.
  const int tets = m.tets.size(), triangles = 50;
  ASSERT_EQ(static_cast<int>(f.cell_type.size()), tets + triangles);
  ASSERT_EQ(static_cast<int>(f.offsets.size()), tets + triangles);
  EXPECT_EQ(f.offsets.back(), static_cast<int>(f.connectivity.size()));
  std::set<int> regions;
  for (int c = 0; c < tets; ++c) {
    ASSERT_EQ(f.cell_type[c], 10);
    const Eigen::Vector4i& t = m.tets.vertices[f.element[c]];
    for (int k = 0; k < 4; ++k) EXPECT_EQ(f.connectivity[4 * c + k], t[k]);
    const Mat3 F = m.tets.deformationGradient(sim.positions(), f.element[c]);
    EXPECT_DOUBLE_EQ(f.det_f[c], F.determinant());
    Mat3 P;
    EXPECT_DOUBLE_EQ(f.energy_density[c], m.solid(m.tets.region[f.element[c]]).energyAndStress(F, &P));
    EXPECT_TRUE(f.stress[c].isApprox(P));
    EXPECT_GE(f.energy_density[c], -1e-9);  // zero at rest, up to round-off
    EXPECT_EQ(f.region[c], m.tets.region[f.element[c]]);
    EXPECT_EQ(f.body[c], 0);
    regions.insert(f.region[c]);
  }
  EXPECT_EQ(regions.size(), 2u) << "both materials of the box appear";
  for (int c = tets; c < tets + triangles; ++c) {
    EXPECT_EQ(f.cell_type[c], 5);
    EXPECT_EQ(f.body[c], 1);
    EXPECT_TRUE(std::isnan(f.det_f[c]));
  }
  // The ground plane is y = 0: a vertex's contact distance is its height.
  ASSERT_EQ(static_cast<int>(f.contact_distance.size()), m.vertexCount());
  for (int v = 0; v < m.vertexCount(); ++v) EXPECT_NEAR(f.contact_distance[v], f.points(v, 1), 1e-12);
}

TEST(Export, ObjFrameReadsBackAsTheDrawnSurfaces) {
  Simulation sim(scene());
  sim.step();
  const fs::path path = test::scratchDir("export_obj") / "frame.obj";
  writeObj(path, sim);
  const std::string text = slurp(path);
  EXPECT_NE(text.find("o box\n"), std::string::npos);
  EXPECT_NE(text.find("o sheet\n"), std::string::npos);
  EXPECT_NE(text.find("vn "), std::string::npos);
  const std::vector<DrawnSurface> surfaces = drawnSurfaces(sim.model());
  ASSERT_EQ(surfaces.size(), 2u);
  const SurfaceMesh read = readSurfaceMesh(path);  // the project's own OBJ reader (v/vt/vn faces)
  MatX3 P;
  Eigen::Index row = 0, faces = 0;
  for (const DrawnSurface& s : surfaces) {
    drawnPositions(s, sim.positions(), P);
    for (Eigen::Index v = 0; v < P.rows(); ++v, ++row)
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(read.V(row, k), P(v, k), 1e-6 * (1 + std::abs(P(v, k))));
    faces += s.F.rows();
  }
  EXPECT_EQ(read.V.rows(), row);
  EXPECT_EQ(read.F.rows(), faces);
  // Normals: unit length and outward on the box's top (+y) face.
  MatX3 N;
  drawnPositions(surfaces[0], sim.positions(), P);
  vertexNormals(P, surfaces[0].F, N);
  const Eigen::Index top = [&] {
    Eigen::Index best = 0;
    P.col(1).maxCoeff(&best);
    return best;
  }();
  EXPECT_NEAR(N.row(top).norm(), 1.0, 1e-12);
  EXPECT_GT(N(top, 1), 0.3);
}

TEST(Export, ExporterWritesEveryNthFrameAtomically) {
  const fs::path dir = test::scratchDir("export_every") / "out";  // made by the exporter
  Simulation sim(scene());
  Exporter exporter(dir, ExportFormat::Vtu, 2);
  EXPECT_TRUE(exporter.add(sim));
  for (int f = 1; f <= 5; ++f) {
    sim.step();
    EXPECT_EQ(exporter.add(sim), f % 2 == 0);
  }
  exporter.finish();
  EXPECT_EQ(exporter.exportedFrames(), 3);
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"frame_00000.vtu", "frame_00002.vtu", "frame_00004.vtu", "frames.pvd"}));
  const std::string pvd = slurp(dir / "frames.pvd");
  EXPECT_NE(pvd.find("timestep=\"0.08\" group=\"\" part=\"0\" file=\"frame_00004.vtu\""), std::string::npos) << pvd;
  EXPECT_THROW(Exporter(dir, ExportFormat::Obj, 0), Error);
  EXPECT_THROW(exportFormat("fbx"), Error);
  EXPECT_EQ(exportFormat("glb"), ExportFormat::Glb);
}

// A .glb's two chunks and its JSON, checked against the rules of the glTF validator that a writer can
// break: lengths, alignment, accessor ranges and bounds, the animation's counts.
struct Glb {
  nlohmann::json json;
  std::string bin;
};

std::uint32_t u32(const std::string& bytes, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

Glb parseGlb(const std::string& bytes) {
  Glb glb;
  EXPECT_GE(bytes.size(), 28u);
  EXPECT_EQ(u32(bytes, 0), 0x46546C67u);
  EXPECT_EQ(u32(bytes, 4), 2u);
  EXPECT_EQ(u32(bytes, 8), bytes.size()) << "the header's length is the file's";
  const std::uint32_t json_length = u32(bytes, 12);
  EXPECT_EQ(u32(bytes, 16), 0x4E4F534Au);
  EXPECT_EQ(json_length % 4, 0u);
  glb.json = nlohmann::json::parse(bytes.substr(20, json_length));
  const std::size_t bin_at = 20 + json_length;
  const std::uint32_t bin_length = u32(bytes, bin_at);
  EXPECT_EQ(u32(bytes, bin_at + 4), 0x004E4942u);
  EXPECT_EQ(bin_length % 4, 0u);
  EXPECT_EQ(bin_at + 8 + bin_length, bytes.size());
  glb.bin = bytes.substr(bin_at + 8, bin_length);
  return glb;
}

int components(const std::string& type) { return type == "SCALAR" ? 1 : type == "VEC2" ? 2 : type == "VEC3" ? 3 : 4; }

std::vector<float> accessorFloats(const Glb& glb, int index) {
  const auto& a = glb.json["accessors"][index];
  const auto& view = glb.json["bufferViews"][a["bufferView"].get<int>()];
  const std::size_t offset = view["byteOffset"].get<std::size_t>() + a.value("byteOffset", std::size_t(0));
  std::vector<float> out(a["count"].get<std::size_t>() * components(a["type"]));
  std::memcpy(out.data(), glb.bin.data() + offset, out.size() * 4);
  return out;
}

void checkValidatorRules(const Glb& glb) {
  const auto& j = glb.json;
  EXPECT_EQ(j["asset"]["version"], "2.0");
  const std::size_t byte_length = j["buffers"][0]["byteLength"];
  EXPECT_LE(byte_length, glb.bin.size());
  EXPECT_GE(byte_length + 3, glb.bin.size()) << "the BIN chunk pads the buffer by at most 3 bytes";
  for (const auto& view : j["bufferViews"]) {
    EXPECT_LE(view["byteOffset"].get<std::size_t>() + view["byteLength"].get<std::size_t>(), byte_length);
    EXPECT_EQ(view["byteOffset"].get<std::size_t>() % 4, 0u);
  }
  for (int i = 0; i < static_cast<int>(j["accessors"].size()); ++i) {
    const auto& a = j["accessors"][i];
    const auto& view = j["bufferViews"][a["bufferView"].get<int>()];
    const std::size_t element = 4 * components(a["type"]);  // float and uint32 components only
    EXPECT_EQ(a.value("byteOffset", 0) % 4, 0);
    EXPECT_LE(a.value("byteOffset", std::size_t(0)) + a["count"].get<std::size_t>() * element, view["byteLength"].get<std::size_t>());
    if (a.contains("min") && a["componentType"] == 5126) {
      const std::vector<float> data = accessorFloats(glb, i);
      const int n = components(a["type"]);
      for (int c = 0; c < n; ++c) {
        float lo = INFINITY, hi = -INFINITY;
        for (std::size_t k = c; k < data.size(); k += n) lo = std::min(lo, data[k]), hi = std::max(hi, data[k]);
        EXPECT_EQ(static_cast<float>(a["min"][c].get<double>()), lo) << "accessor " << i;
        EXPECT_EQ(static_cast<float>(a["max"][c].get<double>()), hi) << "accessor " << i;
      }
    }
  }
  for (const auto& mesh : j["meshes"])
    for (const auto& p : mesh["primitives"]) {
      EXPECT_TRUE(j["accessors"][p["attributes"]["POSITION"].get<int>()].contains("min")) << "POSITION needs min and max";
      const std::vector<float> normals = accessorFloats(glb, p["attributes"]["NORMAL"]);
      for (std::size_t i = 0; i + 2 < normals.size(); i += 3)
        EXPECT_NEAR(normals[i] * normals[i] + normals[i + 1] * normals[i + 1] + normals[i + 2] * normals[i + 2], 1.0f, 1e-5f) << "NORMAL of unit length";
      const std::size_t vertices = j["accessors"][p["attributes"]["POSITION"].get<int>()]["count"];
      for (const auto& t : p.value("targets", nlohmann::json::array())) {
        EXPECT_TRUE(j["accessors"][t["POSITION"].get<int>()].contains("min")) << "a morph POSITION needs min and max";
        EXPECT_EQ(j["accessors"][t["POSITION"].get<int>()]["count"], vertices);
      }
      EXPECT_EQ(p["targets"].size(), mesh["weights"].size());
      const std::vector<float> indices = accessorFloats(glb, p["indices"]);  // as bytes; checked as uint32 below
      std::vector<std::uint32_t> index(indices.size());
      std::memcpy(index.data(), indices.data(), index.size() * 4);
      for (std::uint32_t v : index) EXPECT_LT(v, vertices);
    }
  for (const auto& animation : j["animations"])
    for (const auto& s : animation["samplers"]) {
      const auto& input = j["accessors"][s["input"].get<int>()];
      EXPECT_TRUE(input.contains("min") && input.contains("max")) << "an animation input needs min and max";
      const std::vector<float> times = accessorFloats(glb, s["input"]);
      for (std::size_t k = 1; k < times.size(); ++k) EXPECT_GT(times[k], times[k - 1]);
      const std::size_t targets = j["meshes"][0]["weights"].size();
      EXPECT_EQ(j["accessors"][s["output"].get<int>()]["count"].get<std::size_t>(), times.size() * targets);
    }
}

TEST(Export, GlbKeepsTheValidatorRulesAndHoldsEveryFrame) {
  const fs::path dir = test::scratchDir("export_glb");
  Simulation sim(scene());
  Exporter exporter(dir, ExportFormat::Glb);
  std::vector<VecX> frames{sim.positions()};
  exporter.add(sim);
  for (int f = 0; f < 4; ++f) {
    sim.step();
    exporter.add(sim);
    frames.push_back(sim.positions());
  }
  ASSERT_EQ(exporter.finish().size(), 1u);
  EXPECT_EQ(exporter.warning(), "");
  const Glb glb = parseGlb(slurp(dir / "animation.glb"));
  checkValidatorRules(glb);
  const auto& j = glb.json;
  ASSERT_EQ(j["meshes"].size(), 2u);
  EXPECT_EQ(j["nodes"][0]["name"], "box");
  EXPECT_EQ(j["meshes"][0]["primitives"][0]["targets"].size(), 4u);
  EXPECT_EQ(j["meshes"][0]["extras"]["targetNames"][3], "frame 4");
  // Base plus target k is frame k + 1's surface.
  const std::vector<DrawnSurface> surfaces = drawnSurfaces(sim.model());
  for (int m = 0; m < 2; ++m) {
    const auto& p = j["meshes"][m]["primitives"][0];
    const std::vector<float> base = accessorFloats(glb, p["attributes"]["POSITION"]);
    for (int k = 0; k <= 4; ++k) {
      MatX3 P;
      drawnPositions(surfaces[m], frames[k], P);
      std::vector<float> shape = base;
      if (k > 0) {
        const std::vector<float> delta = accessorFloats(glb, p["targets"][k - 1]["POSITION"]);
        for (std::size_t i = 0; i < shape.size(); ++i) shape[i] += delta[i];
      }
      ASSERT_EQ(shape.size(), static_cast<std::size_t>(P.size()));
      for (std::size_t i = 0; i < shape.size(); ++i) EXPECT_NEAR(shape[i], P.data()[i], 1e-6) << "mesh " << m << " frame " << k;
    }
  }
  // The weights: key k has target k - 1 at 1 and the rest at 0.
  const auto& sampler = j["animations"][0]["samplers"][0];
  const std::vector<float> weights = accessorFloats(glb, sampler["output"]);
  ASSERT_EQ(weights.size(), 5u * 4u);
  for (int key = 0; key < 5; ++key)
    for (int t = 0; t < 4; ++t) EXPECT_EQ(weights[key * 4 + t], key == t + 1 ? 1.0f : 0.0f);

#if QNSIM_HAVE_TINYGLTF
  tinygltf::Model model;
  tinygltf::TinyGLTF loader;
  std::string err, warn;
  ASSERT_TRUE(loader.LoadBinaryFromFile(&model, &err, &warn, (dir / "animation.glb").string())) << err;
  EXPECT_EQ(err, "");
  EXPECT_EQ(warn, "");
  ASSERT_EQ(model.meshes.size(), 2u);
  ASSERT_EQ(model.animations.size(), 1u);
  EXPECT_EQ(model.animations[0].channels.size(), 2u);
  EXPECT_EQ(model.animations[0].channels[0].target_path, "weights");
  const tinygltf::Primitive& prim = model.meshes[0].primitives[0];
  EXPECT_EQ(prim.mode, TINYGLTF_MODE_TRIANGLES);
  EXPECT_EQ(prim.targets.size(), 4u);
  const tinygltf::Accessor& pos = model.accessors[prim.attributes.at("POSITION")];
  EXPECT_EQ(static_cast<int>(pos.count), surfaces[0].vertexCount());
  const tinygltf::BufferView& view = model.bufferViews[pos.bufferView];
  const float* data = reinterpret_cast<const float*>(model.buffers[view.buffer].data.data() + view.byteOffset + pos.byteOffset);
  MatX3 P;
  drawnPositions(surfaces[0], frames[0], P);
  for (int i = 0; i < P.size(); ++i) EXPECT_NEAR(data[i], P.data()[i], 1e-6);
  EXPECT_EQ(model.accessors[model.animations[0].samplers[0].input].maxValues[0], static_cast<float>(4 * 0.02));
  EXPECT_EQ(model.accessors[prim.indices].componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
#else
  GTEST_SKIP() << "tinygltf not found (libtinygltf-dev): the read-back with it was skipped";
#endif
}

TEST(Export, CliExportsEachFormat) {
  const fs::path dir = test::scratchDir("export_cli");
  const fs::path scene_file = dir / "scene.json";
  std::ofstream(scene_file) << kScene;
  for (const char* format : {"obj", "vtu", "glb"}) {
    const fs::path out = dir / format;
    const std::string command = std::string(QNSIM_EXECUTABLE) + " run " + scene_file.string() + " --frames 4 --every 2 --quiet --export " +
                                out.string() + " --format " + format;
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(out)) names.insert(entry.path().filename().string());
    const std::string f = format;
    if (f == "glb")
      EXPECT_EQ(names, std::set<std::string>{"animation.glb"});
    else if (f == "obj")
      EXPECT_EQ(names, (std::set<std::string>{"frame_00000.obj", "frame_00002.obj", "frame_00004.obj"}));
    else
      EXPECT_EQ(names, (std::set<std::string>{"frame_00000.vtu", "frame_00002.vtu", "frame_00004.vtu", "frames.pvd"}));
  }
  const std::string bad = std::string(QNSIM_EXECUTABLE) + " run " + scene_file.string() + " --quiet --export " + (dir / "x").string() +
                          " --format fbx 2>/dev/null";
  EXPECT_NE(std::system(bad.c_str()), 0);
}

}  // namespace
}  // namespace qnsim
