// The one translation unit of consumer_separate that compiles dmlref's kernels.
#define DMLREF_KERNELS_IMPLEMENTATION
#include <dmlref/dmlref.hpp>

#if !DMLREF_KERNEL_DEFINITIONS
#error "DMLREF_KERNELS_IMPLEMENTATION must define the kernels"
#endif
