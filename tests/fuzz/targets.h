#pragma once
// The fuzz targets: one function per reader, fed a whole file's bytes. Compiled twice: into the
// libFuzzer programs (fuzz_main.cpp, -DQNSIM_FUZZ=ON) and into the test suite, which replays every
// file of tests/fuzz/corpus/<target>/ through the same function (test_fuzz_corpus.cpp).
//
// A qnsim::Error is a reader's expected answer to bad bytes and is swallowed. Anything else that
// escapes (another exception, such as the std::logic_error of a broken invariant of an accepted mesh),
// a crash, a hang, a leak or a sanitizer report is a finding.
#include <span>
#include <string_view>

namespace qnsim::fuzz {

struct Target {
  std::string_view name;  // also the corpus folder and the dictionary's name
  void (*run)(std::string_view bytes);
};

// medit, tetgen, gmsh, obj, off, stl, scene.
std::span<const Target> targets();
// Throws std::invalid_argument for an unknown name.
const Target& target(std::string_view name);

// The tetgen target reads a .node and an .ele file from one input, split at the first kEleMarker.
inline constexpr std::string_view kEleMarker = "@ele\n";

}  // namespace qnsim::fuzz
