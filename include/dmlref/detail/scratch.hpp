#ifndef DMLREF_DETAIL_SCRATCH_HPP
#define DMLREF_DETAIL_SCRATCH_HPP

#include <cstddef>
#include <new>

namespace dmlref::detail {

/// Heap scratch for the length of a call: `count` T's from the non-throwing operator new[], freed
/// when it goes out of scope. Empty when the allocation fails: every user has a path without it,
/// or reports out_of_memory.
template <class T>
class Scratch {
 public:
  Scratch() noexcept = default;
  /// Zeroed when `zeroed`, else left uninitialized.
  Scratch(std::size_t count, bool zeroed) noexcept
      : data_(zeroed ? new (std::nothrow) T[count]() : new (std::nothrow) T[count]) {}
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  Scratch(Scratch&& other) noexcept : data_(other.data_) { other.data_ = nullptr; }
  Scratch& operator=(Scratch&& other) noexcept {
    T* const old = data_;
    data_ = other.data_;
    other.data_ = nullptr;
    delete[] old;
    return *this;
  }
  ~Scratch() { delete[] data_; }

  explicit operator bool() const noexcept { return data_ != nullptr; }
  T* get() const noexcept { return data_; }
  T& operator[](std::size_t i) const noexcept { return data_[i]; }

 private:
  T* data_ = nullptr;
};

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_SCRATCH_HPP
