// glTF 2.0 binary (.glb) with the motion as morph targets (docs/pipeline.md says why not a node per frame).
// Laid out as the validator wants it: every accessor 4-byte aligned in its own buffer view, POSITION
// accessors and the animation's input with exact min and max, chunks padded to 4 bytes.
#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/export/writers.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {

static_assert(std::endian::native == std::endian::little, "glTF buffers are little endian");

using json = nlohmann::json;
constexpr int kFloat = 5126, kUnsignedInt = 5125;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;

class Builder {
 public:
  json accessors = json::array(), views = json::array();
  std::string bin;

  // A buffer view of the bytes and an accessor over them; returns the accessor's index.
  template <class T>
  int add(const std::vector<T>& data, int components, const char* type, int component_type, int target, bool bounds) {
    while (bin.size() % 4 != 0) bin += '\0';
    json view = {{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", data.size() * sizeof(T)}};
    if (target) view["target"] = target;
    bin.append(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(T));
    views.push_back(view);
    json accessor = {{"bufferView", views.size() - 1}, {"componentType", component_type}, {"count", data.size() / components}, {"type", type}};
    if (bounds) {
      std::vector<double> lo(components, std::numeric_limits<double>::infinity()), hi(components, -std::numeric_limits<double>::infinity());
      for (std::size_t i = 0; i < data.size(); ++i) {
        lo[i % components] = std::min<double>(lo[i % components], data[i]);
        hi[i % components] = std::max<double>(hi[i % components], data[i]);
      }
      accessor["min"] = lo;
      accessor["max"] = hi;
    }
    accessors.push_back(accessor);
    return static_cast<int>(accessors.size() - 1);
  }
};

void appendU32(std::string& out, std::uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); }

}  // namespace

std::string glbBytes(const std::vector<GlbMesh>& meshes, const std::vector<double>& times) {
  if (times.empty()) throw Error("glTF export: no frames to write");
  Builder b;
  const int frames = static_cast<int>(times.size()), targets = frames - 1;
  json gltf = {{"asset", {{"version", "2.0"}, {"generator", "qnsim"}}}, {"scene", 0}};
  gltf["materials"] = json::array({{{"name", "qnsim"}, {"pbrMetallicRoughness", {{"baseColorFactor", {0.8, 0.8, 0.8, 1.0}}, {"metallicFactor", 0.0}, {"roughnessFactor", 0.6}}}},
                                   {{"name", "qnsim double sided"}, {"doubleSided", true},
                                    {"pbrMetallicRoughness", {{"baseColorFactor", {0.8, 0.8, 0.8, 1.0}}, {"metallicFactor", 0.0}, {"roughnessFactor", 0.6}}}}});
  json nodes = json::array(), gmeshes = json::array(), scene_nodes = json::array();
  std::vector<std::string> target_names;
  for (int k = 1; k < frames; ++k) target_names.push_back("frame " + std::to_string(k));
  for (const GlbMesh& m : meshes) {
    if (static_cast<int>(m.positions.size()) != frames || static_cast<int>(m.normals.size()) != frames)
      throw error("glTF export: mesh '", m.name, "' has ", m.positions.size(), " frames, not ", frames);
    json attributes = {{"POSITION", b.add(m.positions[0], 3, "VEC3", kFloat, kArrayBuffer, true)},
                       {"NORMAL", b.add(m.normals[0], 3, "VEC3", kFloat, kArrayBuffer, false)}};
    if (!m.uv.empty()) attributes["TEXCOORD_0"] = b.add(m.uv, 2, "VEC2", kFloat, kArrayBuffer, false);
    json primitive = {{"attributes", attributes}, {"mode", 4}, {"material", m.double_sided ? 1 : 0},
                      {"indices", b.add(m.indices, 1, "SCALAR", kUnsignedInt, kElementArrayBuffer, false)}};
    json mesh = {{"name", m.name}, {"primitives", json::array()}};
    if (targets > 0) {
      json morphs = json::array();
      std::vector<float> delta(m.positions[0].size());
      for (int k = 1; k < frames; ++k) {
        for (std::size_t i = 0; i < delta.size(); ++i) delta[i] = m.positions[k][i] - m.positions[0][i];
        const int position = b.add(delta, 3, "VEC3", kFloat, kArrayBuffer, true);  // the spec asks bounds of morph POSITIONs too
        for (std::size_t i = 0; i < delta.size(); ++i) delta[i] = m.normals[k][i] - m.normals[0][i];
        const int normal = b.add(delta, 3, "VEC3", kFloat, kArrayBuffer, false);
        morphs.push_back({{"POSITION", position}, {"NORMAL", normal}});
      }
      primitive["targets"] = morphs;
      mesh["weights"] = std::vector<double>(targets, 0.0);
      mesh["extras"] = {{"targetNames", target_names}};  // Blender names the shape keys after them
    }
    mesh["primitives"].push_back(primitive);
    gmeshes.push_back(mesh);
    nodes.push_back({{"name", m.name}, {"mesh", gmeshes.size() - 1}});
    scene_nodes.push_back(nodes.size() - 1);
  }
  if (targets > 0 && !meshes.empty()) {
    // Key k holds target k - 1 at full weight and every other at zero (key 0: the base mesh, frame 0).
    std::vector<float> input(frames), output(static_cast<std::size_t>(frames) * targets, 0.0f);
    for (int k = 0; k < frames; ++k) input[k] = static_cast<float>(times[k] - times[0]);
    for (int k = 1; k < frames; ++k) output[static_cast<std::size_t>(k) * targets + (k - 1)] = 1.0f;
    for (int k = 1; k < frames; ++k)
      if (!(input[k] > input[k - 1])) throw error("glTF export: frame times must increase (", input[k - 1], ", then ", input[k], ")");
    const int in = b.add(input, 1, "SCALAR", kFloat, 0, true), out = b.add(output, 1, "SCALAR", kFloat, 0, false);
    json samplers = json::array(), channels = json::array();
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      samplers.push_back({{"input", in}, {"output", out}, {"interpolation", "LINEAR"}});
      channels.push_back({{"sampler", n}, {"target", {{"node", n}, {"path", "weights"}}}});
    }
    gltf["animations"] = json::array({{{"name", "simulation"}, {"samplers", samplers}, {"channels", channels}}});
  }
  gltf["nodes"] = nodes;
  gltf["meshes"] = gmeshes;
  gltf["scenes"] = json::array({{{"nodes", scene_nodes}}});
  gltf["accessors"] = b.accessors;
  gltf["bufferViews"] = b.views;
  while (b.bin.size() % 4 != 0) b.bin += '\0';
  gltf["buffers"] = json::array({{{"byteLength", b.bin.size()}}});

  std::string text = gltf.dump();
  while (text.size() % 4 != 0) text += ' ';
  const std::size_t total = 12 + 8 + text.size() + 8 + b.bin.size();
  if (total > std::numeric_limits<std::uint32_t>::max()) throw error("glTF export: ", total, " bytes is more than a .glb can hold (4 GiB); export fewer frames (--every)");
  std::string out;
  out.reserve(total);
  appendU32(out, 0x46546C67);  // "glTF"
  appendU32(out, 2);
  appendU32(out, static_cast<std::uint32_t>(total));
  appendU32(out, static_cast<std::uint32_t>(text.size()));
  appendU32(out, 0x4E4F534A);  // "JSON"
  out += text;
  appendU32(out, static_cast<std::uint32_t>(b.bin.size()));
  appendU32(out, 0x004E4942);  // "BIN"
  out += b.bin;
  return out;
}

}  // namespace qnsim
