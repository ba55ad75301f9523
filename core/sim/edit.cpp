// Edits as text (qnsim/edit.h): `--set KEY=VALUE` parsed by the key's declaration, and a line for lists.
#include <sstream>
#include <type_traits>

#include "qnsim/edit.h"
#include "qnsim/parameters.h"

namespace qnsim {

SetParameter parseAssignment(std::string_view assignment) {
  auto [key, text] = splitAssignment(assignment);
  return {std::move(key), std::move(text)};
}

std::string describe(const Edit& edit) {
  std::ostringstream out;
  std::visit(
      [&](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, SetParameter>) {
          out << e.key << " = ";
          std::visit([&](const auto& v) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Vec2> || std::is_same_v<std::decay_t<decltype(v)>, Vec3>)
              out << v.transpose();
            else
              out << v;
          }, e.value);
        } else if constexpr (std::is_same_v<T, SetMaterial>) {
          out << "material " << e.region << ": " << (e.material ? std::string(e.material->model()) : "none");
        } else if constexpr (std::is_same_v<T, PinVertices>) {
          out << "pin " << e.vertices.size() << " vertices";
        } else if constexpr (std::is_same_v<T, UnpinVertices>) {
          out << "unpin " << e.vertices.size() << " vertices";
        } else if constexpr (std::is_same_v<T, SetDrag>) {
          out << (e.drags.empty() ? "release the drag" : "drag " + std::to_string(e.drags.size()) + " vertices");
        } else if constexpr (std::is_same_v<T, Cut>) {
          out << "cut";
        } else if constexpr (std::is_same_v<T, SetCollider>) {
          out << "move collider " << e.collider.name;
        } else if constexpr (std::is_same_v<T, LoadState>) {
          out << "load the state of frame " << e.state.frame;
        } else {
          out << "reset";
        }
      },
      edit);
  return out.str();
}

}  // namespace qnsim
