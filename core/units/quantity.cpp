#include "units/quantity.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ws {
namespace {

struct UnitEntry {
    std::string_view symbol;
    Dimension dimension;
    double factor; // to SI base units
};

constexpr double kKi = 1024.0;

// Every unit spelling accepted, longest-match not needed because the whole suffix must match.
constexpr std::array kUnits = {
    // data sizes (bytes); lower-case b is bits
    UnitEntry{"B", Dimension::Bytes, 1.0},
    UnitEntry{"kB", Dimension::Bytes, 1e3},
    UnitEntry{"KB", Dimension::Bytes, 1e3},
    UnitEntry{"MB", Dimension::Bytes, 1e6},
    UnitEntry{"GB", Dimension::Bytes, 1e9},
    UnitEntry{"TB", Dimension::Bytes, 1e12},
    UnitEntry{"PB", Dimension::Bytes, 1e15},
    UnitEntry{"KiB", Dimension::Bytes, kKi},
    UnitEntry{"MiB", Dimension::Bytes, kKi* kKi},
    UnitEntry{"GiB", Dimension::Bytes, kKi* kKi* kKi},
    UnitEntry{"TiB", Dimension::Bytes, kKi* kKi* kKi* kKi},
    UnitEntry{"PiB", Dimension::Bytes, kKi* kKi* kKi* kKi* kKi},
    UnitEntry{"b", Dimension::Bytes, 1.0 / 8},
    UnitEntry{"kb", Dimension::Bytes, 1e3 / 8},
    UnitEntry{"Kb", Dimension::Bytes, 1e3 / 8},
    UnitEntry{"Mb", Dimension::Bytes, 1e6 / 8},
    UnitEntry{"Gb", Dimension::Bytes, 1e9 / 8},
    UnitEntry{"Tb", Dimension::Bytes, 1e12 / 8},
    UnitEntry{"Kib", Dimension::Bytes, kKi / 8},
    UnitEntry{"Mib", Dimension::Bytes, kKi* kKi / 8},
    UnitEntry{"Gib", Dimension::Bytes, kKi* kKi* kKi / 8},
    // times
    UnitEntry{"s", Dimension::Seconds, 1.0},
    UnitEntry{"ms", Dimension::Seconds, 1e-3},
    UnitEntry{"us", Dimension::Seconds, 1e-6},
    UnitEntry{"\xC2\xB5s", Dimension::Seconds, 1e-6}, // "µs" in UTF-8
    UnitEntry{"ns", Dimension::Seconds, 1e-9},
    UnitEntry{"ps", Dimension::Seconds, 1e-12},
    // rates (bytes per second); lower-case b is bits per second
    UnitEntry{"B/s", Dimension::BytesPerSecond, 1.0},
    UnitEntry{"kB/s", Dimension::BytesPerSecond, 1e3},
    UnitEntry{"KB/s", Dimension::BytesPerSecond, 1e3},
    UnitEntry{"MB/s", Dimension::BytesPerSecond, 1e6},
    UnitEntry{"GB/s", Dimension::BytesPerSecond, 1e9},
    UnitEntry{"TB/s", Dimension::BytesPerSecond, 1e12},
    UnitEntry{"PB/s", Dimension::BytesPerSecond, 1e15},
    UnitEntry{"KiB/s", Dimension::BytesPerSecond, kKi},
    UnitEntry{"MiB/s", Dimension::BytesPerSecond, kKi* kKi},
    UnitEntry{"GiB/s", Dimension::BytesPerSecond, kKi* kKi* kKi},
    UnitEntry{"TiB/s", Dimension::BytesPerSecond, kKi* kKi* kKi* kKi},
    UnitEntry{"b/s", Dimension::BytesPerSecond, 1.0 / 8},
    UnitEntry{"kb/s", Dimension::BytesPerSecond, 1e3 / 8},
    UnitEntry{"Kb/s", Dimension::BytesPerSecond, 1e3 / 8},
    UnitEntry{"Mb/s", Dimension::BytesPerSecond, 1e6 / 8},
    UnitEntry{"Gb/s", Dimension::BytesPerSecond, 1e9 / 8},
    UnitEntry{"Tb/s", Dimension::BytesPerSecond, 1e12 / 8},
    // compute rates
    UnitEntry{"FLOP/s", Dimension::FlopsPerSecond, 1.0},
    UnitEntry{"kFLOP/s", Dimension::FlopsPerSecond, 1e3},
    UnitEntry{"MFLOP/s", Dimension::FlopsPerSecond, 1e6},
    UnitEntry{"GFLOP/s", Dimension::FlopsPerSecond, 1e9},
    UnitEntry{"TFLOP/s", Dimension::FlopsPerSecond, 1e12},
    UnitEntry{"PFLOP/s", Dimension::FlopsPerSecond, 1e15},
    UnitEntry{"FLOPS", Dimension::FlopsPerSecond, 1.0},
    UnitEntry{"GFLOPS", Dimension::FlopsPerSecond, 1e9},
    UnitEntry{"TFLOPS", Dimension::FlopsPerSecond, 1e12},
    UnitEntry{"PFLOPS", Dimension::FlopsPerSecond, 1e15},
    // compute amounts
    UnitEntry{"FLOP", Dimension::Flops, 1.0},
    UnitEntry{"GFLOP", Dimension::Flops, 1e9},
    UnitEntry{"TFLOP", Dimension::Flops, 1e12},
    UnitEntry{"PFLOP", Dimension::Flops, 1e15},
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
    double factor = 1.0;
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
        factor = found->factor;
    }
    if (number < 0)
        throw UnitError("'" + owned + "' is negative");
    const double value = number * factor;
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
