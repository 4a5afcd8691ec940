// What the user has asked for: the state the panels, the keyboard and input
// scripts change, and the frame loop acts on. Requests (restart, open, fit,
// quit, ...) are flags the loop clears once it has acted on them, so that a
// button, a key and a scripted key all go through the same path.
#pragma once

#include <cstdint>
#include <string>

#include <carom/debug_draw.hpp>
#include <carom/types.hpp>

namespace carom::sandbox {

/// What a left click in the world does.
enum class Tool { Drag, SpawnBox, SpawnCircle, SpawnCapsule, Bullet };

struct Controls {
    bool playing = true;
    bool stepOnce = false;
    float timeScale = 1.0f;  ///< simulated seconds per real second
    DebugDrawFlags draw{};
    Tool tool = Tool::Drag;
    bool watchFile = true;  ///< reload the scene when its file changes

    bool showUi = true;
    bool showHelp = false;
    bool showProfiler = true;

    bool requestRestart = false;
    bool requestReload = false;
    bool requestFit = false;
    bool requestQuit = false;
    bool requestApply = false;  ///< rebuild with applyBroadphase / applySubsteps / applyExactJoints
    BroadphaseType applyBroadphase = BroadphaseType::Tree;
    int applySubsteps = 4;
    bool applyExactJoints = true;
    std::string requestOpen;        ///< a scene path to open
    std::string requestScreenshot;  ///< a PNG to write after this frame is drawn

    // A scene with characters (project key `character`): Left/Right/A/D run
    // and Space/Up/W jump instead of panning, pausing and the AABB layer.
    bool characterKeys = false;  ///< set by the frame loop from the scene
    bool runLeft = false;        ///< held
    bool runRight = false;       ///< held
    bool jumpHeld = false;
    bool jumpQueued = false;  ///< a press not yet seen by a step (a tap between two steps)

    // Recording and replay (tape.hpp). The requests are the panel's; the
    // tape fields are the frame loop's report of where the tape is.
    bool requestRecord = false;  ///< start recording, or stop and write the file
    std::string recordPath = "carom-recording.rec";
    int64_t requestSeek = -1;  ///< show the replay at this step
    bool requestLeaveReplay = false;
    bool tapeRecording = false;
    bool tapeReplaying = false;
    int64_t tapeStep = 0;      ///< steps recorded, or the replay's step
    int64_t tapeLength = 0;    ///< the replay's steps
    int64_t tapeMismatch = 0;  ///< first replayed step that differed, 0 if none
    std::string tapeMessage;   ///< "wrote FILE (N steps)", or why not
};

}  // namespace carom::sandbox
