// The one translation unit of dmlref_tests that compiles the kernels (DMLREF_SEPARATE_KERNELS is
// defined for the whole target, see tests/CMakeLists.txt).
#define DMLREF_KERNELS_IMPLEMENTATION
#include <dmlref/dmlref.hpp>
