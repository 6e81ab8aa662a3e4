#include "report/die_metrics_csv.h"

#include <sstream>

namespace ws {

std::string dieMetricsCsv(const SimulationReport& report) {
    std::ostringstream out;
    out.precision(17); // round-trips a double
    out << "die,alive,compute_s,utilization,peak_memory_bytes,weights_bytes,gradients_bytes,"
           "optimizer_bytes,activations_bytes,stream_buffers_bytes,comm_reserve_bytes,"
           "total_bytes,sram_bytes,hbm_bytes,fits_sram,out_of_memory\n";
    for (const DieReport& die : report.dies) {
        out << die.id << ',' << (die.alive ? 1 : 0) << ',' << die.computeS << ',' << die.utilization
            << ',' << die.peakMemoryBytes;
        if (die.memory) {
            const MemoryBreakdown& memory = *die.memory;
            out << ',' << memory.weights << ',' << memory.gradients << ',' << memory.optimizer
                << ',' << memory.activations << ',' << memory.streamBuffers << ','
                << memory.commReserve << ',' << memory.total() << ',' << memory.sramCapacity << ','
                << memory.hbmCapacity << ',' << (memory.fitsInSram() ? 1 : 0) << ','
                << (memory.outOfMemory() ? 1 : 0);
        } else {
            out << ",,,,,,,,,,,";
        }
        out << '\n';
    }
    return out.str();
}

} // namespace ws
