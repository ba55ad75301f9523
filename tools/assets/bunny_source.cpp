#include "tools/assets/bunny_source.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "qnsim/error.h"

namespace qnsim::assets {

std::filesystem::path fetchBunnyPackage(const std::filesystem::path& work_dir) {
  const auto index_js = work_dir / "package" / "index.js";
  if (std::filesystem::exists(index_js)) return index_js;
  std::filesystem::create_directories(work_dir);
  const std::string cmd = "cd '" + work_dir.string() + "' && npm pack bunny@1.0.1 --silent > npm.log 2>&1 && tar xzf bunny-1.0.1.tgz";
  if (std::system(cmd.c_str()) != 0) throw error("could not fetch the npm package bunny@1.0.1 (", cmd, "); see ", (work_dir / "npm.log").string());
  return index_js;
}

namespace {

// All numbers in the bracketed array that follows `name=` in the text.
std::vector<double> numbersAfter(const std::string& text, const std::string& name, const std::filesystem::path& path) {
  const auto start = text.find(name + "=");
  if (start == std::string::npos) throw error(path.string(), ": no `", name, "` array");
  std::vector<double> values;
  int depth = 0;
  for (std::size_t i = text.find('[', start); i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[') ++depth;
    if (c == ']' && --depth == 0) return values;
    if (c == '-' || c == '.' || (c >= '0' && c <= '9')) {
      std::size_t used = 0;
      values.push_back(std::stod(text.substr(i, 32), &used));
      i += used - 1;
    }
  }
  throw error(path.string(), ": the `", name, "` array is not closed");
}

}  // namespace

SurfaceMesh readBunnyJs(const std::filesystem::path& index_js) {
  std::ifstream in(index_js);
  if (!in) throw error(index_js.string(), ": cannot open");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  const auto p = numbersAfter(text, "exports.positions", index_js), c = numbersAfter(text, "exports.cells", index_js);
  if (p.size() % 3 || c.size() % 3) throw error(index_js.string(), ": arrays are not lists of triples");
  SurfaceMesh mesh;
  mesh.V.resize(static_cast<Eigen::Index>(p.size() / 3), 3);
  mesh.F.resize(static_cast<Eigen::Index>(c.size() / 3), 3);
  for (std::size_t i = 0; i < p.size(); ++i) mesh.V(static_cast<Eigen::Index>(i / 3), static_cast<Eigen::Index>(i % 3)) = p[i];
  for (std::size_t i = 0; i < c.size(); ++i) {
    const auto v = static_cast<Eigen::Index>(c[i]);
    if (v < 0 || v >= mesh.V.rows()) throw error(index_js.string(), ": face index ", v, " out of range");
    mesh.F(static_cast<Eigen::Index>(i / 3), static_cast<Eigen::Index>(i % 3)) = static_cast<int>(v);
  }
  return mesh;
}

}  // namespace qnsim::assets
