#include "core/common/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "qnsim/error.h"

namespace qnsim {

ModelSize& ModelSize::operator+=(const ModelSize& o) {
  solid_vertices += o.solid_vertices;
  tets += o.tets;
  cloth_vertices += o.cloth_vertices;
  springs += o.springs;
  return *this;
}

double estimateModelBytes(const ModelSize& s) {
  // Measured peaks (qnsim run, one frame): boxes of 10^3..40^3 cells stay below 45 (3 V)^(4/3) + 400 T
  // bytes; cloths of 200^2..800^2 vertices below 4.2 kB per vertex.
  constexpr double kFillPerSolidUnknown = 45.0, kPerTet = 400.0, kPerClothVertex = 6000.0, kPerSpring = 200.0;
  constexpr double kBase = 16e6;  // the program itself
  return kBase + kFillPerSolidUnknown * std::pow(3.0 * s.solid_vertices, 4.0 / 3.0) + kPerTet * s.tets +
         kPerClothVertex * s.cloth_vertices + kPerSpring * s.springs;
}

double availableMemoryBytes() {
  double bytes = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");  // "max" when unlimited
  double limit = 0;
  if (cgroup >> limit && limit > 0) bytes = std::min(bytes, limit);
  return bytes;
}

double peakResidentBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return 1024.0 * static_cast<double>(usage.ru_maxrss);  // Linux counts kilobytes
}

std::string formatBytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  int unit = 0;
  while (bytes >= 1000 && unit < 6) {
    bytes /= 1000;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return text;
}

void checkMemoryBudget(const ModelSize& size, double share, const std::string& what) {
  const double estimate = estimateModelBytes(size), available = availableMemoryBytes(), limit = share * available;
  if (estimate <= limit) return;
  char counts[160];
  std::snprintf(counts, sizeof counts, "%.0f vertices, %.0f tets and %.0f springs", size.solid_vertices + size.cloth_vertices, size.tets,
                size.springs);
  throw error(what, ": ", counts, " would need about ", formatBytes(estimate), ", more than the limit of ", formatBytes(limit), " (",
              share * 100, "% of this machine's ", formatBytes(available),
              "); use a coarser mesh, or raise the memory_share setting (up to 1) if you know it fits");
}

}  // namespace qnsim
