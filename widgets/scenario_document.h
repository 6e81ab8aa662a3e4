#pragma once

#include "edit/scenario_edits.h"
#include "scenario/scenario.h"

#include <QObject>
#include <QString>

#include <filesystem>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

class QByteArray;
class QUndoStack;

namespace ws {

// Owns the scenario being edited, its undo stack, its file path and its modified state
// (docs/architecture.md item 3). Views never change the scenario themselves: they call an edit
// method, which pushes exactly one ScenarioEditCommand.
class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject* parent = nullptr);
    ~ScenarioDocument() override;

    const Scenario& scenario() const { return m_scenario; }
    QUndoStack* undoStack() const { return m_undoStack; }
    // Empty for a scenario never saved (a new one or a built-in example).
    QString filePath() const { return m_filePath; }
    // "contention_fsdp_tatp_4x4.json", or the example's name for an unsaved one.
    QString displayName() const;
    bool isModified() const;

    // Replaces the whole document (a new file or example): clears the undo history.
    // `origin` names where it came from, for the title, when filePath is empty.
    void load(Scenario scenario, const QString& filePath, const QString& origin = {});
    // load, then marks the document modified: edits recovered from an autosave
    // (AutosaveRecovery), unsaved until the user saves them.
    void restoreUnsaved(Scenario scenario, const QString& filePath, const QString& origin);
    // Reads and validates a file (or a ":/scenarios/..." resource). On failure returns false
    // and sets `error` to "FILE: key.path: problem"; the document is unchanged. A built-in
    // example, or a file identical to one (resources/scenarios/ of the source tree), opens
    // without a file path: read-only, Save asks where.
    bool openFile(const QString& path, QString* error);
    // Reads and parses `path` (relative paths such as workload.hf_config resolved in
    // `directory`), and hands back its bytes in `text` if asked. Nullopt, with "FILE: cannot be
    // read: reason" or "FILE: key.path: problem" in `error`, on failure. openFile and the
    // autosave's recovery (AutosaveRecovery) read through it.
    static std::optional<Scenario> readScenarioFile(const QString& path,
                                                    const std::filesystem::path& directory,
                                                    QString* error, QByteArray* text = nullptr);
    // Writes the text core's saveScenario writes (the documented key order, as Export does),
    // atomically: a failed save leaves the old file intact and sets `error` to
    // "FILE: cannot be written: reason". Refuses a file the project ships (isShippedPath).
    bool saveAs(const QString& path, QString* error);
    // Writes the scenario to `path` as saveAs does, without making it the document's file
    // (autosave).
    bool writeCopy(const QString& path, QString* error) const;

    // Pushes one undoable edit that replaces the scenario with `after`.
    void edit(const QString& text, Scenario after, int mergeId = -1);
    // One method per user intention (core/edit/scenario_edits.h), each one undo command with
    // its own text. On a refusal nothing changes, `reason` gets core's sentence and the method
    // returns false. Consecutive edits of one degree, or of the wafer size, merge into one
    // command (a spin box's steps).
    bool setStrategyDegree(StrategyDegree degree, int value, QString* reason);
    bool setStrategyFlag(StrategyFlag flag, bool on, QString* reason);
    bool setActivationCheckpointing(Checkpointing checkpointing, QString* reason);
    bool setStrategyMapping(StrategySpec::MappingKind mapping, QString* reason);
    bool setModelPreset(const QString& preset, QString* reason);
    bool setWorkloadSize(WorkloadSize size, long long value, QString* reason);
    bool resizeWafer(int rows, int cols, QString* reason);
    // One key of wafer.die (ws::setDieKey): a number, or a quantity's text.
    bool setDieKey(const QString& key, const nlohmann::json& value, QString* reason);
    // wafer.link_bandwidth or wafer.link_latency: a quantity's text (ws::setLinkKey).
    bool setLinkKey(const QString& key, const nlohmann::json& value, QString* reason);
    // One key of wafer.energy, a number (ws::setEnergyKey).
    bool setEnergyKey(const QString& key, double value, QString* reason);
    // A hardware preset applied to the wafer, keeping its size (ws::setWaferPreset).
    bool setWaferPreset(const QString& preset, QString* reason);
    // The network model and store-and-forward chunk (ws::setNetworkModel).
    bool setNetworkModel(NetworkModel model, double chunkBytes, QString* reason);
    // A die's fraction of its peak FLOP/s, 1 for full speed (ws::setDieSpeed).
    bool setDieSpeed(DieId die, double speed, QString* reason);
    // A die or a link dead, or alive again (ws::setDieDead, ws::setLinkDead): one direction of
    // the link, or with `bothWays` both, as one undo step.
    bool setDieDead(DieId die, bool dead, QString* reason);
    bool setLinkDead(const WaferTopology& topology, DieId from, DieId to, bool dead,
                     QString* reason, bool bothWays = false);
    // strategy.balance: even shares or shares by speed (ws::setStrategyBalance).
    bool setStrategyBalance(StrategySpec::Balance balance, QString* reason);
    // An advisor finding's fix (advice/advisor.h: applyFix, dotted keys to values) as one undo
    // command "Apply fix: <findingId>". Refused with the reader's sentence when the fix does not
    // apply to the scenario as it is, or when it would change nothing.
    bool applyFix(const QString& findingId, const nlohmann::ordered_json& fix, QString* reason);
    // Drops die a onto die b for each pair in turn (core: swapDies), as one undo command.
    bool swapDies(const std::vector<std::pair<DieId, DieId>>& swaps, const QString& text,
                  QString* reason);
    // `text` names the result for the undo history ("Apply searched strategy: ...").
    bool applySearchedStrategy(const Scenario& searched, const Scenario& best,
                               const StrategySpec& strategy, const QString& text, QString* reason);
    bool applyTunedRoutes(const Scenario& tuned, const QString& text, QString* reason);

    // For ScenarioEditCommand only: sets the scenario and announces it.
    void replaceScenario(const Scenario& scenario);

signals:
    void scenarioChanged();  // any change: an edit, undo, redo or load
    void documentReplaced(); // a different scenario was loaded (file, example, new)
    void filePathChanged(const QString& filePath);
    void modifiedChanged(bool modified);

private:
    // Pushes change(m_scenario) as one command, or reports core's refusal.
    bool editBy(const QString& text, const std::function<Scenario(const Scenario&)>& change,
                QString* reason, int mergeId = -1);

    Scenario m_scenario;
    QUndoStack* m_undoStack;
    QString m_filePath;
    QString m_origin;
};

} // namespace ws
