#!/usr/bin/env bash
# Builds main.cpp against an installed dmlref found by pkg-config alone (no CMake):
#   PKG_CONFIG_PATH=<prefix>/share/pkgconfig tests/consumers/pkg_config/build.sh OUTPUT
# CXX (default c++) and CXXSTD (default c++17) choose the compiler and the language standard;
# dmlref.pc deliberately carries no -std flag.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:?usage: build.sh OUTPUT}
flags=$(pkg-config --cflags --libs dmlref)
echo "pkg-config --cflags --libs dmlref: $flags"
set -x
# shellcheck disable=SC2086  # the flags are meant to split
"${CXX:-c++}" -std="${CXXSTD:-c++17}" -O1 -Wall -Wextra -Wpedantic -Werror "$here/main.cpp" $flags -o "$out"
