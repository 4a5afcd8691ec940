// Query files (docs/cli.md, `carom query`): geometric questions answered
// straight from the narrowphase, so anyone can check it by hand.
#pragma once

#include <string>
#include <string_view>

namespace carom::scene {

/// Answers every query of a query file's text; returns one JSON array, one
/// result per query, in order. Throws SceneError for a malformed file.
std::string answerQueries(std::string_view json, const std::string& fileName);
/// Reads the file, then answerQueries. Throws SceneError.
std::string answerQueryFile(const std::string& path);

}  // namespace carom::scene
