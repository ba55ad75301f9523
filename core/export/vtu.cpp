// VTK XML unstructured grids (.vtu) and their collection (.pvd), as ParaView and meshio read them: inline
// base64 binary arrays with 64-bit headers, little endian, positions and fields in double precision.
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/common/files.h"
#include "core/export/export_text.h"
#include "qnsim/export.h"
#include "qnsim/simulation.h"

namespace qnsim {
namespace {

static_assert(std::endian::native == std::endian::little, "the .vtu writer writes the machine's bytes as little endian");

// One base64 run over the 8-byte length and the data, as VTK writes uncompressed inline arrays.
template <class T>
void appendArray(std::string& out, const T* data, std::size_t count) {
  const std::uint64_t bytes = count * sizeof(T);
  std::string raw(sizeof bytes + bytes, '\0');
  std::memcpy(raw.data(), &bytes, sizeof bytes);
  if (bytes > 0) std::memcpy(raw.data() + sizeof bytes, data, bytes);
  appendBase64(out, raw);
}

template <class T>
void dataArray(std::string& out, const char* type, const char* name, int components, const T* data, std::size_t count) {
  out += "        <DataArray type=\"";
  out += type;
  out += '"';
  if (name) {
    out += " Name=\"";
    out += name;
    out += '"';
  }
  if (components > 1) {
    out += " NumberOfComponents=\"";
    out += std::to_string(components);
    out += '"';
  }
  out += " format=\"binary\">\n          ";
  appendArray(out, data, count);
  out += "\n        </DataArray>\n";
}

void doubles(std::string& out, const char* name, int components, const double* data, std::size_t values) {
  dataArray(out, "Float64", name, components, data, values);
}

std::vector<std::int64_t> wide(const std::vector<int>& v) { return {v.begin(), v.end()}; }

}  // namespace

void writeVtu(const std::filesystem::path& path, const FrameFields& f, const std::vector<std::string>& region_names) {
  const std::size_t n = f.points.rows(), cells = f.cell_type.size();
  std::string out;
  out.reserve(64 + n * 3 * 8 * 4 * 4 / 3 + cells * 200);
  out += "<?xml version=\"1.0\"?>\n";
  out += "<!-- qnsim frame. Cell data \"region\" indexes the scene's material regions:";
  for (std::size_t r = 0; r < region_names.size(); ++r) {
    out += ' ';
    out += std::to_string(r);
    out += ' ';
    out += xmlComment(region_names[r]);
    if (r + 1 < region_names.size()) out += ',';
  }
  out += " -->\n";
  out += "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
  out += "  <UnstructuredGrid>\n";
  out += "    <Piece NumberOfPoints=\"";
  out += std::to_string(n);
  out += "\" NumberOfCells=\"";
  out += std::to_string(cells);
  out += "\">\n";
  out += "      <PointData Vectors=\"velocity\"";
  if (!f.contact_distance.empty()) out += " Scalars=\"contact_distance\"";
  out += ">\n";
  doubles(out, "velocity", 3, f.velocity.data(), f.velocity.size());
  doubles(out, "displacement", 3, f.displacement.data(), f.displacement.size());
  if (!f.contact_distance.empty()) doubles(out, "contact_distance", 1, f.contact_distance.data(), f.contact_distance.size());
  out += "      </PointData>\n";
  out += "      <CellData Scalars=\"det_F\" Tensors=\"stress\">\n";
  dataArray(out, "Int32", "region", 1, f.region.data(), f.region.size());
  dataArray(out, "Int32", "body", 1, f.body.data(), f.body.size());
  doubles(out, "det_F", 1, f.det_f.data(), f.det_f.size());
  doubles(out, "strain_energy_density", 1, f.energy_density.data(), f.energy_density.size());
  // Tensors: 9 components each, row by row (P is stored column-major; its transpose's column-major is P's rows).
  std::vector<double> stress(9 * cells);
  for (std::size_t c = 0; c < cells; ++c) Eigen::Map<Mat3>(stress.data() + 9 * c) = f.stress[c].transpose();
  doubles(out, "stress", 9, stress.data(), stress.size());
  doubles(out, "stress_norm", 1, f.stress_norm.data(), f.stress_norm.size());
  doubles(out, "strain", 1, f.strain.data(), f.strain.size());
  out += "      </CellData>\n";
  out += "      <Points>\n";
  doubles(out, "points", 3, f.points.data(), f.points.size());
  out += "      </Points>\n";
  out += "      <Cells>\n";
  const std::vector<std::int64_t> connectivity = wide(f.connectivity), offsets = wide(f.offsets);
  dataArray(out, "Int64", "connectivity", 1, connectivity.data(), connectivity.size());
  dataArray(out, "Int64", "offsets", 1, offsets.data(), offsets.size());
  const std::vector<std::uint8_t> types(f.cell_type.begin(), f.cell_type.end());
  dataArray(out, "UInt8", "types", 1, types.data(), types.size());
  out += "      </Cells>\n";
  out += "    </Piece>\n";
  out += "  </UnstructuredGrid>\n";
  out += "</VTKFile>\n";
  writeFileBytes(path, out);
}

void writeVtu(const std::filesystem::path& path, const Simulation& sim) {
  std::vector<std::string> names;
  for (const Region& r : sim.model().regions) names.push_back(r.name);
  writeVtu(path, frameFields(sim), names);
}

std::string pvdText(const std::vector<std::pair<double, std::string>>& frames) {
  std::string out = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n  <Collection>\n";
  for (const auto& [time, file] : frames) {
    out += "    <DataSet timestep=\"";
    appendNumber(out, time);
    out += "\" group=\"\" part=\"0\" file=\"";
    out += xmlAttribute(file);
    out += "\"/>\n";
  }
  out += "  </Collection>\n</VTKFile>\n";
  return out;
}

}  // namespace qnsim
