#include "bench/roofline.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <thread>
#include <vector>

#include "bench/roofline_kernels.h"
#include "core/common/simd.h"
#include "core/material/models.h"
#include "core/math/polar3.h"
#include "core/solver/system_matrix.h"
#include "qnsim/scene.h"
#include "qnsim/simulation.h"

namespace qnsim::bench {
namespace {

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Runs job(t) on `threads` threads at once; the best wall time of `trials`.
template <class Job>
double bestParallelSeconds(int threads, int trials, const Job& job) {
  double best = 1e30;
  for (int trial = 0; trial < trials; ++trial) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t) workers.emplace_back(job, t);
    job(0);
    for (std::thread& w : workers) w.join();
    best = std::min(best, seconds(start));
  }
  return best;
}

// a[i] = b[i] + s c[i], `repeats` times: STREAM's triad, 24 bytes moved per element (two reads, one
// write; a write-allocating cache reads the written line too, which STREAM does not count).
void triad(double* a, const double* b, const double* c, std::size_t n, double s, int repeats) {
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
    asm volatile("" : : "r"(a) : "memory");  // each repeat's stores happen
  }
}

// The portable peak: 48 independent chains of multiply-adds (96 flops per step, as fmaChainsAvx2).
double multiplyAddChains(long iterations) {
  double acc[48];
  for (int k = 0; k < 48; ++k) acc[k] = 1.0 + 1e-3 * k;
  for (long i = 0; i < iterations; ++i)
    for (double& a : acc) a = a * 0.999999 + 1e-7;
  double sum = 0.0;
  for (double a : acc) sum += a;
  return sum;
}

// Triad over three arrays of working_set / 3 bytes per thread, repeated to move about 2 GB per thread.
double triadBandwidth(int threads, double working_set) {
  const std::size_t n = std::max<std::size_t>(64, static_cast<std::size_t>(working_set / 24));
  const int repeats = std::max(1, static_cast<int>(2e9 / (24.0 * n)));
  std::vector<std::vector<double>> a(threads, std::vector<double>(n, 0.0)), b(threads, std::vector<double>(n, 1.0)),
      c(threads, std::vector<double>(n, 2.0));
  const double s = bestParallelSeconds(threads, 3, [&](int t) { triad(a[t].data(), b[t].data(), c[t].data(), n, 0.5, repeats); });
  return threads * 24.0 * n * repeats / s / 1e9;
}

// The peak of the widest fused multiply-adds qnsim's kernels run on this processor.
double peakGflops(int threads) {
  constexpr long kIterations = 50'000'000;
  std::vector<double> sink(threads);
  const bool wide = avx512Available();
  const auto chains = wide ? fmaChainsAvx512 : avx2Available() ? fmaChainsAvx2 : multiplyAddChains;
  const double s = bestParallelSeconds(threads, 3, [&](int t) { sink[t] = chains(kIterations); });
  return threads * (wide ? 192.0 : 96.0) * kIterations / s / 1e9;
}

}  // namespace

double Roofs::bandwidthFor(double bytes) const {
  for (const Bandwidth& b : bandwidth)
    if (b.working_set_bytes >= bytes) return b.gb_per_s;
  return bandwidth.back().gb_per_s;
}

Roofs measureRoofs(int threads) {
  Roofs roofs;
  roofs.threads = threads;
  roofs.peak_gflops = peakGflops(threads);
  // L1, then steps through the L2 sizes of today's processors (0.5 to 2 MiB per core), L3, memory.
  for (double kib : {24.0, 512.0, 1024.0, 2048.0, 4096.0, 16384.0, 262144.0})
    roofs.bandwidth.push_back({kib * 1024, triadBandwidth(threads, kib * 1024)});
  return roofs;
}

// Flops per tet of the strain-polynomial kernel (core/objective/tet_kernels.inc, a fused
// multiply-add counted as 2), for the terms it runs (the union of the regions' forms) and polar
// iterations of `polar_steps` Newton steps: F from the corners 54, the det test 14, each polar step 87
// (the cofactors 27, det 5, a division, the update and its size 54), E = sym(R^T F) - I 54, each power
// of E past the second 30, each term mu_k tr(E^k) with its part of G 39, lambda's term 12, P = R G 45,
// the corner forces 63, the energy 1.
double strainPolynomialFlops(const std::vector<StrainPolynomial>& forms, double polar_steps) {
  int degree = 2, powers = 0;
  bool lambda = false;
  for (int k = 2; k <= 6; ++k) {
    bool present = false;
    for (const StrainPolynomial& f : forms) present = present || f.mu[k] != 0.0;
    if (present) ++powers, degree = k;
  }
  for (const StrainPolynomial& f : forms) lambda = lambda || f.lambda != 0.0;
  return 231 + 87 * polar_steps + 30 * (degree - 2) + 39 * powers + (lambda ? 12 : 0);
}

// The strain-polynomial forms of every solid region, when each has one and no fibre (the regions the
// kernel runs); empty otherwise.
std::vector<StrainPolynomial> strainPolynomialForms(const Model& model) {
  std::vector<StrainPolynomial> forms;
  for (int region = 0; region < static_cast<int>(model.regions.size()); ++region) {
    if (!model.regions[region].is_solid()) continue;
    const auto* material = dynamic_cast<const StrainPolynomialMaterial*>(&model.solid(region));
    const std::optional<StrainPolynomial> form = material ? material->polynomialForm() : std::nullopt;
    if (!form || model.regions[region].fiber.kappa != 0.0) return {};
    forms.push_back(*form);
  }
  return forms;
}

// The mean number of polar steps over the tets at x (polarSteps: 0 for the flat and inverted ones).
double meanPolarSteps(const Model& model, const VecX& x) {
  double steps = 0;
  for (int e = 0; e < model.tets.size(); ++e) steps += polarSteps(model.tets.deformationGradient(x, e));
  return model.tets.size() > 0 ? steps / model.tets.size() : 0.0;
}

// The counts, per operation (n vertices, T tets, S springs):
// - g and its gradient: each tet streams its 4 corner indices (16 bytes), Dm^-1 (72), V (8), writes its
//   energy (8) and 4 corner forces (96), and the assembly reads each force again with its slot index
//   (4 x 28); each vertex reads its incidence start, mass, x and y and writes its gradient and energy
//   (92); a spring streams 2 indices, its rest length, region and flag (21) and writes energy and force
//   (32), read again with 2 slot indices (2 x 28). The corners' positions are gathered from a vector of
//   24 n bytes that stays in cache, and are not counted. Flops for Neo-Hookean tets (the AVX2 kernel:
//   244 per tet, counted in its source), strain-polynomial ones (strainPolynomialFlops), 3 per corner
//   force added, and springs (30 each); none for the other materials.
// - one solve with A (n x n, 3 columns at once): forward and back substitution each read L's e entries
//   (8 bytes) with their row index (4; the supernodes' shared patterns make this an upper bound) and
//   do 2 flops per entry and column; the diagonal and the permutation add 12 n bytes, the right-hand
//   side is read and written twice (96 n).
// - one L-BFGS direction with p stored pairs: each loop reads s_i or t_i and the vector q of 3n doubles
//   twice and writes q once per pair (96 n bytes, a dot product and an axpy: 12 n flops), both loops and
//   the pair's update (4 vectors, 2 dot products).
std::vector<PhaseCost> scenePhases(const std::string& scene_path, int threads, int frames) {
  Scene scene = loadScene(scene_path);
  applyOverride(scene, "threads", std::to_string(threads));
  Simulation sim(scene);
  PhaseTimes total;
  double iterations = 0, trials = 0, pairs = 0;
  const int m = sim.settings().solver.lbfgs_window;
  const int run = std::min(frames > 0 ? frames : scene.frames, scene.frames);
  for (int f = 0; f < run; ++f) {
    sim.step();
    const FrameRecord& r = sim.lastFrame();
    total += r.times;
    iterations += r.iterations, trials += r.ls_trials;
    for (int k = 0; k < r.iterations; ++k) pairs += std::min(k, m);
  }
  const Model& model = sim.model();
  const double n = model.vertexCount(), T = model.tets.size(), S = model.springs.size();
  bool neo_hookean = T > 0;
  for (int region = 0; region < static_cast<int>(model.regions.size()); ++region)
    if (model.regions[region].is_solid()) neo_hookean &= dynamic_cast<const NeoHookean*>(&model.solid(region)) != nullptr;
  const double entries = static_cast<double>(SystemMatrix(model, 1.0 / (scene.settings.time_step * scene.settings.time_step)).factorEntries());

  std::vector<PhaseCost> phases;
  const double evaluations = run + trials;  // one at each frame's start, one per line-search trial
  PhaseCost g{"elements (g and gradient)", "evaluation", evaluations / run};
  g.bytes = T * (16 + 72 + 8 + 8 + 96 + 4 * 28) + n * 92 + S * (21 + 32 + 2 * 28);
  const std::vector<StrainPolynomial> forms = strainPolynomialForms(model);
  const double per_tet = neo_hookean ? 244 : !forms.empty() ? strainPolynomialFlops(forms, meanPolarSteps(model, sim.positions())) : 0;
  g.flops = (per_tet > 0 || T == 0) ? T * (per_tet + 12) + S * 30 + n * 17 : 0;
  g.working_set_bytes = g.bytes;
  g.measured_us = 1e3 * (total.gradient + total.line_search) / evaluations;
  phases.push_back(g);
  if (entries > 0) {
    PhaseCost solve{"solves with A", "solve", iterations / run};
    solve.bytes = 2 * entries * 12 + n * 12 + 96 * n;
    solve.flops = 2 * 2 * 3 * entries + 6 * n;
    solve.working_set_bytes = entries * 12 + n * 36;
    solve.measured_us = 1e3 * total.linear_solve / iterations;
    phases.push_back(solve);
  }
  const double p = iterations > 0 ? pairs / iterations : 0;
  PhaseCost lbfgs{"L-BFGS loops", "direction", iterations / run};
  lbfgs.bytes = (2 * p + 1) * 96 * n;
  lbfgs.flops = (2 * p + 1) * 12 * n;
  lbfgs.working_set_bytes = (2 * m + 2) * 24 * n;
  lbfgs.measured_us = 1e3 * total.lbfgs / iterations;
  phases.push_back(lbfgs);
  return phases;
}

std::string roofsTable(const Roofs& roofs) {
  std::ostringstream md;
  char line[160];
  std::snprintf(line, sizeof line, "Peak: **%.1f GFLOP/s** (%s on %d thread(s)).\n\n", roofs.peak_gflops,
                avx512Available() ? "eight-lane FMA chains" : avx2Available() ? "four-lane FMA chains" : "scalar multiply-add chains",
                roofs.threads);
  md << line << "| working set (all arrays, per thread) | triad bandwidth, all threads (GB/s) |\n|---:|---:|\n";
  for (const Bandwidth& b : roofs.bandwidth) {
    std::snprintf(line, sizeof line, "| %.0f KiB | %.1f |\n", b.working_set_bytes / 1024, b.gb_per_s);
    md << line;
  }
  return md.str();
}

std::string phaseTable(const std::string& scene, const std::vector<PhaseCost>& phases, const Roofs& roofs) {
  std::ostringstream md;
  md << "| " << scene
     << " | per frame | KiB | kflop | working set (KiB) | measured (µs) | GB/s | GFLOP/s | bound (µs) | measured / bound |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  const auto number = [](double value, const char* format) {
    if (!(value > 0)) return std::string("—");  // flops not counted
    char text[32];
    std::snprintf(text, sizeof text, format, value);
    return std::string(text);
  };
  for (const PhaseCost& p : phases) {
    const double bandwidth = roofs.bandwidthFor(p.working_set_bytes);
    const double bound = 1e6 * std::max(p.bytes / (bandwidth * 1e9), p.flops / (roofs.peak_gflops * 1e9));
    md << "| " << p.phase << " (per " << p.operation << ") | " << number(p.operations_per_frame, "%.1f") << " | "
       << number(p.bytes / 1024, "%.0f") << " | " << number(p.flops / 1e3, "%.0f") << " | " << number(p.working_set_bytes / 1024, "%.0f")
       << " | " << number(p.measured_us, "%.1f") << " | " << number(p.bytes / (p.measured_us * 1e3), "%.1f") << " | "
       << number(p.flops / (p.measured_us * 1e3), "%.1f") << " | " << number(bound, "%.1f") << " | "
       << number(p.measured_us / bound, "%.1f") << " |\n";
  }
  return md.str();
}

}  // namespace qnsim::bench
