#include "trace.hpp"

#include <stdexcept>

#include <carom/json_writer.hpp>

namespace carom::cli {

namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

}  // namespace

Trace::Trace(const std::string& path, std::int64_t every)
    : path_(path), every_(every), out_(path, std::ios::trunc) {
    if (!out_) throw std::runtime_error("cannot write the trace file " + path);
    out_ << "step,time,name,x,y,angle,vx,vy,w,awake\n";
}

void Trace::record(const scene::SceneRunner& runner) {
    if (runner.steps() % every_ != 0) return;
    const World& w = runner.world();
    std::string prefix =
        std::to_string(runner.steps()) + "," + scene::formatDouble(runner.time()) + ",";
    std::string row;
    for (BodyId id : w.bodies()) {
        std::optional<std::string> name = runner.nameOf(id);
        Vec2 p = w.position(id);
        Vec2 v = w.linearVelocity(id);
        row = prefix;
        row += name ? csvField(*name) : std::string();
        row += ',' + scene::formatFloat(p.x) + ',' + scene::formatFloat(p.y) + ',' +
               scene::formatFloat(scene::bodyAngle(w, id)) + ',' + scene::formatFloat(v.x) + ',' +
               scene::formatFloat(v.y) + ',' + scene::formatFloat(w.angularVelocity(id)) + ',' +
               (w.isAwake(id) ? "1" : "0") + '\n';
        out_ << row;
    }
}

void Trace::close() {
    out_.close();
    if (!out_) throw std::runtime_error("cannot write the trace file " + path_);
}

}  // namespace carom::cli
