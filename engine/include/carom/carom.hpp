// Everything a game needs: #include <carom/carom.hpp>.
#pragma once

#include <carom/character.hpp>
#include <carom/collision.hpp>
#include <carom/constants.hpp>
#include <carom/debug_draw.hpp>
#include <carom/error.hpp>
#include <carom/events.hpp>
#include <carom/geometry.hpp>
#include <carom/id.hpp>
#include <carom/joint.hpp>
#include <carom/limits.hpp>
#include <carom/math.hpp>
#include <carom/mover.hpp>
#include <carom/recording.hpp>
#include <carom/snapshot.hpp>
#include <carom/types.hpp>
#include <carom/validate.hpp>
#include <carom/warm_state.hpp>
#include <carom/world.hpp>
