#pragma once

#include <QWidget>

#include <optional>
#include <string>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace ws {

class WalkthroughHost;

// Help > Walkthrough: a guided tour of the FSDP/TATP contention example for teaching. Each step
// points at something on screen (the conflicting link, the two flows sharing it, the TCME step
// that separates them, the timeline before and after) and explains it with the numbers the
// simulator gives for the scenario on screen, never numbers from the paper. Its last step opens
// a line of four dies with one slow die and has the Advisor point at the imbalance and offer
// its fix, which the user applies.
class WalkthroughPanel : public QWidget {
    Q_OBJECT
public:
    // The host calls refresh() whenever an analysis is shown or TCME goes busy or idle.
    explicit WalkthroughPanel(WalkthroughHost& host, QWidget* parent = nullptr);

    int stepCount() const;
    int currentStep() const { return m_step; }
    // Opens the teaching example unless the document is that scenario already, and shows
    // step 0 (completed when its simulation arrives: nothing here waits).
    void start();
    void showStep(int step);
    QString currentText() const; // the step's explanation as plain text, for tests
    // Rewrites the step's text from what is on screen now, taking its action once its inputs
    // exist. Nothing here waits.
    void refresh();

private:
    // The step's text from what is on screen now; with `act`, also its action (select the
    // link, run TCME, apply its routes), taken once per visit of the step.
    QString stepHtml(int step, bool act);
    // The last step: the slow-die example, the Advisor's load_imbalance and its fix.
    QString slowDieHtml(bool act);

    WalkthroughHost& m_host;
    int m_step = -1;                             // none until start() or showStep()
    int m_actedOnStep = -1;                      // the step whose action was taken
    std::optional<double> m_makespanBeforeApply; // step 5: the makespan TCME's routes replaced
    std::string m_tatpBeforeApply;               // and the TATP flow it pointed at
    bool m_findingSelected = false;              // step 6: load_imbalance selected once
    std::optional<double> m_stepBeforeFix;       // and the step time the fix is to replace
    QLabel* m_title;
    QTextBrowser* m_text;
    QPushButton* m_back;
    QPushButton* m_next;
};

} // namespace ws
