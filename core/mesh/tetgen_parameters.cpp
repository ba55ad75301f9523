#include "core/mesh/tetgen_parameters.h"

namespace qnsim {
namespace {

constexpr double kHuge = 1e12;

template <class T>
TetgenParameter declare(std::string key, std::string description, Parameter::Type type, T default_value, double min, double max,
                        T TetgenOptions::*field) {
  TetgenParameter p{{std::move(key), "Tetrahedralisation", std::move(description), type, default_value, min, max, {}, Effect::Live}, {}, {}};
  p.get = [field](const TetgenOptions& o) { return ParameterValue(o.*field); };
  p.assign = [field](TetgenOptions& o, const ParameterValue& v) { o.*field = std::get<T>(v); };
  return p;
}

std::vector<TetgenParameter> declareAll() {
  using Type = Parameter::Type;
  const TetgenOptions defaults;
  return {
      declare("tets", "About this many tets: sets tetgen's volume bound from the enclosed volume (0 = no target).", Type::Integer,
              defaults.target_tets, 0, 1e8, &TetgenOptions::target_tets),
      declare("edge", "Tets of about this edge length in metres, when no tet count is asked (0 = no target).", Type::Real,
              defaults.edge_length, 0, kHuge, &TetgenOptions::edge_length),
      declare("max_volume", "No tet larger than this, in cubic metres (tetgen -a; 0 = no bound). Overrides tets and edge.",
              Type::Real, defaults.max_volume, 0, kHuge, &TetgenOptions::max_volume),
      declare("quality", "Largest radius-edge ratio of a tet (tetgen -q); smaller is rounder and gives more tets.", Type::Real,
              defaults.max_radius_edge_ratio, 1.0, 10.0, &TetgenOptions::max_radius_edge_ratio),
      declare("min_dihedral", "Smallest dihedral angle of a tet in degrees (tetgen -q's second bound; 0 = tetgen's own).",
              Type::Real, defaults.min_dihedral_degrees, 0, 30, &TetgenOptions::min_dihedral_degrees),
      declare("cage", "Instead of filling the surface: simulate a cage of cubes, this many along its longest side, and draw the "
              "surface over it (0 = fill the surface itself).", Type::Integer, defaults.cage_cells, 0, 64, &TetgenOptions::cage_cells),
  };
}

}  // namespace

const std::vector<TetgenParameter>& tetgenParameters() {
  static const std::vector<TetgenParameter> all = declareAll();
  return all;
}

std::vector<std::pair<const TetgenParameter*, ParameterValue>> changedTetgenOptions(const TetgenOptions& options) {
  std::vector<std::pair<const TetgenParameter*, ParameterValue>> changed;
  for (const TetgenParameter& p : tetgenParameters())
    if (p.get(options) != p.default_value) changed.emplace_back(&p, p.get(options));
  return changed;
}

}  // namespace qnsim
