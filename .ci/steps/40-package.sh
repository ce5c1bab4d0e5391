# ci-step: Package: install to a temporary prefix, then build and run the consumer projects
#
# 1. A fresh configure of dmlref with tests, examples, benchmarks and tools off (nothing to build),
#    installed with `cmake --install --prefix`; the prefix is then moved, so every consumer below
#    proves that the installed CMake package and dmlref.pc are relocatable.
# 2. tests/consumers/find_package: find_package(dmlref CONFIG REQUIRED), plus the optional
#    <dmlref/fmt.hpp> and <dmlref/dlpack.hpp> from the install; find_package(dmlref <next major>)
#    must refuse the package (SameMajorVersion), and a 32-bit consumer must be served (ARCH_INDEPENDENT).
#    consumer_separate builds the installed headers in DMLREF_SEPARATE_KERNELS mode (two files,
#    the kernels defined in one).
# 3. tests/consumers/add_subdirectory: dmlref's source tree as a subproject must define no test,
#    example, benchmark or tool targets and register no tests, although the parent tests.
# 4. tests/consumers/pkg_config: compiled with `pkg-config --cflags --libs dmlref` only, as C++20
#    with clang++ (the CMake consumers use g++ and C++17).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dmlref-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi

run() {
  printf '$ %s\n' "$*"
  "$@"
}

echo "--- install"
run cmake -S "$root" -B "$work/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DDMLREF_BUILD_TESTS=OFF -DDMLREF_BUILD_EXAMPLES=OFF -DDMLREF_BUILD_BENCHMARKS=OFF -DDMLREF_BUILD_TOOLS=OFF \
  -DDMLREF_BUILD_PYTHON=OFF -DDMLREF_INSTALL=ON >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
run cmake --build "$work/build"
run cmake --install "$work/build" --prefix "$work/staged" >"$work/install.log" || { cat "$work/install.log"; exit 1; }
run mv "$work/staged" "$work/prefix"
prefix=$work/prefix
for f in include/dmlref/dmlref.hpp include/dmlref/version.hpp include/dmlref/dlpack.hpp include/dmlref/fmt.hpp \
         share/cmake/dmlref/dmlrefConfig.cmake share/cmake/dmlref/dmlrefConfigVersion.cmake \
         share/cmake/dmlref/dmlrefTargets.cmake share/pkgconfig/dmlref.pc; do
  [[ -f "$prefix/$f" ]] || { echo "not installed: $f" >&2; exit 1; }
done
if grep -rl "$work/staged" "$prefix" >/dev/null; then
  echo "the installed files name the install prefix; they must be relocatable:" >&2
  grep -rl "$work/staged" "$prefix" >&2
  exit 1
fi
echo "installed $(find "$prefix" -type f | wc -l) files; none names the prefix"

echo "--- find_package"
run cmake -S tests/consumers/find_package -B "$work/find_package" "${generator[@]}" \
  -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=17 -DCMAKE_PREFIX_PATH="$prefix"
run cmake --build "$work/find_package" -j 2
run "$work/find_package/consumer"
run "$work/find_package/consumer_interop"
run "$work/find_package/consumer_separate"
version=$(sed -n 's/^#define DMLREF_VERSION_MAJOR \([0-9]*\)$/\1/p' include/dmlref/version.hpp)
minor=$(sed -n 's/^#define DMLREF_VERSION_MINOR \([0-9]*\)$/\1/p' include/dmlref/version.hpp)
next_major=$((version + 1)).0
# The version file alone decides; a script (no project, no compiler checks) is enough to ask it.
cat >"$work/next_major.cmake" <<'CMAKE'
cmake_minimum_required(VERSION 3.21)
find_package(dmlref ${version} CONFIG QUIET PATHS ${prefix} NO_DEFAULT_PATH)
if(dmlref_FOUND)
  message(FATAL_ERROR "find_package(dmlref ${version}) accepted ${dmlref_CONFIG}")
endif()
if(NOT dmlref_CONSIDERED_VERSIONS)
  message(FATAL_ERROR "find_package(dmlref ${version}) did not even see the package under ${prefix}")
endif()
message(STATUS "find_package(dmlref ${version}) refused version ${dmlref_CONSIDERED_VERSIONS}")
# ARCH_INDEPENDENT: a 32-bit consumer asking for this very major version is served.
set(CMAKE_SIZEOF_VOID_P 4)
set(PACKAGE_FIND_VERSION ${current})
set(PACKAGE_FIND_VERSION_MAJOR ${major})
include(${prefix}/share/cmake/dmlref/dmlrefConfigVersion.cmake)
if(NOT PACKAGE_VERSION_COMPATIBLE OR PACKAGE_VERSION_UNSUITABLE)
  message(FATAL_ERROR "dmlrefConfigVersion.cmake refuses a 32-bit consumer of ${current}: ${PACKAGE_VERSION}")
endif()
message(STATUS "a 32-bit consumer asking for ${current} is served by ${PACKAGE_VERSION}")
CMAKE
run cmake -Dversion="$next_major" -Dmajor="$version" -Dcurrent="$version.$minor" -Dprefix="$prefix" -P "$work/next_major.cmake"

echo "--- add_subdirectory"
run cmake -S tests/consumers/add_subdirectory -B "$work/add_subdirectory" "${generator[@]}" \
  -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=17 -DDMLREF_SOURCE_DIR="$root"
run cmake --build "$work/add_subdirectory" -j 2
(cd "$work/add_subdirectory" && run ctest --output-on-failure)
tests=$(cd "$work/add_subdirectory" && ctest -N | sed -n 's/^Total Tests: //p')
[[ "$tests" == 1 ]] || { echo "the parent sees $tests tests; dmlref must add none" >&2; exit 1; }
run cmake --install "$work/add_subdirectory" --prefix "$work/parent-install" >/dev/null
if [[ -e "$work/parent-install" ]]; then
  echo "installing the parent installed dmlref's files; a subproject must add no install rules:" >&2
  find "$work/parent-install" -type f >&2
  exit 1
fi
echo "no tests, no install rules from the subproject"

echo "--- pkg-config"
export PKG_CONFIG_PATH="$prefix/share/pkgconfig"
run pkg-config --modversion dmlref
CXX=clang++ CXXSTD=c++20 run tests/consumers/pkg_config/build.sh "$work/pkg_config_consumer"
run "$work/pkg_config_consumer"
