#!/usr/bin/env bash
# Fuzzes the file readers: tests/fuzz/run.sh SECONDS [TARGET...] (default: every target).
# Configures and builds the fuzz build (build-fuzz: clang, -DQNSIM_FUZZ=ON, the core and the fuzzers
# only) when needed, then runs each target for SECONDS, one after the other, under AddressSanitizer and
# UndefinedBehaviorSanitizer. Each target starts from its seeds (tests/fuzz/corpus/<target>) and from
# what earlier runs found (build-fuzz/fuzz-runs/<target>/corpus, never committed). Exits non-zero when
# any target crashed, leaked, hung, ran out of memory or drew a sanitizer report, naming the target,
# the input that did it and the log.
set -euo pipefail
cd "$(dirname "$0")/../.."

all_targets=($(ls tests/fuzz/corpus))  # a target per seed folder
if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 SECONDS [TARGET...]   (targets: ${all_targets[*]})" >&2
  exit 2
fi
seconds=$1
shift
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

build=build-fuzz
if [[ ! -f $build/CMakeCache.txt ]]; then
  launcher=()
  command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQNSIM_FUZZ=ON \
    -DQNSIM_BUILD_GUI=OFF -DQNSIM_BUILD_TESTS=OFF -DQNSIM_BUILD_BENCH=OFF -DQNSIM_BUILD_PYTHON=OFF "${launcher[@]}"
fi
cmake --build "$build" -j2 --target qnsim_fuzz

# Any report ends the run; leaks count. A single input may take 10 s (a hang otherwise) and 2 GB; one
# allocation over 512 MB from a 4 kB input is a finding too.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
failed=()
for target in "${targets[@]}"; do
  program=$build/tests/fuzz/fuzz_$target
  [[ -x $program ]] || { echo "no fuzz target '$target' ($program)" >&2; exit 2; }
  out=$build/fuzz-runs/$target
  artifacts=$out/findings-$(date +%Y%m%d-%H%M%S)  # a run's own folder: earlier findings stay
  mkdir -p "$out/corpus" "$artifacts"
  dict=()
  [[ -f tests/fuzz/$target.dict ]] && dict=(-dict="tests/fuzz/$target.dict")
  echo "== $target: ${seconds} s"
  status=0
  "$program" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${dict[@]}" "$out/corpus" "tests/fuzz/corpus/$target" > "$out/log.txt" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log.txt" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/log.txt" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$out/log.txt" | tail -1)
  echo "   ${runs:-?} inputs, ${speed:-?} exec/s, peak ${rss:-?} MB, corpus $(ls "$out/corpus" | wc -l) files"
  rmdir "$artifacts" 2> /dev/null || true  # nothing found
  if [[ $status -ne 0 ]]; then
    failed+=("$target")
    echo "   FAILED (exit status $status): $(grep -m1 -E 'ERROR: |runtime error|SUMMARY' "$out/log.txt" || true)"
    for input in "$artifacts"/*; do [[ -e $input ]] && echo "   input: $input"; done
    echo "   log: $out/log.txt"
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzzing found problems in: ${failed[*]}" >&2
  echo "fix the reader, then add the input as tests/fuzz/corpus/<target>/regression-<what> (replayed by test_fuzz_corpus.cpp)" >&2
  exit 1
fi
echo "no findings"
