#include "script.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <SDL.h>

namespace carom::sandbox {

namespace {

int parseButton(const std::string& name) {
    if (name == "left") return SDL_BUTTON_LEFT;
    if (name == "middle") return SDL_BUTTON_MIDDLE;
    if (name == "right") return SDL_BUTTON_RIGHT;
    return 0;
}

}  // namespace

Script Script::load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open the script");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse(ss.str(), path);
}

Script Script::parse(const std::string& text, const std::string& name) {
    Script s;
    std::istringstream lines(text);
    std::string line;
    int lineNo = 0;
    while (std::getline(lines, line)) {
        ++lineNo;
        if (size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream in(line);
        int frame = 0;
        std::string action;
        if (!(in >> frame)) {
            std::string rest;
            if (std::istringstream(line) >> rest)
                throw std::runtime_error(name + ":" + std::to_string(lineNo) +
                                         ": expected a frame number");
            continue;  // blank line
        }
        auto fail = [&](const std::string& what) {
            return std::runtime_error(name + ":" + std::to_string(lineNo) + ": " + what);
        };
        if (frame < 0) throw fail("frame must be >= 0");
        if (!(in >> action)) throw fail("expected an action after the frame");
        ScriptEvent e;
        e.frame = frame;
        if (action == "move" || action == "wmove") {
            e.kind = ScriptEvent::Kind::Move;
            e.world = action[0] == 'w';
            if (!(in >> e.pos.x >> e.pos.y)) throw fail(action + ": expected X Y");
            s.events_.push_back(e);
        } else if (action == "down" || action == "up") {
            e.kind = action == "down" ? ScriptEvent::Kind::Down : ScriptEvent::Kind::Up;
            std::string b;
            in >> b;
            e.button = parseButton(b);
            if (e.button == 0) throw fail(action + ": expected left, middle or right");
            s.events_.push_back(e);
        } else if (action == "wheel") {
            e.kind = ScriptEvent::Kind::Wheel;
            if (!(in >> e.wheel)) throw fail("wheel: expected an amount");
            s.events_.push_back(e);
        } else if (action == "key" || action == "press" || action == "release") {
            e.kind = action == "key"     ? ScriptEvent::Kind::Key
                     : action == "press" ? ScriptEvent::Kind::Press
                                         : ScriptEvent::Kind::Release;
            if (!(in >> e.text) || SDL_GetKeyFromName(e.text.c_str()) == SDLK_UNKNOWN)
                throw fail(action + ": expected an SDL key name");
            s.events_.push_back(e);
        } else if (action == "screenshot") {
            e.kind = ScriptEvent::Kind::Screenshot;
            if (!(in >> e.text)) throw fail("screenshot: expected a file name");
            s.events_.push_back(e);
        } else if (action == "quit") {
            e.kind = ScriptEvent::Kind::Quit;
            s.events_.push_back(e);
        } else if (action == "drag" || action == "wdrag") {
            // Expands to: move to A, press, one move per frame towards B, release.
            Vec2 a{0.0f, 0.0f};
            Vec2 b{0.0f, 0.0f};
            int frames = 0;
            if (!(in >> a.x >> a.y >> b.x >> b.y >> frames) || frames < 1)
                throw fail(action + ": expected X0 Y0 X1 Y1 FRAMES (FRAMES >= 1)");
            e.world = action[0] == 'w';
            e.kind = ScriptEvent::Kind::Move;
            e.pos = a;
            s.events_.push_back(e);
            e.kind = ScriptEvent::Kind::Down;
            e.button = SDL_BUTTON_LEFT;
            s.events_.push_back(e);
            for (int i = 1; i <= frames; ++i) {
                e.kind = ScriptEvent::Kind::Move;
                e.frame = frame + i;
                e.pos = lerp(a, b, static_cast<float>(i) / static_cast<float>(frames));
                s.events_.push_back(e);
            }
            e.kind = ScriptEvent::Kind::Up;
            s.events_.push_back(e);
        } else {
            throw fail("unknown action \"" + action + "\"");
        }
        std::string extra;
        if (in >> extra) throw fail("unexpected \"" + extra + "\" at the end of the line");
    }
    std::stable_sort(s.events_.begin(), s.events_.end(),
                     [](const ScriptEvent& x, const ScriptEvent& y) { return x.frame < y.frame; });
    return s;
}

std::vector<ScriptEvent> Script::eventsAt(int frame) const {
    auto lo = std::lower_bound(events_.begin(), events_.end(), frame,
                               [](const ScriptEvent& e, int f) { return e.frame < f; });
    std::vector<ScriptEvent> out;
    for (auto it = lo; it != events_.end() && it->frame == frame; ++it) out.push_back(*it);
    return out;
}

int Script::lastFrame() const {
    return events_.empty() ? -1 : events_.back().frame;
}

}  // namespace carom::sandbox
