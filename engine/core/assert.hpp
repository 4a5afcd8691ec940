// CAROM_ASSERT: what the engine relies on after validation. The public calls
// validate their arguments (validate.hpp) and refuse with carom::Error; past
// that edge, a broken invariant is a bug in Carom, not a user error, so it is
// checked in debug builds (abort with the condition) and compiled out in
// release builds (the condition is not evaluated).
#pragma once

namespace carom::detail {
[[noreturn]] void assertFailed(const char* condition, const char* file, int line);
}

#ifdef NDEBUG
#define CAROM_ASSERT(condition) ((void)sizeof(!(condition)))
#else
#define CAROM_ASSERT(condition) \
    ((condition) ? (void)0 : ::carom::detail::assertFailed(#condition, __FILE__, __LINE__))
#endif
