// Recordings (<carom/recording.hpp>): the container, its byte form, the
// World recorder and the body-by-body comparison of two worlds.
#include <carom/recording.hpp>

#include <cstring>
#include <string>

#include <carom/error.hpp>
#include <carom/snapshot.hpp>
#include <carom/world.hpp>

#include "engine/core/rules.hpp"
#include "engine/world/snapshot_bytes.hpp"

namespace carom {

namespace {

constexpr char kMagic[8] = {'C', 'A', 'R', 'O', 'M', 'R', 'E', 'C'};
constexpr size_t kHeaderSize = 8 + 4 + 4 + 8 + 8;

[[noreturn]] void refuseBytes(const std::string& why) {
    detail::refuseWhy("bytes", "Recording::fromBytes: " + why);
}

void checkKind(const std::string& kind, const char* field) {
    bool ok = !kind.empty() && kind.size() <= 32;
    for (char c : kind)
        ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-');
    if (!ok) detail::refuse(field, "1 to 32 letters, digits or '-'", "\"" + kind + "\"");
}

// The rules of a recording's contents, for bytes() (naming the member) and
// fromBytes() (naming what the file holds).
void checkContents(const Recording& r) {
    checkKind(r.kind, "kind");
    if (r.keyframeInterval < 1)
        detail::refuse("keyframeInterval", ">= 1", std::to_string(r.keyframeInterval));
    int64_t last = -1;
    for (size_t i = 0; i < r.keyframes.size(); ++i) {
        const int64_t step = r.keyframes[i].step;
        if (step <= last || step > int64_t(r.frames.size()))
            detail::refuse("keyframes[" + std::to_string(i) + "].step",
                           "increasing, within [0, " + std::to_string(r.frames.size()) + "]",
                           std::to_string(step));
        last = step;
    }
}

void putU32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void putU64(std::vector<uint8_t>& out, uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void putBlock(std::vector<uint8_t>& out, std::span<const uint8_t> data) {
    putU64(out, data.size());
    out.insert(out.end(), data.begin(), data.end());
}

// Reads little-endian fields, refusing to go past the end.
class In {
   public:
    In(const uint8_t* p, size_t n) : p_(p), n_(n) {}
    uint64_t u(int bytes, const char* what) {
        need(size_t(bytes), what);
        uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) v |= uint64_t(p_[at_ + size_t(i)]) << (8 * i);
        at_ += size_t(bytes);
        return v;
    }
    std::vector<uint8_t> block(const char* what) {
        const uint64_t size = u(8, what);
        need(size, what);
        std::vector<uint8_t> out(p_ + at_, p_ + at_ + size);
        at_ += size_t(size);
        return out;
    }
    size_t left() const { return n_ - at_; }

   private:
    void need(uint64_t bytes, const char* what) const {
        if (bytes > n_ - at_)
            refuseBytes(std::string("truncated in ") + what + " (" + std::to_string(n_ - at_) +
                        " bytes left, " + std::to_string(bytes) + " needed)");
    }
    const uint8_t* p_;
    size_t n_;
    size_t at_ = 0;
};

}  // namespace

const Recording::Keyframe* Recording::keyframeBefore(int64_t step) const {
    const Keyframe* best = nullptr;
    for (const Keyframe& k : keyframes) {
        if (k.step > step) break;
        best = &k;
    }
    return best;
}

std::vector<uint8_t> Recording::bytes() const {
    checkContents(*this);
    std::vector<uint8_t> payload;
    putBlock(payload, std::span(reinterpret_cast<const uint8_t*>(kind.data()), kind.size()));
    putBlock(payload, initial);
    putU32(payload, uint32_t(keyframeInterval));
    putU64(payload, frames.size());
    for (const Frame& f : frames) {
        putU64(payload, f.hash);
        putBlock(payload, f.input);
    }
    putU64(payload, keyframes.size());
    for (const Keyframe& k : keyframes) {
        putU64(payload, uint64_t(k.step));
        putBlock(payload, k.state);
    }
    std::vector<uint8_t> out;
    out.reserve(kHeaderSize + payload.size());
    for (char c : kMagic) out.push_back(uint8_t(c));
    putU32(out, kRecordingFormatVersion);
    putU32(out, 0);
    putU64(out, payload.size());
    putU64(out, detail::snapshotChecksum(payload.data(), payload.size()));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

Recording Recording::fromBytes(std::span<const uint8_t> bytes) {
    if (bytes.size() < kHeaderSize)
        refuseBytes("truncated header (" + std::to_string(bytes.size()) + " bytes, " +
                    std::to_string(kHeaderSize) + " needed)");
    if (std::memcmp(bytes.data(), kMagic, 8) != 0) refuseBytes("not a Carom recording (bad magic)");
    In header(bytes.data() + 8, kHeaderSize - 8);
    const uint64_t version = header.u(4, "the header");
    const uint64_t reserved = header.u(4, "the header");
    const uint64_t size = header.u(8, "the header");
    const uint64_t sum = header.u(8, "the header");
    if (version != kRecordingFormatVersion)
        refuseBytes("format version " + std::to_string(version) + ", this build reads " +
                    std::to_string(kRecordingFormatVersion));
    if (reserved != 0) refuseBytes("reserved header field is not zero");
    if (size != bytes.size() - kHeaderSize)
        refuseBytes("payload of " + std::to_string(bytes.size() - kHeaderSize) +
                    " bytes, the header says " + std::to_string(size));
    const uint8_t* payload = bytes.data() + kHeaderSize;
    if (detail::snapshotChecksum(payload, size_t(size)) != sum)
        refuseBytes("checksum mismatch (damaged)");
    In in(payload, size_t(size));
    Recording r;
    const std::vector<uint8_t> kind = in.block("the kind");
    r.kind.assign(kind.begin(), kind.end());
    r.initial = in.block("the initial state");
    r.keyframeInterval = int32_t(uint32_t(in.u(4, "the keyframe interval")));
    const uint64_t frames = in.u(8, "the frame count");
    // Each frame takes at least 16 bytes: a count beyond that is damage.
    if (frames > in.left() / 16) refuseBytes(std::to_string(frames) + " frames cannot fit");
    r.frames.resize(size_t(frames));
    for (Frame& f : r.frames) {
        f.hash = in.u(8, "a frame");
        f.input = in.block("a frame");
    }
    const uint64_t keys = in.u(8, "the keyframe count");
    if (keys > in.left() / 16) refuseBytes(std::to_string(keys) + " keyframes cannot fit");
    r.keyframes.resize(size_t(keys));
    for (Keyframe& k : r.keyframes) {
        k.step = int64_t(in.u(8, "a keyframe"));
        k.state = in.block("a keyframe");
    }
    if (in.left() != 0) refuseBytes(std::to_string(in.left()) + " bytes after the keyframes");
    try {
        checkContents(r);
    } catch (const Error& e) {
        refuseBytes(e.what());
    }
    return r;
}

Recorder::Recorder(const World& world, int32_t keyframeInterval) {
    if (keyframeInterval < 1)
        detail::refuse("keyframeInterval", ">= 1", std::to_string(keyframeInterval));
    recording_.kind = "world";
    recording_.keyframeInterval = keyframeInterval;
    recording_.initial = world.snapshot().bytes();
}

void Recorder::frame(const World& world, std::span<const uint8_t> input) {
    Recording& r = recording_;
    r.frames.push_back({std::vector<uint8_t>(input.begin(), input.end()), world.stateHash()});
    const int64_t step = int64_t(r.frames.size());
    if (step % r.keyframeInterval == 0) r.keyframes.push_back({step, world.snapshot().bytes()});
}

namespace {

std::string vecText(Vec2 v) {
    std::string text = "(";
    text += detail::formatFloat(v.x);
    text += ", ";
    text += detail::formatFloat(v.y);
    text += ")";
    return text;
}
bool same(float a, float b) {
    uint32_t x, y;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
    return x == y;
}
bool same(Vec2 a, Vec2 b) {
    return same(a.x, b.x) && same(a.y, b.y);
}

}  // namespace

BodyDifference firstBodyDifference(const World& recorded, const World& replayed) {
    const std::vector<BodyId> a = recorded.bodies(), b = replayed.bodies();
    BodyDifference d;
    const size_t n = std::max(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
        d.index = int(i);
        if (i >= a.size() || i >= b.size()) {
            d.found = true;
            if (i < a.size()) d.recorded = a[i];
            if (i < b.size()) d.replayed = b[i];
            d.what = i < a.size() ? "only in the recording" : "only in the replay";
            return d;
        }
        d.recorded = a[i];
        d.replayed = b[i];
        auto differ = [&](const char* name, const std::string& x, const std::string& y) {
            d.found = true;
            d.what = std::string(name) + " " + x + " against " + y;
        };
        const Transform xa = recorded.transform(a[i]), xb = replayed.transform(b[i]);
        if (recorded.bodyType(a[i]) != replayed.bodyType(b[i]))
            differ("type", std::to_string(int(recorded.bodyType(a[i]))),
                   std::to_string(int(replayed.bodyType(b[i]))));
        else if (!same(xa.p, xb.p))
            differ("position", vecText(xa.p), vecText(xb.p));
        else if (!same(xa.q.c, xb.q.c) || !same(xa.q.s, xb.q.s))
            differ("rotation", vecText({xa.q.c, xa.q.s}), vecText({xb.q.c, xb.q.s}));
        else if (!same(recorded.linearVelocity(a[i]), replayed.linearVelocity(b[i])))
            differ("linear velocity", vecText(recorded.linearVelocity(a[i])),
                   vecText(replayed.linearVelocity(b[i])));
        else if (!same(recorded.angularVelocity(a[i]), replayed.angularVelocity(b[i])))
            differ("angular velocity", detail::formatFloat(recorded.angularVelocity(a[i])),
                   detail::formatFloat(replayed.angularVelocity(b[i])));
        else if (recorded.isAwake(a[i]) != replayed.isAwake(b[i]))
            differ("awake", recorded.isAwake(a[i]) ? "true" : "false",
                   replayed.isAwake(b[i]) ? "true" : "false");
        if (d.found) return d;
    }
    return BodyDifference{};
}

}  // namespace carom
