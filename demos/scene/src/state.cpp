// The state object of docs/cli.md.
#include <cstdio>

#include <carom/json_writer.hpp>
#include <carom/scene.hpp>

namespace carom::scene {

std::string hashHex(std::uint64_t hash) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
    return buf;
}

float bodyAngle(const World& world, BodyId id) {
    // atan2 returns [-pi, pi]; the state promises (-pi, pi].
    float a = angleOf(world.rotation(id));
    if (a <= -kPi) a = kPi;
    if (a == 0.0f) a = 0.0f;  // no "-0"
    return a;
}

namespace {

const char* typeName(BodyType t) {
    switch (t) {
        case BodyType::Static:
            return "static";
        case BodyType::Kinematic:
            return "kinematic";
        case BodyType::Dynamic:
            return "dynamic";
    }
    return "dynamic";
}

}  // namespace

std::string stateJson(const SceneRunner& runner) {
    const World& w = runner.world();
    JsonWriter j;
    j.beginObject();
    j.key("scene").value(runner.desc().name);
    j.key("steps").value(static_cast<int64_t>(runner.steps()));
    j.key("time").value(runner.time());
    j.key("hash").value(hashHex(w.stateHash()));
    j.key("bodies").beginArray();
    for (BodyId id : w.bodies()) {
        j.newline();
        j.beginObject();
        std::optional<std::string> name = runner.nameOf(id);
        j.key("name");
        if (name)
            j.value(*name);
        else
            j.null();
        j.key("type").value(typeName(w.bodyType(id)));
        j.key("position").value(w.position(id));
        j.key("angle").value(bodyAngle(w, id));
        j.key("linear_velocity").value(w.linearVelocity(id));
        j.key("angular_velocity").value(w.angularVelocity(id));
        j.key("awake").value(w.isAwake(id));
        j.endObject();
    }
    j.endArray();
    j.endObject();
    std::string out = j.take();
    out += '\n';
    return out;
}

}  // namespace carom::scene
