#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace ws {

// The physical dimension a quantity must have. Values are always held in SI base units:
// bytes, seconds, bytes per second and FLOP per second.
enum class Dimension { Bytes, Seconds, BytesPerSecond, FlopsPerSecond, Flops };

// Thrown for text that is not a valid quantity; what() says why, without a key path
// (the caller adds "key.path: ").
class UnitError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A value in SI base units plus the text it was written as ("4 TB/s"), kept so that a
// scenario saves back the way the user wrote it. `text` is empty for plain numbers.
struct Quantity {
    double value = 0.0;
    std::string text;

    friend bool operator==(const Quantity&, const Quantity&) = default;
};

// Parses "4 TB/s", "100 Gb/s" (bits), "64 MiB", "1.5 us", "1000 TFLOP/s", "2e6" (base units).
// Decimal prefixes are powers of 1000 and binary ones (Ki, Mi, Gi, Ti, Pi) powers of 1024;
// a lower-case 'b' means bits. Throws UnitError for an unknown unit, a unit of another
// dimension, a negative value, NaN or infinity.
double parseQuantity(std::string_view text, Dimension dimension);

// The name of a dimension for messages: "a data size", "a time", ...
std::string dimensionName(Dimension dimension);

// Human formatting with 4 significant digits and a decimal prefix: "64 MB", "1.5 us",
// "4 TB/s". Not meant to round-trip exactly (files keep the user's own text).
std::string formatBytes(double bytes);
std::string formatSeconds(double seconds);
std::string formatBytesPerSecond(double bytesPerSecond);

} // namespace ws
