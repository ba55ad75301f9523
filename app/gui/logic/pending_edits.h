#pragma once
// Edits the window has sent to the simulation thread that the latest snapshot does not show yet. The
// panels show them over the snapshot's values, so that a dragged slider does not jump back for the
// frame its edit waits in the queue. Transient: each is dropped once the snapshot has it.
#include <memory>
#include <string>
#include <vector>

#include "qnsim/material.h"
#include "qnsim/parameter.h"
#include "qnsim/settings.h"

namespace qnsim::gui {

class PendingEdits {
 public:
  // An edit numbered `number` (SimRunner::apply) that sets `key` to `value`.
  void sent(long number, std::string key, ParameterValue value);
  // One that gives the region named `region` this material.
  void sent(long number, std::string region, std::shared_ptr<const Material> material);
  // Drops the edits the snapshot shows: those numbered up to `edits_done`.
  void applied(long edits_done);

  // `settings` (a snapshot's) with the pending values of its keys.
  Settings over(Settings settings) const;
  // The region's pending material, or `shown` (a snapshot's) when none is pending.
  std::shared_ptr<const Material> material(const std::string& region, std::shared_ptr<const Material> shown) const;

 private:
  struct Value {
    long number;
    std::string key;
    ParameterValue value;
  };
  struct MaterialEdit {
    long number;
    std::string region;
    std::shared_ptr<const Material> material;
  };
  std::vector<Value> values_;  // oldest first
  std::vector<MaterialEdit> materials_;
};

}  // namespace qnsim::gui
