// How Carom refuses a call.
//
// One convention for the whole API: a creating or changing call whose
// arguments are invalid (a non-finite number, a negative size or density, a
// hull without area, a stale id, ...) throws carom::Error and leaves the world
// exactly as it was before the call. Queries on a stale id throw too: a stale
// id is never dereferenced. Nothing in World::step throws.
//
// The rules themselves are the validate() functions of <carom/validate.hpp>,
// with the ranges of <carom/limits.hpp>; the World runs exactly those before
// it changes anything. An Error names the refused def member or argument
// (field(), e.g. "density", "center1", "massData.center", "timeStep") and its
// message quotes the value as given.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace carom {

enum class ErrorCode {
    InvalidArgument,  ///< a number, size or flag out of its documented range
    StaleId,          ///< an id whose object was destroyed (or a null id)
    LimitExceeded,    ///< too many vertices, bodies, ...
    Locked,  ///< the call came from inside a callback the world runs (step(), a query, ...)
};

class Error : public std::runtime_error {
   public:
    Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
    /// A refusal of one def member or argument, named as in the C++ API.
    Error(ErrorCode code, const std::string& message, std::string field)
        : std::runtime_error(message), code_(code), field_(std::move(field)) {}
    ErrorCode code() const noexcept { return code_; }
    /// The refused def member or argument as written in the C++ API
    /// ("density", "center", "linearVelocity", "massData.center", "points",
    /// "timeStep", "transform.q", the argument holding a stale id: "id",
    /// "bodyA", ...); empty only when the refusal is about the call rather
    /// than a value (a locked world, a moved-from World).
    const std::string& field() const noexcept { return field_; }

   private:
    ErrorCode code_;
    std::string field_;
};

}  // namespace carom
