#ifndef DMLREF_DMLREF_HPP
#define DMLREF_DMLREF_HPP

/// dmlref: CPU reference implementations of DirectML's gather and scatter operators.
/// Umbrella header; every header below also stands alone.

#include "binding.hpp"
#include "config.hpp"
#include "data_type.hpp"
#include "executor.hpp"
#include "feature_level.hpp"
#include "float16.hpp"
#include "options.hpp"
#include "reduction.hpp"
#include "shape.hpp"
#include "status.hpp"
#include "tensor_view.hpp"
#include "version.hpp"
#include "runtime/tensor_desc.hpp"
#include "ops/gather.hpp"
#include "ops/gather_elements.hpp"
#include "ops/gather_nd.hpp"
#include "ops/scatter.hpp"
#include "ops/scatter_nd.hpp"

#endif  // DMLREF_DMLREF_HPP
