#include "report/die_metrics_csv.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

TEST(DieMetricsCsv, OneRowPerDieWithMemoryWhenModelled) {
    SimulationReport report;
    DieReport used;
    used.id = 0;
    used.computeS = 0.5;
    used.utilization = 0.25;
    used.peakMemoryBytes = 1'600;
    MemoryBreakdown memory;
    memory.weights = 100;
    memory.gradients = 100;
    memory.optimizer = 600;
    memory.activations = 700;
    memory.streamBuffers = 40;
    memory.commReserve = 60;
    memory.sramCapacity = 1'000;
    memory.hbmCapacity = 10'000;
    used.memory = memory;
    DieReport dead;
    dead.id = 1;
    dead.alive = false;
    report.dies = {used, dead};

    EXPECT_EQ(dieMetricsCsv(report),
              "die,alive,compute_s,utilization,peak_memory_bytes,weights_bytes,gradients_bytes,"
              "optimizer_bytes,activations_bytes,stream_buffers_bytes,comm_reserve_bytes,"
              "total_bytes,sram_bytes,hbm_bytes,fits_sram,out_of_memory\n"
              "0,1,0.5,0.25,1600,100,100,600,700,40,60,1600,1000,10000,0,0\n"
              "1,0,0,0,0,,,,,,,,,,,\n");
}

TEST(DieMetricsCsv, OutOfMemoryAndFitsInSramFlags) {
    SimulationReport report;
    DieReport die;
    MemoryBreakdown memory;
    memory.weights = 5;
    memory.sramCapacity = 2;
    memory.hbmCapacity = 2;
    die.memory = memory;
    report.dies = {die};
    EXPECT_NE(dieMetricsCsv(report).find("\n0,1,0,0,0,5,0,0,0,0,0,5,2,2,0,1\n"), std::string::npos);
    report.dies[0].memory->sramCapacity = 5;
    EXPECT_NE(dieMetricsCsv(report).find(",5,5,2,1,0\n"), std::string::npos);
}

} // namespace
} // namespace ws
