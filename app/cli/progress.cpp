#include "app/cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace qnsim::cli {

ProgressBar::ProgressBar(int total, bool enabled) : total_(total), enabled_(enabled && isatty(fileno(stderr))) {}

void ProgressBar::update(int done, const std::string& detail) {
  if (!enabled_) return;
  constexpr int kWidth = 30;
  const int filled = total_ > 0 ? done * kWidth / total_ : kWidth;
  std::fprintf(stderr, "\r[%.*s%*s] %d/%d %s\x1b[K", filled, "##############################", kWidth - filled, "", done, total_,
               detail.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (drawn_) std::fprintf(stderr, "\n");
  drawn_ = false;
}

}  // namespace qnsim::cli
