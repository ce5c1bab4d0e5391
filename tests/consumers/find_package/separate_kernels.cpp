// The one translation unit of consumer_separate that compiles dmlref's kernels: with
// DMLREF_KERNELS_IMPLEMENTATION, detail/kernels.hpp instantiates every one of them here.
#define DMLREF_KERNELS_IMPLEMENTATION
#include <dmlref/dmlref.hpp>
