// Opt-in exhaustive check of dmlref::float16::from_float over all 2^32 float bit patterns.
// Non-NaN results must match the fp16 library bit-exactly; NaNs must follow the F16C rule
// sign | 0x7E00 | (mantissa >> 13). Under g++ every result must also match (_Float16)f.
// Build with optimisation: it takes several minutes at -O2 (one thread) and far longer unoptimised.
#include <dmlref/float16.hpp>

#include <fp16.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

float float_of(std::uint32_t x) {
    float f = 0.0f;
    std::memcpy(&f, &x, sizeof f);
    return f;
}

std::uint16_t expected(std::uint32_t x) {
    const bool nan = (x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu) != 0;
    if (nan) {
        return static_cast<std::uint16_t>(((x >> 16) & 0x8000u) | 0x7E00u | ((x & 0x7FFFFFu) >> 13));
    }
    return fp16_ieee_from_fp32_value(float_of(x));
}

} // namespace

int main() {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t passed = 0;
    std::uint64_t failed = 0;
    for (std::uint64_t i = 0; i <= 0xFFFFFFFFu; ++i) {
        const auto x = static_cast<std::uint32_t>(i);
        const std::uint16_t got = dmlref::float16::from_float(float_of(x)).bits;
        const std::uint16_t want = expected(x);
        bool ok = got == want;
#if defined(__FLT16_MANT_DIG__)
        const _Float16 builtin_value = static_cast<_Float16>(float_of(x));
        std::uint16_t builtin = 0;
        std::memcpy(&builtin, &builtin_value, sizeof builtin);
        ok = ok && got == builtin;
#else
        const std::uint16_t builtin = want;
#endif
        if (ok) {
            ++passed;
        } else if (++failed <= 20) {
            std::printf("FAIL from_float(0x%08X) = 0x%04X, expected 0x%04X, _Float16 0x%04X\n", static_cast<unsigned>(x),
                        static_cast<unsigned>(got), static_cast<unsigned>(want), static_cast<unsigned>(builtin));
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
#if defined(__FLT16_MANT_DIG__)
    const char* references = "fp16 library / NaN rule and _Float16";
#else
    const char* references = "fp16 library / NaN rule";
#endif
    std::printf("float16 exhaustive (vs %s): %llu passed, %llu failed in %.1f s\n", references,
                static_cast<unsigned long long>(passed), static_cast<unsigned long long>(failed), seconds);
    return failed == 0 ? 0 : 1;
}
