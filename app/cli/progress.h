#pragma once
// A one-line progress bar on stderr, drawn only when stderr is a terminal.
#include <string>

namespace qnsim::cli {

class ProgressBar {
 public:
  ProgressBar(int total, bool enabled);
  void update(int done, const std::string& detail);
  void finish();  // ends the bar's line (also before a message); the next update draws it again

 private:
  int total_;
  bool enabled_;
  bool drawn_ = false;
};

}  // namespace qnsim::cli
