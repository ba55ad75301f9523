#include "plot/method_style.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

namespace qnsim::plot {
namespace {

struct Look {
  const char* label;
  const char* name;
  Color color;
  Dash dash;
  Marker marker;
};

// Ours is vermillion throughout, Newton black, PD blue.
using namespace palette;

constexpr Look kLooks[] = {
    // The paper's methods (Figs. 7, 9, 13, 16, 17).
    {"ours", "Ours", vermillion, Dash::solid, Marker::circle},
    {"qn", "Ours", vermillion, Dash::solid, Marker::circle},
    {"lbfgs_m5", "Ours (m = 5)", vermillion, Dash::solid, Marker::circle},
    {"lbfgs_m1", "Ours (m = 1)", sky, Dash::dotted, Marker::triangle},
    {"lbfgs_m2", "Ours (m = 2)", violet, Dash::dash_dot, Marker::square},
    {"lbfgs_m3", "Ours (m = 3)", orange, Dash::long_dash, Marker::circle},
    {"lbfgs_m10", "Ours (m = 10)", purple, Dash::dashed, Marker::diamond},
    {"lbfgs_m100", "Ours (m = 100)", brown, Dash::long_dash, Marker::plus},
    {"newton", "Newton", black, Dash::solid, Marker::square},
    {"pd", "PD", blue, Dash::dashed, Marker::triangle_down},
    {"chebyshev", "Chebyshev", green, Dash::dash_dot, Marker::diamond},
    {"gd", "Gradient descent", grey, Dash::dotted, Marker::circle},
    {"hecht", "Hecht et al.", sky, Dash::long_dash, Marker::triangle_down},
    // Fig. 12's reference: ours run to convergence.
    {"converged", "Converged", black, Dash::solid, Marker::plus},
    // The initial Hessians of L-BFGS (Fig. 8).
    {"laplacian", "Ours (M/h\u00b2 + L)", vermillion, Dash::solid, Marker::circle},
    {"scaled_identity", "Scaled identity", grey, Dash::dotted, Marker::cross},
    {"rest_hessian", "Rest-pose Hessian", sky, Dash::dashed, Marker::triangle},
    {"warped_rest_hessian", "Warped rest-pose Hessian", purple, Dash::dash_dot, Marker::diamond},
    // The stretched cube in its two configurations, (1) and (2) (Fig. 9).
    {"rest_hessian_1", "Rest-pose Hessian (1)", sky, Dash::dashed, Marker::triangle},
    {"rest_hessian_2", "Rest-pose Hessian (2)", blue, Dash::dash_dot, Marker::triangle_down},
    {"ours_1", "Ours (1)", vermillion, Dash::solid, Marker::circle},
    {"ours_2", "Ours (2)", vermillion, Dash::dotted, Marker::diamond},
    {"frame_hessian", "Per-frame Hessian", green, Dash::long_dash, Marker::plus},
    // The per-frame Hessian solved directly and by PCG (Fig. 17; the paper's (b) to (f)).
    {"frame_direct", "(b) Per-frame Hessian, direct", green, Dash::long_dash, Marker::plus},
    {"frame_pcg5_ichol_rest", "(c) PCG 5, ichol(rest-pose Hessian)", sky, Dash::dotted, Marker::triangle},
    {"frame_pcg15_ichol_rest", "(d) PCG 15, ichol(rest-pose Hessian)", blue, Dash::dashed, Marker::triangle_down},
    {"frame_pcg5_ichol_a", "(e) PCG 5, ichol(M/h\u00b2 + L)", purple, Dash::dotted, Marker::diamond},
    {"frame_pcg15_ichol_a", "(f) PCG 15, ichol(M/h\u00b2 + L)", violet, Dash::dash_dot, Marker::square},
    // Linear solvers (Fig. 16).
    {"lbfgs_m5_cg15", "Ours + CG (15)", vermillion, Dash::dashed, Marker::triangle},
    {"newton_cg5", "Newton + CG (5)", black, Dash::dotted, Marker::cross},
    {"newton_cg15", "Newton + CG (15)", black, Dash::dash_dot, Marker::plus},
    {"gast_cg", "Gast et al. (CG)", grey, Dash::long_dash, Marker::diamond},
    // Line searches (Fig. 14).
    {"armijo", "Backtracking (Armijo)", vermillion, Dash::solid, Marker::circle},
    {"wolfe", "Strong Wolfe", blue, Dash::dashed, Marker::triangle_down},
    // Hecht et al. 2012 (Fig. 10).
    {"hecht_n2", "Hecht et al. (N = 2)", sky, Dash::long_dash, Marker::triangle_down},
    {"hecht_n1", "Hecht et al. (N = 1)", violet, Dash::dotted, Marker::triangle},
    {"hecht_n2_ls", "Hecht et al. (N = 2) + line search", blue, Dash::dash_dot, Marker::cross},
    // Fig. 11: the polynomial material, and PD with strain limiting fitted to it.
    {"polynomial/ours", "Ours, polynomial", vermillion, Dash::solid, Marker::circle},
    {"strain_limit/pd", "PD, strain limiting", blue, Dash::dashed, Marker::triangle_down},
    {"strain_limit/ours", "Ours, strain limiting", orange, Dash::dotted, Marker::diamond},
    {"pd_strain_limit", "PD strain limiting", blue, Dash::dashed, Marker::triangle_down},
    // Position-based dynamics.
    {"pbd", "PBD", orange, Dash::dashed, Marker::plus},
    {"xpbd", "XPBD", brown, Dash::dash_dot, Marker::triangle},
    {"xpbd_frame", "XPBD (one solve per frame)", grey, Dash::dotted, Marker::cross},
    // The solvers since the paper.
    {"newton_abs", "Newton (|eigenvalues|)", sky, Dash::dashed, Marker::cross},
    {"vbd", "VBD", orange, Dash::long_dash, Marker::plus},
    {"anderson", "Anderson PD", violet, Dash::dashed, Marker::circle},
    {"jacobi", "Jacobi + Chebyshev", grey, Dash::dotted, Marker::square},
    {"admm", "ADMM", brown, Dash::solid, Marker::triangle},
    // The teaser's materials (Fig. 1), one run each.
    {"corotated", "Corotated", blue, Dash::solid, Marker::circle},
    {"neo_hookean", "Neo-Hookean", black, Dash::dashed, Marker::square},
    {"stvk", "StVK", green, Dash::dash_dot, Marker::triangle},
    {"polynomial", "Polynomial", purple, Dash::dotted, Marker::diamond},
    {"spline_a", "Spline A", vermillion, Dash::long_dash, Marker::triangle_down},
    {"spline_b", "Spline B", orange, Dash::solid, Marker::cross},
    // Started from VBD's adaptive initial guess: dashed in their method's colour.
    {"ours_guess", "Ours, adaptive guess", vermillion, Dash::dashed, Marker::diamond},
    {"vbd_accel_guess", "VBD (accelerated, adaptive guess)", orange, Dash::dash_dot, Marker::cross},
};

// Labels may carry their scene ("hippo/xpbd", as the experiments' CSV files write them): the method is
// the part after the last '/', the scene being the panel's, unless the whole label has a look of its own
// (Fig. 11's "strain_limit/ours", where the prefix is the material, not the panel).
const Look* find(const std::string& scene_and_label) {
  for (const std::string& label : {scene_and_label, scene_and_label.substr(scene_and_label.rfind('/') + 1)})
    for (const Look& look : kLooks)
      if (label == look.label) return &look;
  return nullptr;
}

// The settings a variant names (the choices of solver.initial_hessian, line_search, linear_solver and
// cg_preconditioner that the Compare tab varies), as a reader names them.
constexpr std::pair<const char*, const char*> kVariantWords[] = {
    {"laplacian", "M/h\u00b2 + L"},
    {"scaled_identity", "scaled identity"},
    {"rest_hessian", "rest-pose Hessian"},
    {"frame_hessian", "per-frame Hessian"},
    {"warped_rest_hessian", "warped rest-pose Hessian"},
    {"armijo", "Armijo"},
    {"interpolate", "interpolating line search"},
    {"wolfe", "strong Wolfe"},
    {"none", "no line search"},
    {"direct", "direct solve"},
    {"cg", "CG"},
    {"cg_indefinite", "CG, indefinite"},
    {"jacobi", "Jacobi preconditioner"},
    {"ichol_a", "ichol(M/h\u00b2 + L)"},
    {"ichol_rest_hessian", "ichol(rest-pose Hessian)"},
};

}  // namespace

// Each word by its name, unknown words as they are.
std::string settingsName(const std::string& variant) {
  std::string out;
  for (size_t at = 0; at < variant.size();) {
    const size_t start = variant.find_first_not_of(", ", at), end = std::min(variant.find(", ", start), variant.size());
    if (start == std::string::npos) break;
    std::string word = variant.substr(start, end - start);
    for (const auto& [key, name] : kVariantWords)
      if (word == key) word = name;
    out += ", " + word;
    at = end;
  }
  return out;
}

namespace {

// A variant of a known method ("lbfgs_m5, wolfe"): the part before ", " and the rest.
std::pair<const Look*, std::string> findVariant(const std::string& label) {
  const size_t comma = label.find(", ");
  if (comma == std::string::npos) return {nullptr, {}};
  return {find(label.substr(0, comma)), label.substr(comma)};
}

}  // namespace

Series methodSeries(const std::string& label, int index) {
  if (const Look* look = find(label)) return {look->name, look->color, {}, {}, look->dash, false, look->marker};
  // Unknown labels and variants of known methods: a dash and symbol by place, variants in their method's colour.
  static constexpr std::array<Dash, 5> dashes = {Dash::solid, Dash::dashed, Dash::dash_dot, Dash::dotted, Dash::long_dash};
  static constexpr std::array<Marker, 7> markers = {Marker::circle, Marker::square, Marker::triangle, Marker::diamond,
                                                    Marker::triangle_down, Marker::cross, Marker::plus};
  const auto i = static_cast<size_t>(std::abs(index));
  const auto [method, variant] = findVariant(label);
  return {methodName(label), method ? method->color : seriesColor(index), {}, {}, dashes[i % dashes.size()], false, markers[i % markers.size()]};
}

std::string methodName(const std::string& label) {
  if (const Look* look = find(label)) return look->name;
  const auto [method, variant] = findVariant(label);
  return method ? method->name + settingsName(variant) : label;
}


}  // namespace qnsim::plot
