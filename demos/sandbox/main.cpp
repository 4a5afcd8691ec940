// carom-sandbox: an SDL2 window with Dear ImGui panels onto any Carom scene.
// See docs/sandbox.md for the controls and the command line.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "app.hpp"
#include "options.hpp"

int main(int argc, char** argv) {
    using namespace carom::sandbox;
    Options options;
    try {
        options = parseOptions(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const UsageError& e) {
        std::fprintf(stderr, "carom-sandbox: error: %s\n", e.what());
        return 2;
    }
    if (options.help) {
        std::fputs(usageText().c_str(), stdout);
        return 0;
    }
    try {
        App app(options);
        return app.run();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "carom-sandbox: error: %s\n", e.what());
        return 1;
    }
}
