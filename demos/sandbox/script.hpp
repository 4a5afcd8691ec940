// Input scripts: timed mouse and keyboard events the sandbox replays, so that
// tests (and documentation screenshots) can drive the UI without a person.
//
// One event per line, `FRAME ACTION ARGS`, frames counted from 0; `#` starts
// a comment. Positions are window pixels, or world metres with the `w`
// prefixed actions (converted through the camera when replayed):
//
//     10  move 640 360          mouse to pixel (640, 360)
//     10  wmove 0 5             mouse to the world point (0, 5)
//     11  down left             press a button (left, middle, right)
//     40  up left
//     50  wheel 2               scroll (positive zooms in)
//     60  key space             press and release a key (SDL key names)
//     61  press right           hold a key down (a character runs) ...
//     90  release right         ... until it is released
//     70  drag 640 300 900 200 30   press at the first point, move over 30 frames, release
//     70  wdrag 0 5 3 8 30          the same in world metres
//     90  screenshot shot.png   write the frame (after drawing it)
//     99  quit
//
// Events of one frame are applied in file order before the frame is stepped.
#pragma once

#include <string>
#include <vector>

#include <carom/math.hpp>

namespace carom::sandbox {

struct ScriptEvent {
    enum class Kind { Move, Down, Up, Wheel, Key, Press, Release, Screenshot, Quit };
    int frame = 0;
    Kind kind = Kind::Move;
    Vec2 pos{0.0f, 0.0f};
    bool world = false;  ///< pos is in metres, not pixels
    int button = 1;      ///< SDL_BUTTON_LEFT, _MIDDLE, _RIGHT
    float wheel = 0.0f;
    std::string text;  ///< key name or screenshot file
};

class Script {
   public:
    /// Parses a script file. Throws std::runtime_error "FILE:LINE: message".
    static Script load(const std::string& path);
    /// Parses script text (name is used in messages).
    static Script parse(const std::string& text, const std::string& name);

    /// The events of a frame, in order.
    std::vector<ScriptEvent> eventsAt(int frame) const;
    /// The last frame with an event (-1 when empty).
    int lastFrame() const;
    bool empty() const { return events_.empty(); }

   private:
    std::vector<ScriptEvent> events_;  ///< sorted by frame, stable
};

}  // namespace carom::sandbox
