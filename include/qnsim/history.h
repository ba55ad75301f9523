#pragma once
// Undo and redo of what the user makes of a scene: the edits of settings and material constants, model
// switches, pins and unpins, cuts and collider moves, each applied through EditHistory::apply and
// recorded with what undoes it. Undo puts the simulation's scene, pins, released handle vertices and
// removed elements back as they were before the edit; it does not rewind the motion (positions,
// velocities and time go on). Undone right after the edit, the next frame is the one the simulation would
// have run without it, bit for bit; an undone edit that changed A refactors it as the edit did.
// Threads: as Simulation (one thread at a time, the simulation's).
#include <string>
#include <vector>

#include "qnsim/edit.h"

namespace qnsim {

class Simulation;

class EditHistory {
 public:
  explicit EditHistory(int limit = 200);  // the oldest edits are forgotten beyond `limit`

  // Applies the edit (Simulation::apply) and records it; a new edit forgets the edits undone before it.
  // Drags, state loads and resets are applied but not recorded: they change the motion, not the scene.
  // `continuing`: the edit goes on a gesture (a slider being dragged), so when the newest edit changed the
  // same setting, material or collider, the two are one step to undo. Throws as Simulation::apply does,
  // recording nothing.
  EditResult apply(Simulation& sim, const Edit& edit, bool continuing = false);

  bool canUndo() const { return done_ > 0; }
  bool canRedo() const { return done_ < static_cast<int>(entries_.size()); }
  // Undoes the newest done edit (redoes the oldest undone one); nothing when there is none.
  EditResult undo(Simulation& sim);
  EditResult redo(Simulation& sim);

  // The recorded edits, oldest first (describe(edit)); the first done() of them are done.
  std::vector<std::string> descriptions() const;
  int done() const { return done_; }

  // Whether edits were done or undone since markSaved() (or since the start or clear()).
  bool modified() const { return saved_ != done_; }
  void markSaved() { saved_ = done_; }
  void clear();

 private:
  // The edits that live in the state: pins, released handle vertices, removed elements.
  struct Setup {
    std::vector<Pin> pins;
    std::vector<int> released;
    ElementSet removed;
    bool operator==(const Setup&) const = default;
  };
  // An edit: the edits that undo and redo its change of settings, materials and colliders, and its
  // change of the setup.
  struct Entry {
    std::string description, target;  // target: what a gesture's edits change (see apply)
    std::vector<Edit> undo, redo;       // edits of settings, materials and colliders
    bool setup_changed = false;         // pins, released handle vertices or removed elements
    Setup before, after;
  };
  static Setup setupOf(const Simulation& sim);
  EditResult merge(Simulation& sim, const Edit& edit);
  EditResult restore(Simulation& sim, const std::vector<Edit>& edits, const Setup& from, const Setup& to, bool setup_changed);

  int limit_;
  std::vector<Entry> entries_;
  int done_ = 0;
  int saved_ = 0;  // done_ when last saved; -1 when that point was forgotten
};

}  // namespace qnsim
