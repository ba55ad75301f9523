// One frame as a Wavefront OBJ: an object per drawn surface, with vertex normals and, where the render
// mesh has them, texture coordinates. Y is up and lengths are metres, as Blender's OBJ importer expects.
#include <string>

#include "core/common/files.h"
#include "core/export/drawn_surfaces.h"
#include "core/export/export_text.h"
#include "qnsim/export.h"
#include "qnsim/simulation.h"

namespace qnsim {
namespace {

void appendRow(std::string& out, const char* tag, const double* v, int count) {
  out += tag;
  for (int k = 0; k < count; ++k) {
    out += ' ';
    appendFloat(out, static_cast<float>(v[k]));
  }
  out += '\n';
}

void appendIndex(std::string& out, long i) {
  out += std::to_string(i);
}

}  // namespace

std::string objFrameText(const std::vector<DrawnSurface>& surfaces, const VecX& x, int frame, double time) {
  std::string out = "# qnsim frame " + std::to_string(frame) + ", t = ";
  appendNumber(out, time);
  out += " s\n";
  long base = 1, uv_base = 1;  // OBJ numbers vertices (and texture coordinates) from 1 across the file
  MatX3 P, N;
  for (const DrawnSurface& s : surfaces) {
    drawnPositions(s, x, P);
    vertexNormals(P, s.F, N);
    out += "o " + s.name + "\n";
    for (Eigen::Index v = 0; v < P.rows(); ++v) appendRow(out, "v", P.row(v).data(), 3);
    const bool uv = s.uv.rows() == P.rows() && P.rows() > 0;
    if (uv)
      for (Eigen::Index v = 0; v < s.uv.rows(); ++v) appendRow(out, "vt", s.uv.row(v).data(), 2);
    for (Eigen::Index v = 0; v < N.rows(); ++v) appendRow(out, "vn", N.row(v).data(), 3);
    for (Eigen::Index f = 0; f < s.F.rows(); ++f) {
      out += 'f';
      for (int k = 0; k < 3; ++k) {
        out += ' ';
        appendIndex(out, base + s.F(f, k));
        out += '/';
        if (uv) appendIndex(out, uv_base + s.F(f, k));
        out += '/';
        appendIndex(out, base + s.F(f, k));  // a normal per vertex: the same index
      }
      out += '\n';
    }
    base += P.rows();
    if (uv) uv_base += s.uv.rows();
  }
  return out;
}

void writeObj(const std::filesystem::path& path, const Simulation& sim) {
  writeFileBytes(path, objFrameText(drawnSurfaces(sim.model()), sim.positions(), sim.frame(), sim.time()));
}

}  // namespace qnsim
