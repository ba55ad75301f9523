#include "app/cli/tetgen_flags.h"

#include <algorithm>

#include "core/mesh/tetgen_parameters.h"
#include "qnsim/error.h"

namespace qnsim::cli {

TetgenFlags addTetgenFlags(CLI::App* cmd, TetgenOptions& options) {
  TetgenFlags flags;
  for (const TetgenParameter& p : tetgenParameters()) {
    std::string flag = "--" + p.key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    const auto parse = [&options, &p, flag](const std::string& text) {
      try {
        p.assign(options, parseParameter(p, text));
      } catch (const Error& e) {
        const std::string why = e.what();  // "quality: ..." as the scene file says it; the flag is named already
        throw CLI::ValidationError(flag, why.starts_with(p.key + ": ") ? why.substr(p.key.size() + 2) : why);
      }
    };
    const std::string help = p.description + " " + describeRange(p) + ", default " + formatParameter(p, p.default_value);
    flags.push_back(cmd->add_option_function<std::string>(flag, parse, help)->type_name(p.type == Parameter::Type::Integer ? "INT" : "REAL"));
  }
  return flags;
}

bool given(const TetgenFlags& flags) {
  return std::any_of(flags.begin(), flags.end(), [](const CLI::Option* flag) { return flag->count() > 0; });
}

}  // namespace qnsim::cli
