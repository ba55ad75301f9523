// EditHistory (qnsim/history.h): each recorded edit with the edits that undo and redo it.
#include <algorithm>
#include <type_traits>

#include "core/scene/scene_parser.h"
#include "qnsim/history.h"
#include "qnsim/simulation.h"

namespace qnsim {
namespace {

std::shared_ptr<const Material> materialOf(const Simulation& sim, const std::string& name) {
  for (const Region& r : sim.model().regions)
    if (r.name == name) return r.material;
  return nullptr;  // apply() says what is wrong
}

// What puts back the part of the simulation `edit` changes, read before (or, to redo, after) it.
std::vector<Edit> restoring(const Simulation& sim, const Edit& edit) {
  if (const auto* p = std::get_if<SetParameter>(&edit)) {
    std::string name, constant;
    if (splitMaterialKey(p->key, name, constant)) return {SetMaterial{name, materialOf(sim, name)}};
    return {SetParameter{p->key, sim.value(p->key)}};
  }
  if (const auto* m = std::get_if<SetMaterial>(&edit)) return {SetMaterial{m->region, materialOf(sim, m->region)}};
  if (const auto* c = std::get_if<SetCollider>(&edit)) {
    if (c->index >= 0 && c->index < static_cast<int>(sim.scene().colliders.size())) return {SetCollider{c->index, sim.scene().colliders[c->index]}};
  }
  return {};
}

// What an edit of settings, materials or colliders changes ("" for the others), for merging a gesture's
// edits: a material constant and a model switch of one material change the same thing.
std::string target(const Edit& edit) {
  if (const auto* p = std::get_if<SetParameter>(&edit)) {
    std::string name, constant;
    return splitMaterialKey(p->key, name, constant) ? "material " + name : "setting " + p->key;
  }
  if (const auto* m = std::get_if<SetMaterial>(&edit)) return "material " + m->region;
  if (const auto* c = std::get_if<SetCollider>(&edit)) return "collider " + std::to_string(c->index);
  return "";
}

bool recorded(const Edit& edit) {
  return !std::holds_alternative<SetDrag>(edit) && !std::holds_alternative<LoadState>(edit) && !std::holds_alternative<Reset>(edit);
}

// Whether the edits of `a` and `b` leave the same settings, materials and colliders.
bool sameEffect(const std::vector<Edit>& a, const std::vector<Edit>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const bool same = std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          const T& y = std::get<T>(b[i]);
          if constexpr (std::is_same_v<T, SetParameter>) return x.value == y.value;
          else if constexpr (std::is_same_v<T, SetMaterial>) return x.material == y.material;
          else if constexpr (std::is_same_v<T, SetCollider>) return x.collider == y.collider;
          else return false;
        },
        a[i]);
    if (!same) return false;
  }
  return true;
}

// `current` less what is in `from` but not in `to`, plus what is in `to` but not in `from`.
template <class T>
std::vector<T> moved(std::vector<T> current, const std::vector<T>& from, const std::vector<T>& to) {
  const auto in = [](const std::vector<T>& list, const T& x) { return std::find(list.begin(), list.end(), x) != list.end(); };
  std::erase_if(current, [&](const T& x) { return in(from, x) && !in(to, x); });
  for (const T& x : to)
    if (!in(from, x) && !in(current, x)) current.push_back(x);
  return current;
}

template <class T>
std::vector<T> sorted(std::vector<T> list) {
  std::sort(list.begin(), list.end());
  return list;
}

}  // namespace

EditHistory::EditHistory(int limit) : limit_(std::max(limit, 1)) {}

EditHistory::Setup EditHistory::setupOf(const Simulation& sim) {
  const SimState s = sim.state();
  return {s.pins, s.released, s.removed};
}

EditResult EditHistory::apply(Simulation& sim, const Edit& edit, bool continuing) {
  if (!recorded(edit)) return sim.apply(edit);
  if (continuing && done_ == static_cast<int>(entries_.size()) && done_ > 0 && !target(edit).empty() &&
      entries_.back().target == target(edit))
    return merge(sim, edit);
  Entry entry;
  entry.target = target(edit);
  entry.description = describe(edit);
  entry.undo = restoring(sim, edit);
  entry.before = setupOf(sim);
  const EditResult result = sim.apply(edit);
  entry.redo = restoring(sim, edit);
  entry.after = setupOf(sim);
  entry.setup_changed = !(entry.before == entry.after);
  if (!entry.setup_changed && sameEffect(entry.undo, entry.redo)) return result;  // it changed nothing
  entries_.resize(done_);
  if (saved_ > done_) saved_ = -1;  // the saved point was among the edits undone and now forgotten
  entries_.push_back(std::move(entry));
  ++done_;
  if (static_cast<int>(entries_.size()) > limit_) {
    entries_.erase(entries_.begin());
    --done_;
    saved_ = saved_ > 0 ? saved_ - 1 : -1;
  }
  return result;
}

// The newest entry takes the edit in: it undoes to what it undid to and redoes to what the edit made;
// back where it started, it is dropped.
EditResult EditHistory::merge(Simulation& sim, const Edit& edit) {
  const EditResult result = sim.apply(edit);
  Entry& last = entries_.back();
  last.redo = restoring(sim, edit);
  last.description = describe(edit);
  if (sameEffect(last.undo, last.redo)) {
    entries_.pop_back();
    --done_;
    if (saved_ > done_) saved_ = -1;
  }
  return result;
}

EditResult EditHistory::undo(Simulation& sim) {
  if (!canUndo()) return {};
  const Entry& e = entries_[done_ - 1];
  const EditResult result = restore(sim, e.undo, e.after, e.before, e.setup_changed);
  --done_;
  return result;
}

EditResult EditHistory::redo(Simulation& sim) {
  if (!canRedo()) return {};
  const Entry& e = entries_[done_];
  const EditResult result = restore(sim, e.redo, e.before, e.after, e.setup_changed);
  ++done_;
  return result;
}

// The setup goes from `from` to `to`: exactly `to` when the simulation still has `from` (nothing happened
// since), else only the pins, released vertices and elements the edit changed.
EditResult EditHistory::restore(Simulation& sim, const std::vector<Edit>& edits, const Setup& from, const Setup& to, bool setup_changed) {
  EditResult result;
  for (const Edit& e : edits) result.effect = std::max(result.effect, sim.apply(e).effect);
  if (!setup_changed) return result;
  SimState s = sim.state();
  if (Setup{s.pins, s.released, s.removed} == from) {
    s.pins = to.pins, s.released = to.released, s.removed = to.removed;
  } else {
    s.pins = moved(s.pins, from.pins, to.pins);
    s.released = sorted(moved(s.released, from.released, to.released));
    s.removed.tets = sorted(moved(s.removed.tets, from.removed.tets, to.removed.tets));
    s.removed.springs = sorted(moved(s.removed.springs, from.removed.springs, to.removed.springs));
  }
  if (sim.settings().removal_matrix == RemovalMatrix::Refactor) s.matrix_removed = s.removed;  // A follows, as a cut's does
  result.effect = std::max(result.effect, sim.apply(LoadState{std::move(s)}).effect);
  return result;
}

std::vector<std::string> EditHistory::descriptions() const {
  std::vector<std::string> out;
  for (const Entry& e : entries_) out.push_back(e.description);
  return out;
}

void EditHistory::clear() {
  entries_.clear();
  done_ = saved_ = 0;
}

}  // namespace qnsim
