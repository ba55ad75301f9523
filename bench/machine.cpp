#include "bench/machine.h"

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
         __VERSION__ + ", sparse Cholesky " + QNSIM_SPARSE_BACKEND + ", " + date;
}

}  // namespace qnsim::bench
