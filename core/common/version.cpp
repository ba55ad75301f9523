#include "qnsim/version.h"

namespace qnsim {

const char* version() { return QNSIM_VERSION; }
const char* sparseBackend() { return QNSIM_SPARSE_BACKEND; }  // set by core/CMakeLists.txt

}  // namespace qnsim
