#pragma once

#include <QWidget>

#include <optional>
#include <string>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace ws {

class MainWindow;

// Help > Walkthrough: a guided tour of the FSDP/TATP contention example for teaching. Each step
// points at something on screen (the conflicting link, the two flows sharing it, the TCME step
// that separates them, the timeline before and after) and explains it with the numbers the
// simulator gives for the scenario on screen, never numbers from the paper.
class WalkthroughPanel : public QWidget {
    Q_OBJECT
public:
    explicit WalkthroughPanel(MainWindow* window);

    int stepCount() const;
    int currentStep() const { return m_step; }
    // Opens the teaching example unless the document is that scenario already, and shows
    // step 0 (completed when its simulation arrives: nothing here waits).
    void start();
    void showStep(int step);
    QString currentText() const; // the step's explanation as plain text, for tests

private:
    void refresh();
    // The step's text from what is on screen now; with `act`, also its action (select the
    // link, run TCME, apply its routes), taken once per visit of the step.
    QString stepHtml(int step, bool act);

    MainWindow* m_window;
    int m_step = -1;                             // none until start() or showStep()
    int m_actedOnStep = -1;                      // the step whose action was taken
    std::optional<double> m_makespanBeforeApply; // step 5: the makespan TCME's routes replaced
    std::string m_tatpBeforeApply;               // and the TATP flow it pointed at
    QLabel* m_title;
    QTextBrowser* m_text;
    QPushButton* m_back;
    QPushButton* m_next;
};

} // namespace ws
