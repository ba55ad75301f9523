#pragma once
// One exception type for every user-facing failure: bad files, bad parameters, bad meshes.
// The message always names where the problem is (file and line, or the parameter / JSON field).
#include <sstream>
#include <stdexcept>
#include <string>

namespace qnsim {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Builds a message from streamable parts: throw error("file.json: line ", 3, ": bad value").
template <class... Parts>
Error error(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return Error(out.str());
}

}  // namespace qnsim
