// Included by name from its own folder, as the compiler resolves it first.
#pragma once
