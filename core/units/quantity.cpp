#include "units/quantity.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ws {
namespace {

// To SI base units, a unit multiplies by 10^decimalExponent * binaryFactor. The decimal part is
// applied to the number's text, not multiplied in (see decimalValue), so that "200 ns" is the
// double nearest to 2e-7, exactly as the literal 200e-9 is: a default written as text and read
// back is the value it was (docs/file-format.md, "Saving").
struct UnitEntry {
    std::string_view symbol;
    Dimension dimension;
    int decimalExponent;
    double binaryFactor; // a power of two (KiB, bits): multiplying by it is exact
};

constexpr double kKi = 1024.0;

// Every unit spelling accepted, longest-match not needed because the whole suffix must match.
constexpr std::array kUnits = {
    // data sizes (bytes); lower-case b is bits
    UnitEntry{"B", Dimension::Bytes, 0, 1.0},
    UnitEntry{"kB", Dimension::Bytes, 3, 1.0},
    UnitEntry{"KB", Dimension::Bytes, 3, 1.0},
    UnitEntry{"MB", Dimension::Bytes, 6, 1.0},
    UnitEntry{"GB", Dimension::Bytes, 9, 1.0},
    UnitEntry{"TB", Dimension::Bytes, 12, 1.0},
    UnitEntry{"PB", Dimension::Bytes, 15, 1.0},
    UnitEntry{"KiB", Dimension::Bytes, 0, kKi},
    UnitEntry{"MiB", Dimension::Bytes, 0, kKi* kKi},
    UnitEntry{"GiB", Dimension::Bytes, 0, kKi* kKi* kKi},
    UnitEntry{"TiB", Dimension::Bytes, 0, kKi* kKi* kKi* kKi},
    UnitEntry{"PiB", Dimension::Bytes, 0, kKi* kKi* kKi* kKi* kKi},
    UnitEntry{"b", Dimension::Bytes, 0, 1.0 / 8},
    UnitEntry{"kb", Dimension::Bytes, 3, 1.0 / 8},
    UnitEntry{"Kb", Dimension::Bytes, 3, 1.0 / 8},
    UnitEntry{"Mb", Dimension::Bytes, 6, 1.0 / 8},
    UnitEntry{"Gb", Dimension::Bytes, 9, 1.0 / 8},
    UnitEntry{"Tb", Dimension::Bytes, 12, 1.0 / 8},
    UnitEntry{"Kib", Dimension::Bytes, 0, kKi / 8},
    UnitEntry{"Mib", Dimension::Bytes, 0, kKi* kKi / 8},
    UnitEntry{"Gib", Dimension::Bytes, 0, kKi* kKi* kKi / 8},
    // times
    UnitEntry{"s", Dimension::Seconds, 0, 1.0},
    UnitEntry{"ms", Dimension::Seconds, -3, 1.0},
    UnitEntry{"us", Dimension::Seconds, -6, 1.0},
    UnitEntry{"\xC2\xB5s", Dimension::Seconds, -6, 1.0}, // "µs" in UTF-8
    UnitEntry{"ns", Dimension::Seconds, -9, 1.0},
    UnitEntry{"ps", Dimension::Seconds, -12, 1.0},
    // rates (bytes per second); lower-case b is bits per second
    UnitEntry{"B/s", Dimension::BytesPerSecond, 0, 1.0},
    UnitEntry{"kB/s", Dimension::BytesPerSecond, 3, 1.0},
    UnitEntry{"KB/s", Dimension::BytesPerSecond, 3, 1.0},
    UnitEntry{"MB/s", Dimension::BytesPerSecond, 6, 1.0},
    UnitEntry{"GB/s", Dimension::BytesPerSecond, 9, 1.0},
    UnitEntry{"TB/s", Dimension::BytesPerSecond, 12, 1.0},
    UnitEntry{"PB/s", Dimension::BytesPerSecond, 15, 1.0},
    UnitEntry{"KiB/s", Dimension::BytesPerSecond, 0, kKi},
    UnitEntry{"MiB/s", Dimension::BytesPerSecond, 0, kKi* kKi},
    UnitEntry{"GiB/s", Dimension::BytesPerSecond, 0, kKi* kKi* kKi},
    UnitEntry{"TiB/s", Dimension::BytesPerSecond, 0, kKi* kKi* kKi* kKi},
    UnitEntry{"b/s", Dimension::BytesPerSecond, 0, 1.0 / 8},
    UnitEntry{"kb/s", Dimension::BytesPerSecond, 3, 1.0 / 8},
    UnitEntry{"Kb/s", Dimension::BytesPerSecond, 3, 1.0 / 8},
    UnitEntry{"Mb/s", Dimension::BytesPerSecond, 6, 1.0 / 8},
    UnitEntry{"Gb/s", Dimension::BytesPerSecond, 9, 1.0 / 8},
    UnitEntry{"Tb/s", Dimension::BytesPerSecond, 12, 1.0 / 8},
    // compute rates
    UnitEntry{"FLOP/s", Dimension::FlopsPerSecond, 0, 1.0},
    UnitEntry{"kFLOP/s", Dimension::FlopsPerSecond, 3, 1.0},
    UnitEntry{"MFLOP/s", Dimension::FlopsPerSecond, 6, 1.0},
    UnitEntry{"GFLOP/s", Dimension::FlopsPerSecond, 9, 1.0},
    UnitEntry{"TFLOP/s", Dimension::FlopsPerSecond, 12, 1.0},
    UnitEntry{"PFLOP/s", Dimension::FlopsPerSecond, 15, 1.0},
    UnitEntry{"FLOPS", Dimension::FlopsPerSecond, 0, 1.0},
    UnitEntry{"GFLOPS", Dimension::FlopsPerSecond, 9, 1.0},
    UnitEntry{"TFLOPS", Dimension::FlopsPerSecond, 12, 1.0},
    UnitEntry{"PFLOPS", Dimension::FlopsPerSecond, 15, 1.0},
    // compute amounts
    UnitEntry{"FLOP", Dimension::Flops, 0, 1.0},
    UnitEntry{"GFLOP", Dimension::Flops, 9, 1.0},
    UnitEntry{"TFLOP", Dimension::Flops, 12, 1.0},
    UnitEntry{"PFLOP", Dimension::Flops, 15, 1.0},
};

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

std::string example(Dimension dimension) {
    switch (dimension) {
    case Dimension::Bytes:
        return "\"64 MiB\"";
    case Dimension::Seconds:
        return "\"200 ns\"";
    case Dimension::BytesPerSecond:
        return "\"4 TB/s\"";
    case Dimension::FlopsPerSecond:
        return "\"1000 TFLOP/s\"";
    case Dimension::Flops:
        return "\"3.5 TFLOP\"";
    }
    return {};
}

std::string formatWithPrefix(double value, const char* unit) {
    static constexpr std::array<const char*, 7> kPrefixes = {"", "k", "M", "G", "T", "P", "E"};
    std::size_t prefix = 0;
    double scaled = value;
    while (std::fabs(scaled) >= 1000.0 && prefix + 1 < kPrefixes.size()) {
        scaled /= 1000.0;
        ++prefix;
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.4g %s%s", scaled, kPrefixes[prefix], unit);
    return buffer;
}

} // namespace

std::string dimensionName(Dimension dimension) {
    switch (dimension) {
    case Dimension::Bytes:
        return "a data size";
    case Dimension::Seconds:
        return "a time";
    case Dimension::BytesPerSecond:
        return "a bandwidth";
    case Dimension::FlopsPerSecond:
        return "a compute rate";
    case Dimension::Flops:
        return "an amount of compute";
    }
    return "a quantity";
}

namespace {

// The number written as `digits` times 10^exponent, correctly rounded: strtod of the digits with
// the exponent moved into their text ("200" and -9 give strtod("200e-9")). `number` is strtod of
// `digits` alone, the answer for hexadecimal text, which has no decimal exponent.
double decimalValue(std::string_view digits, double number, int exponent) {
    if (exponent == 0)
        return number;
    std::string text(digits);
    if (text.find_first_of("xX") != std::string::npos)
        return number * std::pow(10.0, exponent);
    const std::size_t e = text.find_first_of("eE");
    long long total = exponent;
    if (e != std::string::npos) {
        // Clamped so that the sum cannot overflow; 10^±100000 is 0 or infinite either way.
        total += std::clamp(std::strtoll(text.c_str() + e + 1, nullptr, 10), -100000LL, 100000LL);
        text.resize(e);
    }
    text += 'e'; // appended apart: "e" + std::string trips GCC 12's -Wrestrict (a false positive)
    text += std::to_string(total);
    return std::strtod(text.c_str(), nullptr);
}

} // namespace

double parseQuantity(std::string_view rawText, Dimension dimension) {
    const std::string_view text = trim(rawText);
    if (text.empty())
        throw UnitError("empty quantity; expected " + dimensionName(dimension) + " such as " +
                        example(dimension));
    const std::string owned(text);
    const char* begin = owned.c_str();
    char* numberEnd = nullptr;
    const double number = std::strtod(begin, &numberEnd);
    if (numberEnd == begin)
        throw UnitError("'" + owned + "' does not start with a number; expected " +
                        dimensionName(dimension) + " such as " + example(dimension));
    if (std::isnan(number) || std::isinf(number))
        throw UnitError("'" + owned + "' is not a finite number");
    const std::string_view unit = trim(std::string_view(numberEnd));
    const UnitEntry* unitEntry = nullptr;
    if (!unit.empty()) {
        const UnitEntry* found = nullptr;
        for (const UnitEntry& entry : kUnits)
            if (entry.symbol == unit)
                found = &entry;
        if (found == nullptr)
            throw UnitError("unknown unit '" + std::string(unit) + "' in '" + owned +
                            "'; expected " + dimensionName(dimension) + " such as " +
                            example(dimension));
        if (found->dimension != dimension)
            throw UnitError("'" + owned + "' is " + dimensionName(found->dimension) +
                            ", expected " + dimensionName(dimension) + " such as " +
                            example(dimension));
        unitEntry = found;
    }
    if (number < 0)
        throw UnitError("'" + owned + "' is negative");
    const double value =
        unitEntry == nullptr
            ? number
            : decimalValue(std::string_view(begin, static_cast<std::size_t>(numberEnd - begin)),
                           number, unitEntry->decimalExponent) *
                  unitEntry->binaryFactor;
    if (std::isinf(value))
        throw UnitError("'" + owned + "' is too large");
    return value;
}

std::string formatBytes(double bytes) {
    return formatWithPrefix(bytes, "B");
}

std::string formatBytesPerSecond(double bytesPerSecond) {
    return formatWithPrefix(bytesPerSecond, "B/s");
}

std::string formatSeconds(double seconds) {
    static constexpr std::array<std::pair<double, const char*>, 4> kScales = {
        {{1.0, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}}};
    char buffer[64];
    for (const auto& [scale, unit] : kScales) {
        if (std::fabs(seconds) >= scale || scale == 1e-9) {
            std::snprintf(buffer, sizeof buffer, "%.4g %s", seconds / scale, unit);
            return buffer;
        }
    }
    return "0 s";
}

} // namespace ws
