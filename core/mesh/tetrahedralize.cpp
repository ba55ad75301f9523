// tetrahedralize(): runs the tetgen program on the surface written as OFF, under `timeout`, and
// reads the .1.node/.1.ele result back. Results are cached as Medit .mesh files named by a hash of
// the exact OFF bytes and the tetgen switches, so an unchanged asset is meshed once per machine.
#include "core/mesh/tetrahedralize.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "core/common/log.h"
#include "core/common/process.h"
#include "core/mesh/io_formats.h"
#include "core/mesh/mesh_check.h"
#include "core/mesh/mesh_io.h"
#include "core/mesh/text_scanner.h"
#include "qnsim/error.h"

namespace qnsim {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCacheFormat = "qnsim-tetgen-cache-1";  // bump when the cached content changes
constexpr std::size_t kMaxQuotedLines = 6;

void checkOptions(const TetgenOptions& options) {
  if (!std::isfinite(options.max_radius_edge_ratio) || options.max_radius_edge_ratio < 1.0)
    throw error("tetgen max_radius_edge_ratio must be at least 1 (tetgen may never finish below that), not ", options.max_radius_edge_ratio);
  if (!std::isfinite(options.max_volume) || options.max_volume < 0)
    throw error("tetgen max_volume must be 0 (no bound) or positive, not ", options.max_volume);
  if (!(options.timeout_seconds > 0)) throw error("tetgen timeout_seconds must be positive, not ", options.timeout_seconds);
  if (!(options.min_dihedral_degrees >= 0 && options.min_dihedral_degrees <= 30))
    throw error("tetgen min_dihedral_degrees must be between 0 and 30 (tetgen may never finish above that), not ", options.min_dihedral_degrees);
  if (options.target_tets < 0) throw error("the target tet count must be positive, not ", options.target_tets);
  if (!std::isfinite(options.edge_length) || options.edge_length < 0) throw error("the target edge length must be positive, not ", options.edge_length);
}

// The -a bound for a target tet count or edge length. tetgen's tets average about a third of the bound
// (measured on the project's assets), hence the factor for a count.
TetgenOptions withVolumeBound(TetgenOptions options, const SurfaceMesh& surface) {
  if (options.max_volume > 0) return options;
  if (options.target_tets > 0) {
    double volume = 0;  // the divergence theorem over the closed surface
    for (Eigen::Index f = 0; f < surface.F.rows(); ++f)
      volume += Vec3(surface.V.row(surface.F(f, 0))).dot(Vec3(surface.V.row(surface.F(f, 1))).cross(Vec3(surface.V.row(surface.F(f, 2))))) / 6.0;
    options.max_volume = 3.0 * std::abs(volume) / options.target_tets;
  } else if (options.edge_length > 0) {
    options.max_volume = std::pow(options.edge_length, 3) / (6.0 * std::sqrt(2.0));
  }
  return options;
}

// -p: the input is a surface (PLC); -q: quality bound; -a: volume bound; -z: zero-based output;
// -Q: quiet (errors still print).
std::string switches(const TetgenOptions& options) {
  std::string s = "-pq";
  io::appendReal(s, options.max_radius_edge_ratio);
  if (options.min_dihedral_degrees > 0) s += '/', io::appendReal(s, options.min_dihedral_degrees);
  if (options.max_volume > 0) s += 'a', io::appendReal(s, options.max_volume);
  return s + "zQ";
}

std::string hexHash(std::uint64_t hash) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

// A private folder under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "qnsim-tetgen-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw error("could not create a temporary folder for tetgen in ", fs::temp_directory_path().string());
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

fs::path requireProgram(const std::string& name, const char* package) {
  fs::path program = findProgram(name);
  if (program.empty()) throw error(name, " program not found; install the Debian package ", package);
  return program;
}

std::string readLog(const fs::path& log) {
  try {
    return readFileBytes(log);
  } catch (const Error&) {
    return {};  // an empty log is not an error here
  }
}

// "  (   4,    5,    6)" -> "(4, 5, 6)"
std::string collapseSpaces(const std::string& line) {
  std::string out;
  for (char c : line) {
    if (c == '\t' || c == '\r') c = ' ';
    if (c == ' ' && (out.empty() || out.back() == ' ' || out.back() == '(')) continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// tetgen's lines worth showing a user: errors, warnings, and "Facet #3 intersects facet #17 at
// triangles:" joined with the triangle line that follows it.
void collectRelevantLines(const std::string& log, std::vector<std::string>& quotes) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < log.size();) {
    const std::size_t end = std::min(log.find('\n', start), log.size());
    lines.push_back(collapseSpaces(log.substr(start, end - start)));
    start = end + 1;
  }
  for (std::size_t i = 0; i < lines.size() && quotes.size() < kMaxQuotedLines; ++i) {
    const std::string& line = lines[i];
    const bool relevant = line.find("rror") != std::string::npos || line.find("arning") != std::string::npos ||
                          line.find("ntersect") != std::string::npos || line.find("BUG") != std::string::npos ||
                          line.find("uplicate") != std::string::npos;
    // Progress lines and the C++ runtime's note on the abort say nothing about the surface.
    const bool noise = line.starts_with("Detecting") || line.starts_with("No faces are intersecting") ||
                       line.starts_with("terminate called") || line.find("seconds") != std::string::npos;
    if (!relevant || noise) continue;
    std::string quote = line;
    if (line.ends_with("at triangles:") && i + 1 < lines.size()) quote += " " + lines[++i];
    quotes.push_back(quote);
  }
}

std::string outcome(const ProcessResult& run, double timeout_seconds) {
  const std::string prefix = "tetgen could not tetrahedralize the surface: ";
  if (run.signal != 0) return prefix + "it aborted (signal " + std::to_string(run.signal) + ")";
  if (run.exit_code == 124) {
    std::string seconds;
    io::appendReal(seconds, timeout_seconds);
    return prefix + "it did not finish within " + seconds + " s (TetgenOptions::timeout_seconds)";
  }
  if (run.exit_code != 0) return prefix + "it failed (exit status " + std::to_string(run.exit_code) + ")";
  return prefix + "it produced no tetrahedra";
}

ProcessResult runTetgen(const fs::path& off, const std::string& flags, double timeout_seconds, const fs::path& log) {
  const fs::path tetgen = requireProgram("tetgen", "tetgen");
  const fs::path timeout = requireProgram("timeout", "coreutils");
  std::string seconds;
  io::appendReal(seconds, timeout_seconds);
  // -k: if tetgen ignores the polite SIGTERM, SIGKILL follows 5 s later.
  return runProgram({timeout.string(), "-k", "5", seconds, tetgen.string(), flags, off.string()}, log);
}

// tetgen -Q prints next to nothing on failure; its -d run names the intersecting facets.
[[noreturn]] void failWithDiagnosis(const fs::path& dir, const fs::path& off, const ProcessResult& run, const TetgenOptions& options) {
  std::vector<std::string> quotes;
  collectRelevantLines(readLog(dir / "tetgen.log"), quotes);
  runTetgen(off, "-dz", std::min(options.timeout_seconds, 60.0), dir / "diagnosis.log");
  collectRelevantLines(readLog(dir / "diagnosis.log"), quotes);
  std::string message = outcome(run, options.timeout_seconds);
  bool intersects = false;
  for (const std::string& q : quotes) intersects |= q.find("ntersect") != std::string::npos;
  if (intersects) message += "; the surface intersects itself (facets numbered from 1, vertices from 0)";
  if (!quotes.empty()) message += ". tetgen says:";
  for (std::size_t i = 0; i < quotes.size(); ++i) message += (i ? " | " : " ") + quotes[i];
  throw Error(message);
}

TetMesh tetgenMesh(const std::string& off_text, const std::string& flags, const TetgenOptions& options) {
  TempDir dir;
  const fs::path off = dir.path() / "surface.off";
  writeFileBytes(off, off_text);
  const ProcessResult run = runTetgen(off, flags, options.timeout_seconds, dir.path() / "tetgen.log");
  const fs::path ele = dir.path() / "surface.1.ele";
  std::error_code ec;
  if (run.signal != 0 || run.exit_code != 0 || fs::file_size(ele, ec) == 0 || ec) failWithDiagnosis(dir.path(), off, run, options);
  try {
    return io::readNodeEle(ele);
  } catch (const Error& e) {
    throw error("tetgen's output could not be used: ", e.what());
  }
}

std::optional<TetMesh> readCache(const fs::path& file) {
  std::error_code ec;
  if (file.empty() || !fs::exists(file, ec)) return std::nullopt;
  try {
    return io::readMedit(file);
  } catch (const Error&) {
    return std::nullopt;  // a damaged entry is simply recomputed and overwritten
  }
}

void writeCache(const fs::path& file, const TetMesh& mesh) {
  try {
    fs::create_directories(file.parent_path());
    writeMedit(file, mesh);  // atomic (core/common/files.h): a reader never sees half an entry
  } catch (const std::exception& e) {
    warn(std::string("could not cache the tetgen result (the mesh is fine): ") + e.what());
  }
}

}  // namespace

fs::path tetgenCacheDir(const TetgenOptions& options) {
  if (!options.cache_dir.empty()) return options.cache_dir;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return fs::path(xdg) / "qnsim" / "tetgen";
  const char* home = std::getenv("HOME");
  if (home && home[0] != '\0') return fs::path(home) / ".cache" / "qnsim" / "tetgen";
  return {};
}

TetMesh tetrahedralize(const SurfaceMesh& surface, const TetgenOptions& options) {
  checkOptions(options);
  checkSurfaceMesh(surface, "cannot tetrahedralize");
  checkClosedSurface(surface, "cannot tetrahedralize");
  const std::string off_text = io::offText(surface);
  const std::string flags = switches(withVolumeBound(options, surface));
  const fs::path dir = tetgenCacheDir(options);
  const std::uint64_t key = io::fnv1a64(flags + "\n" + kCacheFormat + "\n", io::fnv1a64(off_text));
  const fs::path cache_file = dir.empty() ? fs::path() : dir / (hexHash(key) + ".mesh");
  if (std::optional<TetMesh> cached = readCache(cache_file)) return std::move(*cached);
  TetMesh mesh = tetgenMesh(off_text, flags, options);
  if (!cache_file.empty()) writeCache(cache_file, mesh);
  return mesh;
}

}  // namespace qnsim
