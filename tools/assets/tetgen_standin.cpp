#include "tools/assets/tetgen_standin.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/common/error.h"

namespace qnsim::assets {
void writeOffFile(const std::filesystem::path& path, const SurfaceMesh& s) {
  std::ofstream out(path);
  out.precision(17);
  out << "OFF\n" << s.V.rows() << ' ' << s.F.rows() << " 0\n";
  for (Eigen::Index i = 0; i < s.V.rows(); ++i) out << s.V(i, 0) << ' ' << s.V(i, 1) << ' ' << s.V(i, 2) << '\n';
  for (Eigen::Index i = 0; i < s.F.rows(); ++i) out << "3 " << s.F(i, 0) << ' ' << s.F(i, 1) << ' ' << s.F(i, 2) << '\n';
  if (!out) throw error(path.string(), ": cannot write");
}

namespace {

std::ifstream openOrThrow(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw error(path.string(), ": tetgen produced no output");
  return in;
}

}  // namespace

TetMesh runTetgen(const SurfaceMesh& surface, const TetgenOptions& options) {
  const auto dir = std::filesystem::temp_directory_path() / ("qnsim_assets_tetgen_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  writeOffFile(dir / "in.off", surface);
  std::ostringstream cmd;
  cmd << "cd '" << dir.string() << "' && tetgen -pq" << options.max_radius_edge_ratio;
  if (options.max_volume > 0) cmd << 'a' << options.max_volume;
  cmd << "zQ in.off > log.txt 2>&1";
  if (std::system(cmd.str().c_str()) != 0) throw error("tetgen failed: ", cmd.str(), " (see ", (dir / "log.txt").string(), ")");
  TetMesh mesh;
  auto node = openOrThrow(dir / "in.1.node");
  int nv = 0, dim = 0, attrs = 0, marker = 0;
  node >> nv >> dim >> attrs >> marker;
  mesh.V.resize(nv, 3);
  for (int i = 0; i < nv; ++i) {
    int index = 0;
    double skip = 0;
    node >> index >> mesh.V(i, 0) >> mesh.V(i, 1) >> mesh.V(i, 2);
    for (int k = 0; k < attrs + marker; ++k) node >> skip;
  }
  auto ele = openOrThrow(dir / "in.1.ele");
  int nt = 0, per = 0, region = 0;
  ele >> nt >> per >> region;
  mesh.T.resize(nt, 4);
  for (int e = 0; e < nt; ++e) {
    int index = 0, skip = 0;
    ele >> index >> mesh.T(e, 0) >> mesh.T(e, 1) >> mesh.T(e, 2) >> mesh.T(e, 3);
    for (int k = 0; k < region; ++k) ele >> skip;
  }
  if (!node || !ele) throw error("tetgen output in ", dir.string(), " is truncated");
  mesh.region = Eigen::VectorXi::Zero(nt);
  std::filesystem::remove_all(dir);
  return mesh;
}

void writeMeditFile(const std::filesystem::path& path, const TetMesh& mesh) {
  std::ofstream out(path);
  out.precision(9);
  out << "MeshVersionFormatted 1\nDimension 3\nVertices\n" << mesh.V.rows() << '\n';
  for (Eigen::Index i = 0; i < mesh.V.rows(); ++i) out << mesh.V(i, 0) << ' ' << mesh.V(i, 1) << ' ' << mesh.V(i, 2) << " 0\n";
  out << "Tetrahedra\n" << mesh.T.rows() << '\n';
  for (Eigen::Index e = 0; e < mesh.T.rows(); ++e)
    out << mesh.T(e, 0) + 1 << ' ' << mesh.T(e, 1) + 1 << ' ' << mesh.T(e, 2) + 1 << ' ' << mesh.T(e, 3) + 1 << ' ' << mesh.region[e] << '\n';
  out << "End\n";
  if (!out) throw error(path.string(), ": cannot write");
}

}  // namespace qnsim::assets
