#pragma once
// The figures defined outside experiments.cpp, each in the file of its kind (conditioning.cpp,
// strain_limit.cpp, cloth.cpp, recovery.cpp, pictures.cpp, timing_tables.cpp, table1_errors.cpp, pbd.cpp, contact.cpp); experiments.cpp lists them all in
// the paper's order, then the comparisons the paper does not make.
#include "experiments/convergence.h"

namespace qnsim {

ExperimentReport fig2(const ExperimentOptions& options);  // Figs. 2-6: pictures of the scenes (pictures.cpp)
ExperimentReport fig3(const ExperimentOptions& options);
ExperimentReport fig4(const ExperimentOptions& options);
ExperimentReport fig5(const ExperimentOptions& options);
ExperimentReport fig6(const ExperimentOptions& options);
ExperimentReport fig9(const ExperimentOptions& options);  // and Table II
ExperimentReport fig11(const ExperimentOptions& options);
ExperimentReport fig12(const ExperimentOptions& options);
ExperimentReport fig18(const ExperimentOptions& options);
ExperimentReport contact(const ExperimentOptions& options);  // penalty against barrier contact (contact.cpp)
ExperimentReport pbd(const ExperimentOptions& options);  // position-based FEM beside ours (pbd.cpp)
ExperimentReport solvers(const ExperimentOptions& options);  // every method at equal accuracy (solvers.cpp)
ExperimentReport table1(const ExperimentOptions& options);
ExperimentReport table1Errors(const ExperimentOptions& options);  // Table I's errors explained (table1_errors.cpp)
ExperimentReport teaser(const ExperimentOptions& options);

// Table II: cond(A0^-1 Hess g(x)) at the start of the stretched cube's frame, per initial Hessian and
// configuration, and the convergence of both A0 in both configurations (Fig. 9).
struct Table2 {
  double rest_config1, rest_config2, ours_config1, ours_config2;
  std::vector<MethodResult> results;
};
Table2 measureTable2(int iterations);

// "holds" or "does not hold": a claim's verdict in a summary.
std::string verdict(bool holds);

}  // namespace qnsim
