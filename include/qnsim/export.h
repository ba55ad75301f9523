#pragma once
// Exports of a simulation's motion and fields for other tools (docs/pipeline.md):
//   - OBJ, one file per frame: the drawn surfaces (each body's render mesh when it has one, else its
//     simulation surface) with normals, and texture coordinates where the render mesh has them;
//   - VTK XML, one .vtu per frame with the tets (and cloth triangles, strand segments) and their fields,
//     and a .pvd collection with the frames' times, for ParaView and meshio;
//   - glTF 2.0 binary (.glb): the drawn surfaces at the first exported frame, animated by one morph
//     target per later frame whose weight goes 0 -> 1 -> 0 around its time (Blender imports them as shape
//     keys with their animation).
// Every file is written to a temporary beside it and renamed into place, so a reader never sees half a file.
// Threads: an Exporter is not thread-safe; give it a simulation between frames from the thread stepping it.
// Errors: qnsim::Error naming the file that could not be written.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "qnsim/types.h"

namespace qnsim {

class Simulation;

enum class ExportFormat { Obj, Vtu, Glb };
// "obj", "vtu" or "glb"; throws qnsim::Error listing the choices.
ExportFormat exportFormat(std::string_view name);
std::string_view exportFormatName(ExportFormat format);

// The fields of one frame as the .vtu files hold them. Points are every vertex of the model; cells are the
// tets, cloth triangles and strand segments still present (torn ones are left out), in that order.
struct FrameFields {
  MatX3 points;                 // current positions
  std::vector<int> cell_type;   // VTK cell types: 10 tetrahedron, 5 triangle, 3 line
  std::vector<int> connectivity, offsets;  // VTK's layout: cell c has connectivity[offsets[c-1] .. offsets[c])
  std::vector<int> element;     // per cell: its index into Model::tets (tets), Body::triangles (cloth) or Model::springs (segments)
  // Per point.
  MatX3 velocity, displacement;  // m/s; m from the rest position
  std::vector<double> contact_distance;  // signed distance to the nearest collider (m, negative inside); empty without colliders
  // Per cell (tet fields are NaN on triangles and segments).
  std::vector<int> region, body;          // index into Model::regions and Model::bodies
  std::vector<double> det_f;              // det F
  std::vector<double> energy_density;     // strain energy density Psi(F) (Pa = J/m^3), fibres included
  std::vector<Mat3> stress;               // first Piola-Kirchhoff stress P = dPsi/dF (Pa)
  std::vector<double> stress_norm;        // |P|_F (Pa), the sandbox's stress colouring
  std::vector<double> strain;             // the largest |s_i - 1| over the principal stretches (segments: |l/l0 - 1|)
};
FrameFields frameFields(const Simulation& sim);

// One frame's files.
void writeVtu(const std::filesystem::path& path, const FrameFields& fields, const std::vector<std::string>& region_names = {});
void writeVtu(const std::filesystem::path& path, const Simulation& sim);
void writeObj(const std::filesystem::path& path, const Simulation& sim);

// A run's frames into a folder (made if missing):
//   obj: frame_00000.obj, frame_00005.obj, ... named by frame number;
//   vtu: frame_00000.vtu, ... and frames.pvd (rewritten after every frame, so a stopped run still has one);
//   glb: animation.glb, written by finish().
// add() exports the simulation's current frame when its number is a multiple of `every` (frame 0, before
// the first step, included) and returns whether it did.
class Exporter {
 public:
  Exporter(std::filesystem::path folder, ExportFormat format, int every = 1);
  ~Exporter();
  Exporter(const Exporter&) = delete;
  Exporter& operator=(const Exporter&) = delete;

  bool add(const Simulation& sim);
  // Writes what waits for the end (the .glb); safe to call more than once. Returns every file written.
  const std::vector<std::filesystem::path>& finish();
  int exportedFrames() const;
  ExportFormat format() const;
  const std::filesystem::path& folder() const;
  // A note for the user about what the export could not keep (a torn surface in a .glb), empty if none.
  const std::string& warning() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qnsim
