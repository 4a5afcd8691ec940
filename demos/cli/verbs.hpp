// The verbs of `carom`; each returns the process exit status.
#pragma once

#include <string>
#include <vector>

namespace carom::cli {

int runVerb(const std::vector<std::string>& args);
int benchVerb(const std::vector<std::string>& args);
int validateVerb(const std::vector<std::string>& args);
int queryVerb(const std::vector<std::string>& args);
int stabilityVerb(const std::vector<std::string>& args);
int replayVerb(const std::vector<std::string>& args);

}  // namespace carom::cli
