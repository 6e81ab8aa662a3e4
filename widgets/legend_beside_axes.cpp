#include "legend_beside_axes.h"

#include <qcustomplot.h>

namespace ws {

void placeLegendBesideAxes(QCustomPlot& plot, const QFont& font) {
    plot.legend->setFont(font);
    plot.axisRect()->insetLayout()->take(plot.legend);
    plot.plotLayout()->addElement(0, 1, plot.legend);
    // The axes take the width; the legend column only what its entries need.
    plot.plotLayout()->setColumnStretchFactor(1, 0.001);
    plot.legend->setMargins(QMargins(4, 4, 4, 4));
}

} // namespace ws
