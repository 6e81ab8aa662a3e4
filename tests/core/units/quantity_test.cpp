#include "units/quantity.h"

#include <gtest/gtest.h>

#include <limits>

namespace ws {
namespace {

TEST(Quantity, DecimalAndBinaryPrefixes) {
    EXPECT_DOUBLE_EQ(parseQuantity("80 MB", Dimension::Bytes), 80e6);
    EXPECT_DOUBLE_EQ(parseQuantity("64 MiB", Dimension::Bytes), 64.0 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(parseQuantity("72 GB", Dimension::Bytes), 72e9);
    EXPECT_DOUBLE_EQ(parseQuantity("1 GiB", Dimension::Bytes), 1'073'741'824.0);
    EXPECT_DOUBLE_EQ(parseQuantity("2KiB", Dimension::Bytes), 2048.0);
}

TEST(Quantity, BitsAreAnEighthOfBytes) {
    EXPECT_DOUBLE_EQ(parseQuantity("100 Gb/s", Dimension::BytesPerSecond), 12.5e9);
    EXPECT_DOUBLE_EQ(parseQuantity("8 Mb", Dimension::Bytes), 1e6);
    EXPECT_DOUBLE_EQ(parseQuantity("4 TB/s", Dimension::BytesPerSecond), 4e12);
    EXPECT_DOUBLE_EQ(parseQuantity("900 GB/s", Dimension::BytesPerSecond), 900e9);
}

TEST(Quantity, Times) {
    EXPECT_DOUBLE_EQ(parseQuantity("200 ns", Dimension::Seconds), 200e-9);
    EXPECT_DOUBLE_EQ(parseQuantity("1.5 us", Dimension::Seconds), 1.5e-6);
    EXPECT_DOUBLE_EQ(parseQuantity("1.5 \xC2\xB5s", Dimension::Seconds), 1.5e-6);
    EXPECT_DOUBLE_EQ(parseQuantity("3 ms", Dimension::Seconds), 3e-3);
    EXPECT_DOUBLE_EQ(parseQuantity("2 s", Dimension::Seconds), 2.0);
}

// Found with the typed scenario's round-trip tests: "200 ns" used to be 200 * 1e-9, one ulp
// away from 200e-9, so a default wafer saved as text ("link_latency": "200 ns") read back as a
// different scenario. The decimal prefix is applied to the text: the nearest double, always.
TEST(Quantity, DecimalPrefixesGiveTheNearestDouble) {
    EXPECT_EQ(parseQuantity("200 ns", Dimension::Seconds), 200e-9);
    EXPECT_EQ(parseQuantity("0.5 us", Dimension::Seconds), 0.5e-6);
    EXPECT_EQ(parseQuantity("2e2 ns", Dimension::Seconds), 200e-9);
    EXPECT_EQ(parseQuantity("1.1 TB", Dimension::Bytes), 1.1e12);
    EXPECT_EQ(parseQuantity("0.3 ms", Dimension::Seconds), 0.3e-3);
    EXPECT_EQ(parseQuantity("1.5 Gb/s", Dimension::BytesPerSecond), 1.5e9 / 8);
    EXPECT_EQ(parseQuantity("1.5 GiB", Dimension::Bytes), 1.5 * 1024 * 1024 * 1024);
    EXPECT_EQ(parseQuantity("0x10 ns", Dimension::Seconds), 16 * 1e-9); // hexadecimal: no exponent
    EXPECT_EQ(parseQuantity("1e-9223372036854775808 ns", Dimension::Seconds), 0.0);
}

TEST(Quantity, ComputeRates) {
    EXPECT_DOUBLE_EQ(parseQuantity("1000 TFLOP/s", Dimension::FlopsPerSecond), 1e15);
    EXPECT_DOUBLE_EQ(parseQuantity("312 TFLOPS", Dimension::FlopsPerSecond), 312e12);
}

TEST(Quantity, PlainNumbersAreBaseUnits) {
    EXPECT_DOUBLE_EQ(parseQuantity("2e6", Dimension::Bytes), 2e6);
    EXPECT_DOUBLE_EQ(parseQuantity(" 0 ", Dimension::Seconds), 0.0);
}

TEST(Quantity, RejectsBadText) {
    EXPECT_THROW(parseQuantity("4 TX/s", Dimension::BytesPerSecond), UnitError);
    EXPECT_THROW(parseQuantity("4 TB", Dimension::BytesPerSecond), UnitError); // wrong dimension
    EXPECT_THROW(parseQuantity("-1 MB", Dimension::Bytes), UnitError);
    EXPECT_THROW(parseQuantity("nan", Dimension::Bytes), UnitError);
    EXPECT_THROW(parseQuantity("inf MB", Dimension::Bytes), UnitError);
    EXPECT_THROW(parseQuantity("1e400 B", Dimension::Bytes), UnitError);
    EXPECT_THROW(parseQuantity("", Dimension::Bytes), UnitError);
    EXPECT_THROW(parseQuantity("MB", Dimension::Bytes), UnitError);
}

TEST(Quantity, MessagesSayWhatWasExpected) {
    try {
        parseQuantity("4 furlongs", Dimension::BytesPerSecond);
        FAIL();
    } catch (const UnitError& error) {
        EXPECT_NE(std::string(error.what()).find("unknown unit 'furlongs'"), std::string::npos);
        EXPECT_NE(std::string(error.what()).find("4 TB/s"), std::string::npos);
    }
    try {
        parseQuantity("4 TB", Dimension::Seconds);
        FAIL();
    } catch (const UnitError& error) {
        EXPECT_NE(std::string(error.what()).find("is a data size, expected a time"),
                  std::string::npos);
    }
}

TEST(Quantity, Formatting) {
    EXPECT_EQ(formatBytes(64e6), "64 MB");
    EXPECT_EQ(formatSeconds(1.5e-6), "1.5 us");
    EXPECT_EQ(formatSeconds(2.5e-3), "2.5 ms");
    EXPECT_EQ(formatBytesPerSecond(4e12), "4 TB/s");
}

} // namespace
} // namespace ws
