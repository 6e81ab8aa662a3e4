#pragma once

namespace ws {

// O[m, n] = I[m, k] W[k, n]: m rows (tokens), k the reduction (input width), n the output
// width. Element counts, held as doubles because products of them (FLOPs, bytes) are.
struct GemmShape {
    double m = 0;
    double k = 0;
    double n = 0;
    friend bool operator==(const GemmShape&, const GemmShape&) = default;

    double flops() const { return 2.0 * m * k * n; } // one multiply and one add per term
};

} // namespace ws
