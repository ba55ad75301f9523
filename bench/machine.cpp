#include "bench/machine.h"
#include "qnsim/version.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

namespace qnsim::bench {

std::string describeMachine(int threads) {
  std::string cpu = "unknown CPU";
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  return cpu + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores, " + std::to_string(threads) + " thread(s), g++ " +
         __VERSION__ + ", " + QNSIM_BUILD_TYPE + " build, sparse Cholesky " + sparseBackend() +
         ", " + vectorKernels() + " kernels, " + date;
}

std::string loadAverage() {
  double load[3];
  if (getloadavg(load, 3) != 3) return "unknown";
  char text[48];
  std::snprintf(text, sizeof text, "%.2f / %.2f / %.2f", load[0], load[1], load[2]);
  return text;
}

}  // namespace qnsim::bench
