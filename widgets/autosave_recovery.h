#pragma once

#include "app_settings.h"

#include <QDateTime>
#include <QString>

#include <optional>

namespace ws {

class ScenarioDocument;

// Unsaved edits written to AppSettings::autosavePath every minute, and offered back at the next
// start when the app never got to save or discard them (a crash, a killed session: docs/gui.md,
// "Recovery"). The autosave remembers the file it belongs to; it is offered only while it is
// newer than that file, so edits saved since are not offered twice.
class AutosaveRecovery {
public:
    struct Offer {
        QString filePath;    // the document's file; empty for an example or an untitled one
        QString displayName; // "contention_fsdp_tatp_4x4.json", as the title showed it
        QDateTime savedAt;   // when the autosave was written
    };

    // Writes the document's scenario and where it belongs. False, with `error`, when the file
    // cannot be written.
    bool write(const ScenarioDocument& document, QString* error);
    // The edits were saved or deliberately discarded: nothing is left to offer.
    void forget();
    // What an autosave left by an earlier session holds, if one should be offered.
    std::optional<Offer> pending() const;
    // Loads the autosave into `document` as unsaved edits of its file (the title is marked
    // modified and Save writes that file; for an example or untitled document Save asks where).
    // False, with "FILE: key.path: problem", when the autosave cannot be read; it is kept.
    bool restore(ScenarioDocument& document, QString* error);

private:
    AppSettings m_settings;
};

} // namespace ws
