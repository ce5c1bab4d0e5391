// support/runner.hpp: the typed layer, for every data type (as itself and as its storage type)
// and every index type: compiled here once.
#include <cstdint>

#include <dmlref/dmlref.hpp>

#include "support/runner.hpp"
#include "support/type_switch.hpp"

namespace harness {

namespace {

template <class T, class I>
dmlref::Status call_typed(const Call& c) {
  const auto upd = c.uses(kUpdates) ? view<const T>(c.t[kUpdates]) : dmlref::TensorView<const T>();
  return call_operator(c, view<const T>(c.t[kInput]), view<const I>(c.t[kIndices]), upd, view<T>(c.t[kOutput]));
}

}  // namespace

dmlref::Status run_typed(const Call& c, Typed how) {
  auto with_data = [&](auto data) {
    return with_index_type(c.t[kIndices].type, [&](auto index) {
      return call_typed<typename decltype(data)::type, typename decltype(index)::type>(c);
    });
  };
  if (how == Typed::storage) return with_storage_type(dmlref::element_size(c.t[kInput].type), with_data);
  return with_native_type(c.t[kInput].type, with_data);
}

dmlref::Status run(const Call& c, Layer layer) {
  switch (layer) {
    case Layer::dispatch: return run_dispatch(c);
    case Layer::typed_native: return run_typed(c, Typed::native);
    case Layer::typed_storage: return run_typed(c, Typed::storage);
  }
  return dmlref::Status();
}

}  // namespace harness
