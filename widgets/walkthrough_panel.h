#pragma once

#include <QWidget>

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
    // Opens the teaching example (asking about unsaved edits first) and shows step 0.
    void start();
    void showStep(int step);
    QString currentText() const; // the step's explanation as plain text, for tests

private:
    QString stepHtml(int step);

    MainWindow* m_window;
    int m_step = 0;
    QLabel* m_title;
    QTextBrowser* m_text;
    QPushButton* m_back;
    QPushButton* m_next;
};

} // namespace ws
