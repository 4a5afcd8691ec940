// How Carom refuses a call.
//
// One convention for the whole API: a creating or changing call whose
// arguments are invalid (a non-finite number, a negative size or density, a
// hull without area, a stale id, ...) throws carom::Error and leaves the world
// exactly as it was before the call. Queries on a stale id throw too: a stale
// id is never dereferenced. Nothing in World::step throws.
#pragma once

#include <stdexcept>
#include <string>

namespace carom {

enum class ErrorCode {
    InvalidArgument,  ///< a number, size or flag out of its documented range
    StaleId,          ///< an id whose object was destroyed (or a null id)
    LimitExceeded,    ///< too many vertices, bodies, ...
    Locked,           ///< the world is inside step() (for example in a callback)
};

class Error : public std::runtime_error {
public:
    Error(ErrorCode code, const std::string& message)
        : std::runtime_error(message), code_(code) {}
    ErrorCode code() const noexcept { return code_; }

private:
    ErrorCode code_;
};

}  // namespace carom
