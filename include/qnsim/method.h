#pragma once
// A method to compare: a named set of settings, written as the edits that make it from the current
// ones ("solver.method=pd", "solver.lbfgs_window=10"). The experiments, the sandbox's Compare tab and
// Python's compare_next_frame all name their methods this way.
#include <string>
#include <vector>

#include "qnsim/parameter.h"
#include "qnsim/settings.h"

namespace qnsim {

struct Method {
  std::string label;               // "lbfgs_m5", "pd"
  std::vector<std::string> edits;  // KEY=VALUE, setting keys as after --set
};

// `base` with the method's edits, each checked as --set checks it; throws qnsim::Error naming the method
// and the key of a rejected edit.
Settings applyMethod(const Settings& base, const Method& method);

// The largest declared effect of the method's edits.
Effect methodEffect(const Method& method);

// Methods compared on one frame (Simulation::compareNextFrame) share its objective and its A, so each
// may edit only the solver's settings (solver.*) and none that needs a new A (the stiffness fit); a
// method that changes more runs as a simulation of its own.
bool comparable(const Method& method);
// Throws qnsim::Error naming the method and the key of an edit that breaks this rule, or of one
// applyMethod rejects.
void checkComparable(const Method& method);

}  // namespace qnsim
