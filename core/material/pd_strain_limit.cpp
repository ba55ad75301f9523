// Projective Dynamics with strain limiting (Bouaziz et al. 2014), the approximation of S2 Fig. 11:
// a(x) = w_a/2 (x - 1)^2 + w_s/2 (x - clamp(x, s_min, s_max))^2, the ARAP constraint plus the strain
// limit, both stretch projections (stretchLimitTerm). The defaults are fitStrainLimit of the default
// polynomial material (mu4 = 1e5) over the paper's interval [0.5, 1.5] (stiffness_fit.h), rounded to
// three digits: the two-piece curve that best matches 4 mu4 (x - 1)^3 in least squares.
#include "core/material/models.h"

namespace qnsim {

const std::vector<MaterialParameter>& PdStrainLimit::parameters() const {
  static const std::vector<MaterialParameter> params = withTearing(
      {declare(&PdStrainLimit::arap_weight_, "arap_weight", 1.89e4, 0.0, 1e12,
               "Weight w_a of the ARAP constraint |F - R|^2 (Pa): the slope of the stress while the limit is inactive."),
       declare(&PdStrainLimit::limit_weight_, "limit_weight", 1.67e5, 0.0, 1e12,
               "Weight w_s of the strain-limit constraint (Pa): the extra slope once a stretch leaves [sigma_min, sigma_max]."),
       declare(&PdStrainLimit::sigma_min_, "sigma_min", 0.719, 0.0, 1.0, "Smallest principal stretch before the limit pulls."),
       declare(&PdStrainLimit::sigma_max_, "sigma_max", 1.281, 1.0, 10.0, "Largest principal stretch before the limit pulls.")});
  return params;
}

PdStrainLimit::PdStrainLimit() { resetToDefaults(); }

Scalar2 PdStrainLimit::a(double x) const {
  const Scalar2 arap = stretchLimitTerm(x, arap_weight_, 1.0, 1.0), limit = stretchLimitTerm(x, limit_weight_, sigma_min_, sigma_max_);
  return {arap.v + limit.v, arap.d1 + limit.d1, arap.d2 + limit.d2};
}

}  // namespace qnsim
