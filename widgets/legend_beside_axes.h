#pragma once

class QCustomPlot;
class QFont;

namespace ws {

// Moves `plot`'s legend out of the axis rect into a narrow column on its right, in `font`: the
// charts with several curves (the fault study, sweep results) cross every corner of the axes,
// so a legend inside them would hide points.
void placeLegendBesideAxes(QCustomPlot& plot, const QFont& font);

} // namespace ws
