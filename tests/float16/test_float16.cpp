#include <dmlref/float16.hpp>

#include <fp16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using dmlref::float16;

std::uint32_t bits_of(float f) {
    std::uint32_t x = 0;
    std::memcpy(&x, &f, sizeof x);
    return x;
}

float float_of(std::uint32_t x) {
    float f = 0.0f;
    std::memcpy(&f, &x, sizeof f);
    return f;
}

std::string hex(std::uint32_t x) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", static_cast<unsigned>(x));
    return buf;
}

bool is_half_nan(std::uint16_t h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0; }
bool is_float_nan(std::uint32_t x) { return (x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu) != 0; }

// The quiet-and-keep-payload rules of F16C (and of g++'s _Float16); the fp16 library instead
// canonicalises NaNs on float -> half and does not quiet them on half -> float.
std::uint32_t expected_nan_to_float(std::uint16_t h) {
    return (static_cast<std::uint32_t>(h & 0x8000u) << 16) | 0x7FC00000u | (static_cast<std::uint32_t>(h & 0x3FFu) << 13);
}
std::uint16_t expected_nan_from_float(std::uint32_t x) {
    return static_cast<std::uint16_t>(((x >> 16) & 0x8000u) | 0x7E00u | ((x & 0x7FFFFFu) >> 13));
}

// fp16_ieee_to_fp32_bits computes __builtin_clz(0) for +-0, which is undefined (UBSan flags it).
std::uint32_t library_to_float(std::uint16_t h) {
    return (h & 0x7FFFu) == 0 ? static_cast<std::uint32_t>(h) << 16 : fp16_ieee_to_fp32_bits(h);
}

#if defined(__FLT16_MANT_DIG__)
std::uint32_t builtin_to_float(std::uint16_t h) {
    _Float16 v;
    std::memcpy(&v, &h, sizeof v);
    return bits_of(static_cast<float>(v));
}
std::uint16_t builtin_from_float(std::uint32_t x) {
    const _Float16 v = static_cast<_Float16>(float_of(x));
    std::uint16_t h = 0;
    std::memcpy(&h, &v, sizeof h);
    return h;
}
#endif

/// Empty if float16::from_float(float_of(x)) agrees with every reference, else a description.
std::string check_from_float(std::uint32_t x) {
    const std::uint16_t got = float16::from_float(float_of(x)).bits;
    const std::uint16_t want = is_float_nan(x) ? expected_nan_from_float(x) : fp16_ieee_from_fp32_value(float_of(x));
    std::string error;
    if (got != want) {
        error = "from_float(" + hex(x) + ") = " + hex(got) + ", expected " + hex(want);
    }
#if defined(__FLT16_MANT_DIG__)
    const std::uint16_t builtin = builtin_from_float(x);
    if (got != builtin) {
        error += (error.empty() ? "" : "; ") + ("from_float(" + hex(x) + ") = " + hex(got) + ", _Float16 gives " + hex(builtin));
    }
#endif
    return error;
}

/// Runs check_from_float over inputs, reporting the first few mismatches and the total.
void check_all_from_float(const std::vector<std::uint32_t>& inputs, const std::string& context) {
    std::size_t failures = 0;
    for (const std::uint32_t x : inputs) {
        const std::string error = check_from_float(x);
        if (!error.empty() && ++failures <= 10) {
            ADD_FAILURE() << context << ": " << error;
        }
    }
    EXPECT_EQ(failures, 0u) << context << ": mismatches out of " << inputs.size();
}

TEST(Float16, AllHalvesToFloatMatchReference) {
    std::size_t failures = 0;
    for (std::uint32_t i = 0; i <= 0xFFFFu; ++i) {
        const auto h = static_cast<std::uint16_t>(i);
        const std::uint32_t got = bits_of(float16::from_bits(h).to_float());
        const std::uint32_t want = is_half_nan(h) ? expected_nan_to_float(h) : library_to_float(h);
        if (got != want && ++failures <= 10) {
            ADD_FAILURE() << "to_float(" << hex(h) << ") = " << hex(got) << ", expected " << hex(want);
        }
        if (is_half_nan(h) && !std::isnan(float_of(got)) && ++failures <= 10) {
            ADD_FAILURE() << "to_float(" << hex(h) << ") is not NaN";
        }
    }
    EXPECT_EQ(failures, 0u);
}

#if defined(__FLT16_MANT_DIG__)
TEST(Float16, AllHalvesToFloatMatchBuiltinFloat16) {
    std::size_t failures = 0;
    for (std::uint32_t i = 0; i <= 0xFFFFu; ++i) {
        const auto h = static_cast<std::uint16_t>(i);
        const std::uint32_t got = bits_of(float16::from_bits(h).to_float());
        const std::uint32_t want = builtin_to_float(h);
        if (got != want && ++failures <= 10) {
            ADD_FAILURE() << "to_float(" << hex(h) << ") = " << hex(got) << ", _Float16 gives " << hex(want);
        }
    }
    EXPECT_EQ(failures, 0u);
}
#endif

TEST(Float16, FromFloatEdgeMantissasAtEveryExponent) {
    std::vector<std::uint32_t> mantissas = {0,        1,        2,        3,        0x0FFF,   0x1000,   0x1001,
                                            0x1FFF,   0x2000,   0x2001,   0x3000,   0x3FFF,   0x5000,   0x3FFFFF,
                                            0x400000, 0x400001, 0x7FC000, 0x7FDFFF, 0x7FE000, 0x7FEFFF, 0x7FF000,
                                            0x7FF001, 0x7FFFFF, 0x123456, 0x555555, 0x2AAAAA};
    // Halfway points (and neighbours) for every shift: bit s-1 set below a kept part ending in 0 or 1,
    // which covers the normal range (s = 13) and every subnormal shift (s = 14..24 of the significand).
    for (std::uint32_t s = 1; s <= 23; ++s) {
        const std::uint32_t half = 1u << (s - 1);
        for (const std::uint32_t kept : {0u, 1u, 2u, 3u, 0xFFFFFFFFu}) {
            const std::uint32_t base = ((kept << s) | half) & 0x7FFFFFu;
            for (const std::uint32_t m : {base - 1, base, base + 1}) {
                mantissas.push_back(m & 0x7FFFFFu);
            }
        }
    }
    std::vector<std::uint32_t> inputs;
    for (std::uint32_t sign = 0; sign <= 1; ++sign) {
        for (std::uint32_t exponent = 0; exponent <= 0xFF; ++exponent) {
            for (const std::uint32_t m : mantissas) {
                inputs.push_back((sign << 31) | (exponent << 23) | m);
            }
        }
    }
    check_all_from_float(inputs, "edge mantissas");
}

TEST(Float16, FromFloatRandomFloats) {
    constexpr std::uint32_t seed = 0x0F16u;
    std::mt19937 rng(seed);
    std::vector<std::uint32_t> inputs(1000000);
    for (std::uint32_t& x : inputs) {
        x = static_cast<std::uint32_t>(rng());
    }
    check_all_from_float(inputs, "random floats, std::mt19937 seed " + std::to_string(seed));
}

TEST(Float16, FromFloatBoundaries) {
    struct Case {
        std::uint32_t input;
        std::uint16_t expected;
    };
    const Case cases[] = {
        {bits_of(1.0f), 0x3C00},
        {bits_of(-2.0f), 0xC000},
        {bits_of(0.1f), 0x2E66},
        {bits_of(65504.0f), 0x7BFF},
        {bits_of(65519.0f), 0x7BFF},  // just below the halfway point to 2^16
        {bits_of(65520.0f), 0x7C00},  // halfway: ties to even, which is inf
        {bits_of(-65520.0f), 0xFC00},
        {bits_of(1e10f), 0x7C00},
        {bits_of(2.98e-8f), 0x0000},   // below 2^-25
        {0x33000000u, 0x0000},         // 2^-25 exactly: ties to even zero
        {0x33000001u, 0x0001},         // a hair above 2^-25
        {bits_of(2.99e-8f), 0x0001},
        {bits_of(5.96e-8f), 0x0001},   // ~2^-24, the smallest subnormal
        {0x33C00000u, 0x0002},         // 1.5 * 2^-24: ties to even
        {0x34200000u, 0x0002},         // 2.5 * 2^-24: ties to even
        {0x387FC000u, 0x03FF},         // largest subnormal
        {0x387FE000u, 0x0400},         // halfway between it and 2^-14: ties to even, the smallest normal
        {0x38800000u, 0x0400},         // 2^-14
        {0x3F801000u, 0x3C00},         // 1 + 2^-11: ties to even
        {0x3F803000u, 0x3C02},         // 1 + 3 * 2^-11: ties to even
        {0x3F801001u, 0x3C01},
        {bits_of(0.0f), 0x0000},
        {bits_of(-0.0f), 0x8000},
        {0x00000001u, 0x0000},         // float subnormals underflow to zero, keeping the sign
        {0x807FFFFFu, 0x8000},
        {0x7F800000u, 0x7C00},
        {0xFF800000u, 0xFC00},
        {0x7FC00000u, 0x7E00},
        {0xFFC00000u, 0xFE00},
        {0x7FC12345u, 0x7E09},         // NaN payload: top bits kept
        {0x7F800001u, 0x7E00},         // signalling NaN: quieted, low payload lost
        {0xFF802000u, 0xFE01},
        {0x7FFFFFFFu, 0x7FFF},
    };
    for (const Case& c : cases) {
        EXPECT_EQ(float16::from_float(float_of(c.input)).bits, c.expected) << "input " << hex(c.input);
    }
}

TEST(Float16, ToFloatBoundaries) {
    struct Case {
        std::uint16_t input;
        std::uint32_t expected;
    };
    const Case cases[] = {
        {0x0000, 0x00000000u}, {0x8000, 0x80000000u}, {0x0001, 0x33800000u}, {0x03FF, 0x387FC000u},
        {0x0400, 0x38800000u}, {0x3C00, 0x3F800000u}, {0x7BFF, 0x477FE000u}, {0x7C00, 0x7F800000u},
        {0xFC00, 0xFF800000u}, {0x7E00, 0x7FC00000u}, {0x7C01, 0x7FC02000u}, {0xFDFF, 0xFFFFE000u},
    };
    for (const Case& c : cases) {
        EXPECT_EQ(bits_of(float16::from_bits(c.input).to_float()), c.expected) << "input " << hex(c.input);
    }
}

TEST(Float16, EveryNonNanHalfRoundTrips) {
    std::size_t failures = 0;
    for (std::uint32_t i = 0; i <= 0xFFFFu; ++i) {
        const auto h = static_cast<std::uint16_t>(i);
        if (is_half_nan(h)) {
            continue;
        }
        const std::uint16_t back = float16::from_float(float16::from_bits(h).to_float()).bits;
        if (back != h && ++failures <= 10) {
            ADD_FAILURE() << hex(h) << " round-trips to " << hex(back);
        }
    }
    EXPECT_EQ(failures, 0u);
}

// Compile-time properties (a violation fails the build): a constexpr two-byte aggregate that
// copies like its bits.
static_assert(float16::from_bits(0x3C00).bits == 0x3C00);
static_assert(float16{0x1234}.bits == 0x1234);
static_assert(std::is_aggregate_v<float16>);
static_assert(std::is_trivially_copyable_v<float16> && std::is_trivially_default_constructible_v<float16>);
static_assert(std::is_standard_layout_v<float16> && sizeof(float16) == 2);

TEST(Float16, CopiesAreBitExact) {
    // Copies are bit-exact, even for a signalling NaN that a float round trip would quiet.
    const float16 snan = float16::from_bits(0x7C01);
    float16 copy{};
    std::memcpy(&copy, &snan, sizeof copy);
    const float16 assigned = copy;
    EXPECT_EQ(assigned.bits, 0x7C01);
}

} // namespace
