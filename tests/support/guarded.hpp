// A byte buffer with guard bytes on both sides, for tests that must prove what a call wrote.
//
//   guarded::Buffer out(6 * sizeof(float));        // payload filled with the sentinel 0xA5
//   auto view = out.view<float>({2, 3});           // TensorView<float> over the payload
//   std::vector<std::int64_t> sizes{2, 3};
//   auto desc = out.mutable_desc(dmlref::DataType::FLOAT32, sizes);  // points at `sizes`
//   ... call ...
//   EXPECT_TRUE(out.guards_intact());              // nothing written before or after the payload
//   EXPECT_TRUE(out.payload_unchanged());          // nothing written at all (vs the last snapshot)
//
// The payload starts on a 64-byte boundary, so it is aligned for every element type; or, for
// tests of alignment-dependent paths, `misalign` bytes past one:
//
//   guarded::Buffer out(bytes, guarded::kSentinel, 8);   // payload 8 bytes past a cache line
// A descriptor stores pointers to the caller's sizes/strides arrays: keep them alive for the call
// (passing a temporary vector does not compile).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "dmlref/data_type.hpp"
#include "dmlref/runtime/tensor_desc.hpp"
#include "dmlref/shape.hpp"
#include "dmlref/tensor_view.hpp"

namespace guarded {

inline constexpr std::size_t kGuardBytes = 64;
inline constexpr unsigned char kSentinel = 0xA5;  ///< the payload's initial byte

/// The guard byte at distance `i` from the payload (a pattern, so that shifted writes show).
constexpr unsigned char guard_byte(std::size_t i) noexcept { return static_cast<unsigned char>(0xC0u ^ (i & 0x3Fu)); }

class Buffer {
 public:
  explicit Buffer(std::size_t payload_bytes, unsigned char sentinel = kSentinel, std::size_t misalign = 0)
      : size_(payload_bytes), storage_(payload_bytes + 2 * kGuardBytes + alignment + misalign % alignment, 0) {
    const auto address = reinterpret_cast<std::uintptr_t>(storage_.data()) + kGuardBytes;
    offset_ = kGuardBytes + (alignment - address % alignment) % alignment + misalign % alignment;
    for (std::size_t i = 0; i < kGuardBytes; ++i) {
      storage_[offset_ - 1 - i] = guard_byte(i);
      storage_[offset_ + size_ + i] = guard_byte(i);
    }
    std::memset(bytes(), sentinel, size_);
    snapshot();
  }
  // Moving keeps the heap block (views and descriptors stay valid); copying would not.
  Buffer(Buffer&&) noexcept = default;
  Buffer& operator=(Buffer&&) noexcept = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // ---- raw access ----
  unsigned char* bytes() noexcept { return storage_.data() + offset_; }
  const unsigned char* bytes() const noexcept { return storage_.data() + offset_; }
  std::size_t size() const noexcept { return size_; }
  unsigned char& operator[](std::size_t i) noexcept { return bytes()[i]; }
  unsigned char operator[](std::size_t i) const noexcept { return bytes()[i]; }

  /// Element `i` of the payload read as T (byte offset i * sizeof(T)).
  template <class T>
  T load(std::size_t i) const noexcept {
    T v;
    std::memcpy(&v, bytes() + i * sizeof(T), sizeof(T));
    return v;
  }
  /// Writes `v` as element `i` of the payload.
  template <class T>
  void store(std::size_t i, const T& v) noexcept {
    std::memcpy(bytes() + i * sizeof(T), &v, sizeof(T));
  }
  /// Writes `values` from element `first` on, then takes a new snapshot.
  template <class T>
  void fill(const std::vector<T>& values, std::size_t first = 0) noexcept {
    for (std::size_t i = 0; i < values.size(); ++i) store(first + i, values[i]);
    snapshot();
  }

  // ---- checks ----
  bool guards_intact() const noexcept {
    for (std::size_t i = 0; i < kGuardBytes; ++i)
      if (storage_[offset_ - 1 - i] != guard_byte(i) || storage_[offset_ + size_ + i] != guard_byte(i))
        return false;
    return true;
  }
  /// Remembers the payload as it is now (the constructor and fill() take one).
  void snapshot() { saved_.assign(bytes(), bytes() + size_); }
  bool payload_unchanged() const noexcept { return size_ == 0 || std::memcmp(saved_.data(), bytes(), size_) == 0; }
  /// Byte offset of the first payload byte that differs from the snapshot; size() if none.
  std::size_t first_change() const noexcept {
    for (std::size_t i = 0; i < size_; ++i)
      if (saved_[i] != bytes()[i]) return i;
    return size_;
  }
  /// Guards intact and payload as at the last snapshot.
  bool untouched() const noexcept { return guards_intact() && payload_unchanged(); }

  // ---- typed views over the payload ----
  template <class T>
  dmlref::TensorView<T> view(const dmlref::Shape& sizes) noexcept {
    return {reinterpret_cast<T*>(bytes()), sizes};
  }
  template <class T>
  dmlref::TensorView<T> view(const dmlref::Shape& sizes, const dmlref::Shape& strides) noexcept {
    return {reinterpret_cast<T*>(bytes()), sizes, strides};
  }
  template <class T>
  dmlref::TensorView<const T> cview(const dmlref::Shape& sizes) const noexcept {
    return {reinterpret_cast<const T*>(bytes()), sizes};
  }
  template <class T>
  dmlref::TensorView<const T> cview(const dmlref::Shape& sizes, const dmlref::Shape& strides) const noexcept {
    return {reinterpret_cast<const T*>(bytes()), sizes, strides};
  }

  // ---- runtime descriptors over the payload (TotalTensorSizeInBytes = size()) ----
  dmlref::TensorDesc desc(dmlref::DataType type, const std::vector<std::int64_t>& sizes) const noexcept {
    return make<dmlref::TensorDesc>(type, sizes, nullptr, bytes());
  }
  dmlref::TensorDesc desc(dmlref::DataType type, const std::vector<std::int64_t>& sizes,
                          const std::vector<std::int64_t>& strides) const noexcept {
    return make<dmlref::TensorDesc>(type, sizes, strides.data(), bytes());
  }
  dmlref::MutableTensorDesc mutable_desc(dmlref::DataType type, const std::vector<std::int64_t>& sizes) noexcept {
    return make<dmlref::MutableTensorDesc>(type, sizes, nullptr, bytes());
  }
  dmlref::MutableTensorDesc mutable_desc(dmlref::DataType type, const std::vector<std::int64_t>& sizes,
                                         const std::vector<std::int64_t>& strides) noexcept {
    return make<dmlref::MutableTensorDesc>(type, sizes, strides.data(), bytes());
  }
  // The descriptor would outlive a temporary sizes/strides array.
  dmlref::TensorDesc desc(dmlref::DataType, std::vector<std::int64_t>&&) const = delete;
  dmlref::TensorDesc desc(dmlref::DataType, const std::vector<std::int64_t>&, std::vector<std::int64_t>&&) const = delete;
  dmlref::TensorDesc desc(dmlref::DataType, std::vector<std::int64_t>&&, const std::vector<std::int64_t>&) const = delete;
  dmlref::MutableTensorDesc mutable_desc(dmlref::DataType, std::vector<std::int64_t>&&) = delete;
  dmlref::MutableTensorDesc mutable_desc(dmlref::DataType, const std::vector<std::int64_t>&,
                                         std::vector<std::int64_t>&&) = delete;
  dmlref::MutableTensorDesc mutable_desc(dmlref::DataType, std::vector<std::int64_t>&&,
                                         const std::vector<std::int64_t>&) = delete;

 private:
  static constexpr std::size_t alignment = 64;

  template <class Desc, class Pointer>
  Desc make(dmlref::DataType type, const std::vector<std::int64_t>& sizes, const std::int64_t* strides,
            Pointer data) const noexcept {
    Desc d;
    d.DataType = type;
    d.DimensionCount = static_cast<std::uint32_t>(sizes.size());
    d.Sizes = sizes.data();
    d.Strides = strides;
    d.TotalTensorSizeInBytes = size_;
    d.Data = data;
    return d;
  }

  std::size_t size_;
  std::vector<unsigned char> storage_;
  std::size_t offset_ = 0;
  std::vector<unsigned char> saved_;
};

}  // namespace guarded

namespace guarded {

/// Every element of the payload read as T.
template <class T>
std::vector<T> values(const Buffer& b) {
  std::vector<T> v(b.size() / sizeof(T));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = b.load<T>(i);
  return v;
}

/// A payload for `count` rows of `block` elements of T, `pitch` elements apart (the last row not
/// padded), starting `misalign` bytes past a cache line.
template <class T>
Buffer rows(std::int64_t count, std::int64_t block, std::int64_t pitch, std::int64_t misalign) {
  const std::int64_t bytes = ((count - 1) * pitch + block) * static_cast<std::int64_t>(sizeof(T));
  return Buffer(static_cast<std::size_t>(bytes), kSentinel, static_cast<std::size_t>(misalign));
}

}  // namespace guarded
