#pragma once
// Warnings from the core go through one replaceable hook, so the app can show them in the UI and the
// tests can fail on any unexpected warning (as MuJoCo's test fixture does).
#include <functional>
#include <string>

namespace qnsim {

using WarningHandler = std::function<void(const std::string&)>;

// Installs a handler and returns the previous one. The default prints to stderr.
WarningHandler setWarningHandler(WarningHandler handler);
void warn(const std::string& message);

}  // namespace qnsim
