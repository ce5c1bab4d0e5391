#ifndef DMLREF_CONFIG_HPP
#define DMLREF_CONFIG_HPP

#include "version.hpp"

// Throwing convenience forms exist only when the translation unit has exceptions.
#if defined(DMLREF_NO_EXCEPTIONS)
#  define DMLREF_HAS_EXCEPTIONS 0
#elif defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#  define DMLREF_HAS_EXCEPTIONS 1
#else
#  define DMLREF_HAS_EXCEPTIONS 0
#endif

// Builtins behind portable fallbacks: MSVC and other compilers get plain code. DMLREF_COLD marks
// what runs only when a call fails or asks for DirectML's own rules: kept out of line and compiled
// for size, which is also what a translation unit pays least to compile.
#if defined(__GNUC__) || defined(__clang__)
#  define DMLREF_LIKELY(x) __builtin_expect(!!(x), 1)
#  define DMLREF_UNLIKELY(x) __builtin_expect(!!(x), 0)
#  if !defined(__clang__) && defined(__x86_64__)
// g++ takes a function whose only statements are __builtin_prefetch for a pure one, and deletes
// every call to it: such helpers' prefetches vanish (docs/performance.md, "Prefetches g++
// deletes"). An asm statement stays. (Without -mprfchw g++ writes a write prefetch as prefetcht0.)
#    define DMLREF_PREFETCH_ASM(instruction, address) \
       __asm__ volatile(instruction " %0" : : "m"(*reinterpret_cast<const char*>(address)))
#    define DMLREF_PREFETCH(address) DMLREF_PREFETCH_ASM("prefetcht0", address)
#    define DMLREF_PREFETCH_WRITE(address) DMLREF_PREFETCH_ASM("prefetcht0", address)
#    define DMLREF_PREFETCH_L2(address) DMLREF_PREFETCH_ASM("prefetcht1", address)
#  else
#    define DMLREF_PREFETCH(address) __builtin_prefetch(address)
#    define DMLREF_PREFETCH_WRITE(address) __builtin_prefetch(address, 1)
#    define DMLREF_PREFETCH_L2(address) __builtin_prefetch(address, 0, 2)
#  endif
#  define DMLREF_NOINLINE __attribute__((noinline))
#  define DMLREF_COLD __attribute__((noinline, cold))
#  define DMLREF_ALWAYS_INLINE __attribute__((always_inline)) inline
#elif defined(_MSC_VER)
#  define DMLREF_LIKELY(x) (x)
#  define DMLREF_UNLIKELY(x) (x)
#  define DMLREF_PREFETCH(address) ((void)(address))
#  define DMLREF_PREFETCH_WRITE(address) ((void)(address))
#  define DMLREF_PREFETCH_L2(address) ((void)(address))
#  define DMLREF_NOINLINE __declspec(noinline)
#  define DMLREF_COLD __declspec(noinline)
#  define DMLREF_ALWAYS_INLINE __forceinline
#else
#  define DMLREF_LIKELY(x) (x)
#  define DMLREF_UNLIKELY(x) (x)
#  define DMLREF_PREFETCH(address) ((void)(address))
#  define DMLREF_PREFETCH_WRITE(address) ((void)(address))
#  define DMLREF_PREFETCH_L2(address) ((void)(address))
#  define DMLREF_NOINLINE
#  define DMLREF_COLD
#  define DMLREF_ALWAYS_INLINE inline
#endif

// Forces a lambda's body inline (after its parameter list): Clang leaves a lambda called from
// several places out of line, its captures reloaded from memory on every call. Not for g++, which
// inlines it anyway, and compiled a lambda so marked without its __builtin_prefetch.
#if defined(__clang__)
#  define DMLREF_INLINE_LAMBDA __attribute__((always_inline))
#else
#  define DMLREF_INLINE_LAMBDA
#endif

// Unrolls the next loop, whose trip count is a small constant: g++ -O2 unrolls no loop.
#if defined(__clang__)
#  define DMLREF_UNROLL_LOOP _Pragma("unroll")
#elif defined(__GNUC__)
#  define DMLREF_UNROLL_LOOP _Pragma("GCC unroll 16")
#else
#  define DMLREF_UNROLL_LOOP
#endif

// Little-endian targets, where the first of several elements assembled in an integer is its low
// bytes (TakeRows::in_order).
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_M_X64) || defined(_M_ARM64)
#  define DMLREF_LITTLE_ENDIAN 1
#else
#  define DMLREF_LITTLE_ENDIAN 0
#endif

// SSE2 (every x86-64 target): the streaming stores, and copy_run's vector loop.
#if (defined(__SSE2__) && defined(__x86_64__)) || defined(_M_X64)
#  include <emmintrin.h>
#  define DMLREF_HAS_SSE2 1
#else
#  define DMLREF_HAS_SSE2 0
#endif

// GCC and Clang: the index scan runs in their generic vector types (16-byte lanes on every
// target), and on x86-64 also in 32-byte AVX2 lanes, compiled by a function attribute and chosen
// at run time (detail/machine.hpp, scans_with_avx2()). No intrinsics header: every translation
// unit of a kernel would pay for parsing it.
#if defined(__GNUC__) || defined(__clang__)
#  define DMLREF_HAS_VECTOR_LANES 1
#else
#  define DMLREF_HAS_VECTOR_LANES 0
#endif
#if DMLREF_HAS_VECTOR_LANES && defined(__x86_64__)
#  define DMLREF_HAS_AVX2_SCAN 1
#else
#  define DMLREF_HAS_AVX2_SCAN 0
#endif
// The same way, a one-pass staged gather's rows may check and gather 8 index values at a time in
// AVX-512 lanes (detail/staged.hpp, take_checked_in_lanes; detail/machine.hpp,
// gathers_with_avx512()), through the compilers' builtins.
#define DMLREF_HAS_AVX512_GATHER DMLREF_HAS_AVX2_SCAN
// And the CPU's make and family, read by an inline `cpuid` (detail/machine.hpp, cpu_make()), which
// the choices measured differently on different CPUs follow.
#define DMLREF_HAS_CPUID DMLREF_HAS_AVX2_SCAN

// Separate compilation of the kernels, for programs that call the dispatch layer from many
// translation units. By default a translation unit compiles the kernels its calls need: a typed
// call those of its element width and index type, a dispatch-layer call all of them. A program
// whose every translation unit defines DMLREF_SEPARATE_KERNELS compiles them once instead, in the
// one translation unit that also defines DMLREF_KERNELS_IMPLEMENTATION; the others declare them
// `extern template` (detail/kernels.hpp). The macro must be the same in every translation unit of
// a program.

namespace dmlref {
/// The largest DimensionCount DirectML accepts (DML_TENSOR_DIMENSION_COUNT_MAX1).
inline constexpr int max_dimension_count = 8;
}  // namespace dmlref

#endif  // DMLREF_CONFIG_HPP
