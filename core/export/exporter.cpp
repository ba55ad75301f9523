// The Exporter: a run's frames into a folder, one file per frame (obj, vtu) or one at the end (glb).
#include <cstdio>

#include "core/common/files.h"
#include "core/export/export_text.h"
#include "core/export/writers.h"
#include "qnsim/error.h"
#include "qnsim/export.h"
#include "qnsim/simulation.h"

namespace qnsim {
namespace fs = std::filesystem;

ExportFormat exportFormat(std::string_view name) {
  if (name == "obj") return ExportFormat::Obj;
  if (name == "vtu") return ExportFormat::Vtu;
  if (name == "glb") return ExportFormat::Glb;
  throw error("unknown export format '", name, "' (choose obj, vtu or glb)");
}

std::string_view exportFormatName(ExportFormat format) {
  switch (format) {
    case ExportFormat::Obj: return "obj";
    case ExportFormat::Vtu: return "vtu";
    case ExportFormat::Glb: return "glb";
  }
  return "";
}

struct Exporter::Impl {
  fs::path folder;
  ExportFormat format;
  int every = 1;
  int exported = 0;
  std::vector<fs::path> written;
  std::vector<std::pair<double, std::string>> pvd;
  std::string warning;
  bool finished = false;
  // glb: the surfaces as they were at the first exported frame, and every frame's positions and normals.
  std::vector<DrawnSurface> surfaces;
  int topology = 0;
  std::vector<GlbMesh> meshes;
  std::vector<double> times;

  fs::path frameFile(int frame, const char* extension) const {
    char name[64];
    std::snprintf(name, sizeof name, "frame_%05d.%s", frame, extension);
    return folder / name;
  }
};

Exporter::Exporter(fs::path folder, ExportFormat format, int every) : impl_(std::make_unique<Impl>()) {
  if (every < 1) throw error("export: every must be 1 or more, got ", every);
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (!fs::is_directory(folder)) throw error(folder.string(), ": could not make the export folder", ec ? " (" + ec.message() + ")" : "");
  impl_->folder = std::move(folder);
  impl_->format = format;
  impl_->every = every;
}

Exporter::~Exporter() = default;

bool Exporter::add(const Simulation& sim) {
  Impl& d = *impl_;
  if (d.finished) throw Error("export: add() after finish()");
  if (sim.frame() % d.every != 0) return false;
  switch (d.format) {
    case ExportFormat::Obj: {
      const fs::path path = d.frameFile(sim.frame(), "obj");
      writeObj(path, sim);
      d.written.push_back(path);
      break;
    }
    case ExportFormat::Vtu: {
      const fs::path path = d.frameFile(sim.frame(), "vtu");
      writeVtu(path, sim);
      d.written.push_back(path);
      d.pvd.emplace_back(sim.time(), path.filename().string());
      const fs::path collection = d.folder / "frames.pvd";
      writeFileBytes(collection, pvdText(d.pvd));
      if (d.exported == 0) d.written.push_back(collection);
      break;
    }
    case ExportFormat::Glb: {
      if (d.exported == 0) {
        d.surfaces = drawnSurfaces(sim.model());
        d.topology = sim.topologyVersion();
        for (const DrawnSurface& s : d.surfaces) {
          GlbMesh m;
          m.name = s.name;
          m.double_sided = s.double_sided;
          m.indices.assign(s.F.data(), s.F.data() + s.F.size());
          m.uv.resize(s.uv.size());
          for (Eigen::Index v = 0; v < s.uv.rows(); ++v) {
            m.uv[2 * v] = static_cast<float>(s.uv(v, 0));
            m.uv[2 * v + 1] = static_cast<float>(1.0 - s.uv(v, 1));  // glTF's v runs down the image, OBJ's up
          }
          d.meshes.push_back(std::move(m));
        }
      } else if (sim.topologyVersion() != d.topology && d.warning.empty()) {
        d.warning = "the .glb keeps the surfaces of its first frame: elements torn or cut later leave no gap in it (export obj for that)";
      }
      MatX3 P, N;
      for (size_t i = 0; i < d.surfaces.size(); ++i) {
        drawnPositions(d.surfaces[i], sim.positions(), P);
        vertexNormals(P, d.surfaces[i].F, N);
        d.meshes[i].positions.emplace_back(P.data(), P.data() + P.size());
        d.meshes[i].normals.emplace_back(N.data(), N.data() + N.size());
      }
      d.times.push_back(sim.time());
      break;
    }
  }
  ++d.exported;
  return true;
}

const std::vector<fs::path>& Exporter::finish() {
  Impl& d = *impl_;
  if (d.finished) return d.written;
  d.finished = true;
  if (d.format == ExportFormat::Glb && d.exported > 0) {
    const fs::path path = d.folder / "animation.glb";
    writeFileBytes(path, glbBytes(d.meshes, d.times));
    d.written.push_back(path);
    d.meshes.clear();
  }
  return d.written;
}

int Exporter::exportedFrames() const { return impl_->exported; }
ExportFormat Exporter::format() const { return impl_->format; }
const fs::path& Exporter::folder() const { return impl_->folder; }
const std::string& Exporter::warning() const { return impl_->warning; }

}  // namespace qnsim
