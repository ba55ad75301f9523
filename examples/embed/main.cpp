// What an engine does with qnsim each frame: build a model from its own arrays (or load a scene), step
// it, read positions, drag a vertex, change a material constant live, save and restore the state.
#include <cstdio>
#include <qnsim/qnsim.h>
#include <string>
#include <utility>
#include <vector>

// A beam of n cubes along x, 6 tets each, every tet turned to positive volume.
qnsim::Scene beam(int n) {
  qnsim::MatX3 V(4 * (n + 1), 3);
  for (int i = 0; i < V.rows(); ++i) V.row(i) << 0.1 * (i / 4), 0.1 * (i % 2), 0.1 * (i / 2 % 2);
  qnsim::TetIndices T(6 * n, 4);
  const int kuhn[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};
  for (int c = 0; c < n; ++c)
    for (int t = 0; t < 6; ++t) {  // cube corner k = x + 2y + 4z is vertex 4 (c + x) + y + 2z
      for (int j = 0; j < 4; ++j) T(6 * c + t, j) = 4 * (c + kuhn[t][j] % 2) + kuhn[t][j] / 2 % 2 + 2 * (kuhn[t][j] / 4);
      const auto p = [&](int j) { return V.row(T(6 * c + t, j)).transpose().eval(); };
      if ((p(1) - p(0)).cross(p(2) - p(0)).dot(p(3) - p(0)) < 0) std::swap(T(6 * c + t, 2), T(6 * c + t, 3));
    }
  std::shared_ptr<qnsim::Material> rubber = qnsim::makeMaterial("neo_hookean");
  rubber->set("mu", 2e5);  // Pa
  qnsim::Scene scene;
  scene.bodies.push_back(qnsim::makeTetBody("beam", V, T, rubber));
  return scene;
}

int main(int argc, char** argv) try {
  qnsim::Simulation sim(argc > 1 ? qnsim::loadScene(argv[1]) : beam(10));
  const qnsim::Model& model = sim.model();
  std::vector<int> wall;  // the vertices at the smallest x, pinned where they are
  const double left = qnsim::asRows(model.rest).col(0).minCoeff();
  for (int v = 0; v < model.vertexCount(); ++v)
    if (model.rest[3 * v] < left + 1e-9) wall.push_back(v);
  sim.apply(qnsim::PinVertices{wall, 1e6});
  const int tip = model.vertexCount() - 1;
  const auto y = [&] { return sim.positions()[3 * tip + 1]; };
  for (int f = 0; f < 30; ++f) sim.step();
  std::printf("qnsim %s, %d vertices; after 30 frames the tip is at y = %.4f m\n", qnsim::version(), model.vertexCount(), y());

  sim.apply(qnsim::SetDrag{{{tip, qnsim::Vec3(model.rest[3 * tip], 0.5, 0.0), 1e4}}});  // the mouse pulls it up
  for (int f = 0; f < 10; ++f) sim.step();
  std::printf("dragged up: y = %.4f m\n", y());
  sim.apply(qnsim::SetDrag{});

  const qnsim::Region& region = model.regions[0];  // its first constant: mu of a solid, k of a spring
  const std::string key = "material." + region.name + "." + region.material->parameters().front().key;
  sim.apply(qnsim::SetParameter{key, 4.0 * std::get<double>(sim.value(key))});  // A is refactored for the next frame
  std::printf("%s is now %g\n", key.c_str(), std::get<double>(sim.value(key)));

  const qnsim::SimState saved = sim.state();
  for (int f = 0; f < 10; ++f) sim.step();
  const qnsim::VecX first = sim.positions();
  sim.apply(qnsim::LoadState{saved});
  for (int f = 0; f < 10; ++f) sim.step();
  const bool same = sim.positions() == first;
  std::printf("released, stiffer, restored and replayed: %s at frame %d\n", same ? "the same bits" : "DIFFERENT", sim.frame());
  return same ? 0 : 1;
} catch (const qnsim::Error& e) {
  std::fprintf(stderr, "embed: %s\n", e.what());
  return 2;
}
