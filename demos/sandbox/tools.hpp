// Mouse and keyboard tools acting on the world: drag a body with a mouse
// joint, spawn shapes at the cursor, fire bullets, pan and zoom the camera.
//
// Dragging follows the Box2D testbed: a click picks the dynamic body under
// the cursor (World::queryPoint), and a MouseJoint pulls the grabbed point of
// that body towards the cursor with a soft spring (5 Hz, damping 0.7) whose
// force is capped at 1000 N per kilogram of the body: strong enough to throw
// it around, soft enough that it is never teleported through other bodies. The joint needs a
// reference body: the tools create one static, shapeless body per world for that.
#pragma once

#include <cstdint>

#include <SDL.h>

#include <carom/world.hpp>

#include "camera.hpp"
#include "controls.hpp"
#include "draw_sdl.hpp"

namespace carom::sandbox {

class Tools {
   public:
    /// Forgets every id (the world was replaced).
    void reset();
    /// Removes what the tools added to the world (the mouse joint and its
    /// reference body), e.g. before the world is written out as a scene.
    void removeFromWorld(World& world);

    /// Handles one SDL event meant for the world (the caller filters out
    /// what ImGui wants). world may be null when no scene is loaded. True
    /// when it changed the world (began or ended a drag, spawned a body,
    /// fired a bullet).
    bool handleEvent(const SDL_Event& e, World* world, Camera& camera, Controls& controls);
    /// Per-frame update: keeps the mouse joint's target on the cursor.
    void update(World* world, const Camera& camera);
    /// The tool's own marks (drag line, bullet aim).
    void drawOverlay(SdlDebugDraw& draw, const World* world, const Camera& camera) const;

    Vec2 mouseScreen() const { return mouse_; }
    bool dragging() const { return !joint_.isNull(); }

    /// Creates a dynamic body with one shape at a world point, sized for the view.
    static BodyId spawn(World& world, Tool kind, Vec2 at, float viewHeight);
    /// Fires a fast bullet from the upper left of the view towards a world point.
    static BodyId fireBullet(World& world, const Camera& camera, Vec2 target);

   private:
    void beginDrag(World& world, Vec2 p);
    void endDrag(World* world);

    Vec2 mouse_{0.0f, 0.0f};  ///< last cursor position, pixels
    bool panning_ = false;
    BodyId ground_{};
    JointId joint_{};
    BodyId grabbed_{};
};

}  // namespace carom::sandbox
