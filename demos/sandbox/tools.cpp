#include "tools.hpp"

#include "world_tools.hpp"

#include <algorithm>
#include <cmath>

namespace carom::sandbox {

namespace {

bool toggle(bool& flag) {
    return flag = !flag;
}

// The keys that drive a scene's characters: held state for running, and a
// jump that is remembered until a step sees it (a tap shorter than a frame).
bool characterKey(const SDL_Event& e, Controls& c) {
    const bool down = e.type == SDL_KEYDOWN;
    switch (e.key.keysym.sym) {
        case SDLK_LEFT:
        case SDLK_a:
            c.runLeft = down;
            return true;
        case SDLK_RIGHT:
        case SDLK_d:
            c.runRight = down;
            return true;
        case SDLK_SPACE:
        case SDLK_UP:
        case SDLK_w:
            if (down && !c.jumpHeld) c.jumpQueued = true;
            c.jumpHeld = down;
            return true;
        default:
            return false;
    }
}

}  // namespace

void Tools::reset() {
    ground_ = {};
    joint_ = {};
    grabbed_ = {};
    panning_ = false;
}

void Tools::removeFromWorld(World& world) {
    endDrag(&world);
    if (!ground_.isNull() && world.isValid(ground_)) world.destroyBody(ground_);
    ground_ = {};
}

BodyId Tools::spawn(World& world, Tool kind, Vec2 at, float viewHeight) {
    return spawnBody(world, kind, at, viewHeight);
}

BodyId Tools::fireBullet(World& world, const Camera& camera, Vec2 target) {
    return sandbox::fireBullet(world, camera, target);
}

void Tools::beginDrag(World& world, Vec2 p) {
    joint_ = grabBody(world, p, ground_, grabbed_);
}

void Tools::endDrag(World* world) {
    if (world != nullptr && !joint_.isNull() && world->isValid(joint_)) world->destroyJoint(joint_);
    joint_ = {};
    grabbed_ = {};
}

bool Tools::handleEvent(const SDL_Event& e, World* world, Camera& camera, Controls& c) {
    bool changed = false;  // the world, by a drag, a spawn or a bullet
    switch (e.type) {
        case SDL_MOUSEMOTION: {
            Vec2 now{static_cast<float>(e.motion.x), static_cast<float>(e.motion.y)};
            if (panning_) camera.panPixels(now - mouse_);
            mouse_ = now;
            break;
        }
        case SDL_MOUSEBUTTONDOWN: {
            mouse_ = {static_cast<float>(e.button.x), static_cast<float>(e.button.y)};
            Vec2 p = camera.screenToWorld(mouse_);
            if (e.button.button != SDL_BUTTON_LEFT || world == nullptr) {
                panning_ = true;
                break;
            }
            switch (c.tool) {
                case Tool::Drag:
                    beginDrag(*world, p);
                    changed = !joint_.isNull();
                    // A click on empty space drags the view instead.
                    panning_ = joint_.isNull();
                    break;
                case Tool::Bullet:
                    fireBullet(*world, camera, p);
                    changed = true;
                    break;
                default:
                    spawn(*world, c.tool, p, camera.viewHeight());
                    changed = true;
                    break;
            }
            break;
        }
        case SDL_MOUSEBUTTONUP:
            if (e.button.button == SDL_BUTTON_LEFT) {
                changed = dragging();
                endDrag(world);
            }
            panning_ = false;
            break;
        case SDL_MOUSEWHEEL: {
            float notches = static_cast<float>(e.wheel.y);
            if (e.wheel.direction == SDL_MOUSEWHEEL_FLIPPED) notches = -notches;
            camera.zoomAt(mouse_, std::pow(1.15f, notches));
            break;
        }
        case SDL_KEYUP:
        case SDL_KEYDOWN: {
            if (c.characterKeys && characterKey(e, c)) break;
            if (e.type == SDL_KEYUP) break;
            Vec2 cursor = camera.screenToWorld(mouse_);
            float panStep = 0.1f * static_cast<float>(camera.height());
            switch (e.key.keysym.sym) {
                case SDLK_SPACE:
                    toggle(c.playing);
                    break;
                case SDLK_s:
                case SDLK_PERIOD:
                    c.playing = false;
                    c.stepOnce = true;
                    break;
                case SDLK_r:
                    c.requestRestart = true;
                    break;
                case SDLK_l:
                    c.requestReload = true;
                    break;
                case SDLK_f:
                    c.requestFit = true;
                    break;
                case SDLK_h:
                case SDLK_F1:
                    toggle(c.showHelp);
                    break;
                case SDLK_TAB:
                    toggle(c.showUi);
                    break;
                case SDLK_ESCAPE:
                    if (c.showHelp)
                        c.showHelp = false;
                    else
                        c.requestQuit = true;
                    break;
                case SDLK_q:
                    c.requestQuit = true;
                    break;
                case SDLK_1:
                    if (world) spawn(*world, Tool::SpawnBox, cursor, camera.viewHeight());
                    changed = world != nullptr;
                    break;
                case SDLK_2:
                    if (world) spawn(*world, Tool::SpawnCircle, cursor, camera.viewHeight());
                    changed = world != nullptr;
                    break;
                case SDLK_3:
                    if (world) spawn(*world, Tool::SpawnCapsule, cursor, camera.viewHeight());
                    changed = world != nullptr;
                    break;
                case SDLK_b:
                    if (world) fireBullet(*world, camera, cursor);
                    changed = world != nullptr;
                    break;
                case SDLK_a:
                    toggle(c.draw.aabbs);
                    break;
                case SDLK_c:
                    c.draw.contactNormals = toggle(c.draw.contactPoints);
                    break;
                case SDLK_v:
                    toggle(c.draw.contactImpulses);
                    break;
                case SDLK_t:
                    toggle(c.draw.broadphase);
                    break;
                case SDLK_i:
                    toggle(c.draw.islands);
                    break;
                case SDLK_m:
                    toggle(c.draw.centersOfMass);
                    break;
                case SDLK_k:
                    toggle(c.draw.continuous);
                    break;
                case SDLK_j:
                    toggle(c.draw.joints);
                    break;
                case SDLK_p:
                    toggle(c.showProfiler);
                    break;
                case SDLK_LEFT:
                    camera.panPixels({panStep, 0.0f});
                    break;
                case SDLK_RIGHT:
                    camera.panPixels({-panStep, 0.0f});
                    break;
                case SDLK_UP:
                    camera.panPixels({0.0f, panStep});
                    break;
                case SDLK_DOWN:
                    camera.panPixels({0.0f, -panStep});
                    break;
                case SDLK_EQUALS:
                case SDLK_PLUS:
                case SDLK_KP_PLUS:
                    camera.zoomAt({0.5f * static_cast<float>(camera.width()),
                                   0.5f * static_cast<float>(camera.height())},
                                  1.25f);
                    break;
                case SDLK_MINUS:
                case SDLK_KP_MINUS:
                    camera.zoomAt({0.5f * static_cast<float>(camera.width()),
                                   0.5f * static_cast<float>(camera.height())},
                                  0.8f);
                    break;
                default:
                    break;
            }
            break;
        }
        default:
            break;
    }
    return changed;
}

void Tools::update(World* world, const Camera& camera) {
    if (world == nullptr || joint_.isNull()) return;
    if (!world->isValid(joint_) || !world->isValid(grabbed_)) {
        joint_ = {};
        grabbed_ = {};
        return;
    }
    world->setMouseTarget(joint_, camera.screenToWorld(mouse_));
}

void Tools::drawOverlay(SdlDebugDraw& draw, const World* world, const Camera& camera) const {
    if (world == nullptr || joint_.isNull() || !world->isValid(joint_) || !world->isValid(grabbed_))
        return;
    Vec2 grip = world->worldPoint(grabbed_, world->jointLocalAnchorB(joint_));
    Vec2 a = camera.worldToScreen(grip);
    draw.screenLine(a, mouse_, 2.0f, 0x66ff66);
    draw.drawPoint(grip, 6.0f, 0x66ff66);
    draw.drawPoint(camera.screenToWorld(mouse_), 6.0f, 0xffffff);
}

}  // namespace carom::sandbox
