// Bottom layer of the fixture: includes only the standard library.
#pragma once
#include <vector>
