// The violation the check must name: line 3 includes the layer above.
#include "low/base.hpp"
#include "high/top.hpp"
