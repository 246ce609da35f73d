#!/usr/bin/env bash
# Installs the Debian 12 packages Tessera needs (only those missing) and configures the build.
#
#   scripts/setup.sh              configure build/ (RelWithDebInfo: -O2, line tables)
#   scripts/setup.sh --sanitize   configure build-asan/ with clang, AddressSanitizer + UBSan and the
#                                 libFuzzer targets of fuzz/ (no viewer, Python or benchmarks)
#   scripts/setup.sh --tsan       configure build-tsan/ with clang and ThreadSanitizer (no fuzz
#                                 targets, viewer, Python, samples or benchmarks)
#   scripts/setup.sh --deps-only  install packages, configure nothing
#
# Safe to run again: installed packages are skipped and an existing build is reconfigured.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build   # toolchain
  catch2                              # C++ tests (Catch2 v2)
  nlohmann-json3-dev                  # engine options (POPLAR_ENGINE_OPTIONS)
  libbenchmark-dev                    # bench/
  libopenblas-dev                     # bench_matmul's baseline (cblas_sgemm on one thread)
  libsqlite3-dev                      # profile.pop (profiler/)
  capnproto libcapnp-dev              # packed blobs in profile.pop, serialized graph
  libcbor-dev                         # debug.cbor
  libcli11-dev                        # the pva command-line tool (header-only CLI11)
  pybind11-dev python3-dev            # the Python modules pva and libpvti
  python3-pytest python3-numpy        # Python tests; per-tile arrays as numpy arrays
  qt6-base-dev fonts-dejavu-core      # the viewer (Qt 6 Widgets), and a font for headless rendering
  libgraphviz-dev                     # the viewer's graph view: libgvc lays out the serialized graph
  clang-14 libclang-14-dev            # codelets: popc finds vertex classes with libclang, clang-14 compiles them
  clang-format-14                     # scripts/check-format.sh (ctest: format)
  python3-clang-14                    # scripts/poplibs_parity.py (ctest: poplibs_parity) reads headers with libclang
  libclang-rt-14-dev                  # the sanitizer build and the fuzz targets (libFuzzer)
  openmpi-bin libopenmpi-dev          # poprun launches instances with mpirun; gcl moves data with MPI
)

build_dir=build
# Optimised with minimal debug information (-g1: functions and line tables, no local variables):
# backtraces, perf and sanitizer-style reports name file:line, and the build takes a fifth less
# CPU than with -g (measured on the engine's and libpva's largest units). For a debugger's view of
# locals, configure a separate tree with -DCMAKE_BUILD_TYPE=Debug.
cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython3_EXECUTABLE=/usr/bin/python3
            -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG")
configure=1
sanitizer_flags=(-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG"
                 -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG")
for arg in "$@"; do
  case "$arg" in
    --sanitize)
      # Optimised (sanitizers at -O0 make the engine-driven tests several times slower) with
      # line tables: all a sanitizer report needs (file:line of every frame); full debug info
      # costs a tenth more compile time and serves debuggers. Shared libraries, as in build/: the
      # vertices of the op libraries register themselves from static initialisers, which static
      # linking drops.
      build_dir=build-asan
      cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14
                  "${sanitizer_flags[@]}"
                  -DTESSERA_SANITIZE=ON -DTESSERA_BUILD_FUZZ=ON -DTESSERA_BUILD_VIEWER=OFF -DTESSERA_BUILD_PYTHON=OFF
                  -DTESSERA_BUILD_BENCH=OFF -DBUILD_SHARED_LIBS=ON) ;;
    --tsan)
      # As --sanitize (optimised, line tables, shared libraries), with ThreadSanitizer instead:
      # the engine's host threads, the profiler's and libpvti's background writers.
      build_dir=build-tsan
      cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14
                  "${sanitizer_flags[@]}"
                  -DTESSERA_SANITIZE_THREAD=ON -DTESSERA_BUILD_VIEWER=OFF -DTESSERA_BUILD_PYTHON=OFF
                  -DTESSERA_BUILD_BENCH=OFF -DTESSERA_BUILD_SAMPLES=OFF -DBUILD_SHARED_LIBS=ON) ;;
    --deps-only) configure=0 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "setup.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup.sh: all packages present"
fi

if [ "$configure" -eq 1 ]; then
  cmake -S . -B "$build_dir" "${cmake_args[@]}"
  echo "setup.sh: configured $build_dir/ — build with: cmake --build $build_dir -j2"
fi
