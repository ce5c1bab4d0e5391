#ifndef DMLREF_FLOAT16_HPP
#define DMLREF_FLOAT16_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace dmlref {

/// IEEE 754 binary16 stored as its 16 bits. Copies never go through float, so they are bit-exact.
///
/// There are deliberately no arithmetic or comparison operators: whether two halves are "equal"
/// differs between value (NaN != NaN, -0 == +0) and bits; compare `.bits` when that is meant.
struct float16 {
    /// The raw binary16 encoding: sign bit 15, exponent bits 14-10, mantissa bits 9-0.
    std::uint16_t bits;

    /// Wraps an existing encoding unchanged.
    static constexpr float16 from_bits(std::uint16_t b) noexcept { return float16{b}; }

    /// Converts with round to nearest, ties to even. Overflow gives +-inf, float subnormals give
    /// +-0, and a NaN becomes a quiet NaN keeping the top 9 payload bits (as x86 F16C does).
    static float16 from_float(float f) noexcept {
        std::uint32_t x = 0;
        std::memcpy(&x, &f, sizeof x);
        const std::uint32_t sign = (x >> 16) & 0x8000u;
        const std::uint32_t exponent = (x >> 23) & 0xFFu;
        const std::uint32_t mantissa = x & 0x7FFFFFu;

        std::uint32_t magnitude = 0;
        // Biased half exponent; signed because it goes far below zero for tiny inputs.
        const int e = static_cast<int>(exponent) - 127 + 15;
        if (exponent == 0xFFu) {
            magnitude = mantissa == 0 ? 0x7C00u : 0x7E00u | (mantissa >> 13);
        } else if (e >= 31) {
            magnitude = 0x7C00u;
        } else if (e >= 1) {
            // Rounding up may carry into the exponent, which is exactly right (0x7BFF + 1 = inf).
            magnitude = round_shift((static_cast<std::uint32_t>(e) << 23) | mantissa, 13);
        } else if (e >= -10) {
            // Half subnormal: value / 2^-24 = significand >> (14 - e). A carry into 0x0400 gives
            // the smallest normal, again exactly right.
            magnitude = round_shift(mantissa | 0x800000u, static_cast<unsigned>(14 - e));
        }
        // Otherwise (e < -10, including all float subnormals) even the largest significand is
        // below half the smallest subnormal, so the result is a signed zero.
        return from_bits(static_cast<std::uint16_t>(sign | magnitude));
    }

    /// Converts exactly; a NaN is quieted keeping its payload, as x86 F16C does.
    float to_float() const noexcept {
        const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
        const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
        std::uint32_t mantissa = bits & 0x3FFu;
        std::uint32_t x = 0;
        if (exponent == 0x1Fu) {
            x = sign | (mantissa == 0 ? 0x7F800000u : 0x7FC00000u | (mantissa << 13));
        } else if (exponent != 0) {
            x = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
        } else if (mantissa == 0) {
            x = sign;
        } else {
            // Subnormal half: normalise, since every one of them is a normal float.
            std::uint32_t float_exponent = 127 - 14;
            while ((mantissa & 0x400u) == 0) {
                mantissa <<= 1;
                --float_exponent;
            }
            x = sign | (float_exponent << 23) | ((mantissa & 0x3FFu) << 13);
        }
        float f = 0.0f;
        std::memcpy(&f, &x, sizeof f);
        return f;
    }

private:
    /// value >> shift, rounded to nearest with ties to even; shift is in [1, 31].
    static constexpr std::uint32_t round_shift(std::uint32_t value, unsigned shift) noexcept {
        const std::uint32_t kept = value >> shift;
        const std::uint32_t rest = value & ((1u << shift) - 1u);
        const std::uint32_t half = 1u << (shift - 1u);
        return kept + ((rest > half || (rest == half && (kept & 1u) != 0)) ? 1u : 0u);
    }
};

static_assert(sizeof(float16) == 2 && std::is_trivially_copyable_v<float16> &&
              std::is_standard_layout_v<float16>);

} // namespace dmlref

#endif // DMLREF_FLOAT16_HPP
