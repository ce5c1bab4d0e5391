// support/runner.hpp: the typed layer, for every data type (as itself and as its storage type)
// and every index type: compiled here once.
#include <cstdint>

#include <dmlref/dmlref.hpp>

#include "support/runner.hpp"

namespace harness {

namespace {

template <class T>
struct Tag {
  using type = T;
};

template <class F>
dmlref::Status with_native_type(dmlref::DataType t, F&& f) {
  using dmlref::DataType;
  switch (t) {
    case DataType::FLOAT32: return f(Tag<float>{});
    case DataType::FLOAT16: return f(Tag<dmlref::float16>{});
    case DataType::FLOAT64: return f(Tag<double>{});
    case DataType::INT8: return f(Tag<std::int8_t>{});
    case DataType::INT16: return f(Tag<std::int16_t>{});
    case DataType::INT32: return f(Tag<std::int32_t>{});
    case DataType::INT64: return f(Tag<std::int64_t>{});
    case DataType::UINT8: return f(Tag<std::uint8_t>{});
    case DataType::UINT16: return f(Tag<std::uint16_t>{});
    case DataType::UINT32: return f(Tag<std::uint32_t>{});
    case DataType::UINT64: return f(Tag<std::uint64_t>{});
    case DataType::UNKNOWN: break;
  }
  return dmlref::Status();
}

template <class F>
dmlref::Status with_storage_type(std::size_t size, F&& f) {
  switch (size) {
    case 1: return f(Tag<std::uint8_t>{});
    case 2: return f(Tag<std::uint16_t>{});
    case 4: return f(Tag<std::uint32_t>{});
    default: return f(Tag<std::uint64_t>{});
  }
}

template <class F>
dmlref::Status with_index_type(dmlref::DataType t, F&& f) {
  switch (t) {
    case dmlref::DataType::INT32: return f(Tag<std::int32_t>{});
    case dmlref::DataType::INT64: return f(Tag<std::int64_t>{});
    case dmlref::DataType::UINT32: return f(Tag<std::uint32_t>{});
    case dmlref::DataType::UINT64: return f(Tag<std::uint64_t>{});
    case dmlref::DataType::UNKNOWN:
    case dmlref::DataType::FLOAT32:
    case dmlref::DataType::FLOAT16:
    case dmlref::DataType::FLOAT64:
    case dmlref::DataType::INT8:
    case dmlref::DataType::INT16:
    case dmlref::DataType::UINT8:
    case dmlref::DataType::UINT16: break;  // typed_expressible() rules these out
  }
  return dmlref::Status();
}

template <class T>
dmlref::TensorView<T> view(const Operand& t) {
  T* p = static_cast<T*>(const_cast<void*>(t.data));  // T is const but for OutputTensor
  const dmlref::Shape sizes = dmlref::Shape::from(t.sizes, t.dimension_count);
  if (t.strides == nullptr) return {p, sizes};
  return {p, sizes, dmlref::Shape::from(t.strides, t.dimension_count)};
}

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
