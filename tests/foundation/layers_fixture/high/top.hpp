// Top layer of the fixture: may include its own layer, the one below and
// the public headers (resolved against the public root).
#pragma once
#include "base_of_high.hpp"
#include "low/base.hpp"
#include <fx/api.hpp>
