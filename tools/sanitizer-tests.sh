#!/usr/bin/env bash
# Builds the core tests with AddressSanitizer + UndefinedBehaviorSanitizer (QNSIM_SANITIZE) in
# build-asan and runs them; any sanitizer report fails its test. Used by CI after the README's test
# command. The long runs (the paper's claims, the catalog's regression and scene runs, the
# experiments, the committed assets and the CLI's end-to-end runs) are left out: under the sanitizers
# they take hours on two cores (docs/reliability.md). So is the install test of the embedding example:
# it builds a program of its own against the installed library, which here carries the sanitizers'
# instrumentation that program is not linked with. The sandbox and the Python module are not built.
# Debug information is line tables only (-g1): the sanitizers' reports still name file and line, and
# the build takes about a quarter less time than with full -g (its objects a quarter of the size).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -DQNSIM_SANITIZE=ON -DQNSIM_BUILD_GUI=OFF -DQNSIM_BUILD_BENCH=OFF -DQNSIM_BUILD_PYTHON=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" "$@"
cmake --build build-asan -j2 --target qnsim_tests qnsim
ctest --test-dir build-asan --output-on-failure -j2 --timeout 900 \
  -E "Claims|Regression|CatalogScene|TimeStepTorture|QuickExperiment|AssetTest|Cli\.|library\.embed_example"
