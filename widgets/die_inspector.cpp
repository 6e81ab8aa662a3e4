#include "die_inspector.h"

#include "std_string_text.h"
#include "units/quantity.h"

namespace ws {

namespace {

QString row(const QString& name, const QString& value) {
    return QStringLiteral("<tr><td>%1</td><td align=right>%2</td></tr>").arg(name, value);
}

} // namespace

DieInspector::DieInspector(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    refresh();
}

void DieInspector::setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis) {
    m_analysis = std::move(analysis);
    refresh();
}

void DieInspector::showDie(int die) {
    m_die = die;
    refresh();
}

void DieInspector::refresh() {
    if (!m_analysis || m_die < 0 || m_die >= m_analysis->topology->dieCount()) {
        setHtml(tr("<p style='color:gray'>Click a die on the mesh to see its sub-tensors, "
                   "compute and memory.</p>"));
        return;
    }
    const WaferTopology& topology = *m_analysis->topology;
    const DieReport& die = m_analysis->report.dies[static_cast<std::size_t>(m_die)];
    const DieCoord coord = topology.coord(m_die);
    QString html = tr("<h3>Die %1 <small>(row %2, column %3)</small></h3>")
                       .arg(m_die)
                       .arg(coord.row)
                       .arg(coord.col);
    if (!die.alive) {
        setHtml(html + tr("<p>Dead: no work is placed here and no link through it is used.</p>"));
        return;
    }
    const DieGroups& groups = m_analysis->groups;
    const int dp = groups.dpOfDie[static_cast<std::size_t>(m_die)];
    const int tatp = groups.tatpOfDie[static_cast<std::size_t>(m_die)];
    html += QStringLiteral("<table width=100%>");
    html += row(tr("DP group"), dp >= 0 ? QStringLiteral("D%1").arg(dp) : tr("none"));
    html += row(tr("TATP group"), tatp >= 0 ? QStringLiteral("T%1").arg(tatp) : tr("none"));
    if (const double speed = m_analysis->scenario.wafer.dieSpeed(m_die); speed < 1.0)
        html +=
            row(tr("Speed"),
                tr("%1% of peak (slow; right-click it on the mesh)").arg(speed * 100, 0, 'g', 3));
    html += row(tr("Compute"), escapedHtml(formatSeconds(die.computeS)));
    html +=
        row(tr("Utilisation"), QString::number(die.utilization * 100, 'f', 1) + QLatin1Char('%'));
    if (m_analysis->report.step && die.memory)
        html += row(
            tr("HBM traffic per step"),
            die.hbmBytes > 0
                ? tr("%1 (%2 at %3)")
                      .arg(escapedHtml(formatBytes(die.hbmBytes)),
                           escapedHtml(formatSeconds(
                               die.hbmBytes / m_analysis->scenario.wafer.die.hbmBandwidth.value)),
                           escapedHtml(formatBytesPerSecond(
                               m_analysis->scenario.wafer.die.hbmBandwidth.value)))
                : tr("none: the step fits in SRAM"));
    html += QStringLiteral("</table>");
    if (die.memory) {
        const MemoryBreakdown& memory = *die.memory;
        html += tr("<h4>Memory per die</h4><table width=100%>");
        html += row(tr("Weights"), escapedHtml(formatBytes(memory.weights)));
        html += row(tr("Gradients"), escapedHtml(formatBytes(memory.gradients)));
        html += row(tr("Optimizer state"), escapedHtml(formatBytes(memory.optimizer)));
        html += row(tr("Activations"), escapedHtml(formatBytes(memory.activations)));
        html += row(tr("Stream buffers"), escapedHtml(formatBytes(memory.streamBuffers)));
        html += row(tr("Comm reserve"), escapedHtml(formatBytes(memory.commReserve)));
        html += row(tr("<b>Total</b>"),
                    QStringLiteral("<b>%1</b>").arg(escapedHtml(formatBytes(memory.total()))));
        html += QStringLiteral("</table>");
        const QString verdict =
            memory.outOfMemory()
                ? tr("<span style='color:#c00'><b>Out of memory</b>: more than SRAM + HBM "
                     "(%1 + %2); the largest term is %3.</span>")
                      .arg(escapedHtml(formatBytes(memory.sramCapacity)),
                           escapedHtml(formatBytes(memory.hbmCapacity)),
                           escapedHtml(memory.dominantTerm()))
            : memory.fitsInSram()
                ? tr("Fits in SRAM (%1).").arg(escapedHtml(formatBytes(memory.sramCapacity)))
                : tr("Spills from SRAM (%1) to HBM (%2).")
                      .arg(escapedHtml(formatBytes(memory.sramCapacity)),
                           escapedHtml(formatBytes(memory.hbmCapacity)));
        html += QStringLiteral("<p>%1</p>").arg(verdict);
    }
    if (!die.tensors.empty()) {
        html += tr("<h4>Sub-tensors</h4><table width=100% cellspacing=2>"
                   "<tr><th align=left>GEMM</th><th align=left>Input</th><th align=left>Weight</th>"
                   "<th align=left>Output</th></tr>");
        for (const TensorReport& tensor : die.tensors)
            html +=
                QStringLiteral("<tr><td>%1</td><td><tt>%2</tt></td><td><tt>%3</tt></td><td><tt>%4</"
                               "tt></td></tr>")
                    .arg(escapedHtml(tensor.gemm), escapedHtml(tensor.input),
                         escapedHtml(tensor.weight), escapedHtml(tensor.output));
        html += QStringLiteral("</table>");
    } else if (!m_analysis->scenario.strategy) {
        html += tr("<p style='color:gray'>Explicit traffic: no sub-tensors (they come from a "
                   "workload and a strategy).</p>");
    }
    setHtml(html);
}

} // namespace ws
