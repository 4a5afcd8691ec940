// carom run SCENE: simulate headless, write the final state.
#include <fstream>
#include <iostream>

#include <carom/scene_recording.hpp>

#include "options.hpp"
#include "progress.hpp"
#include "trace.hpp"
#include "verbs.hpp"

namespace carom::cli {

namespace {

const char* kHelp =
    "usage: carom run SCENE [options]\n"
    "\n"
    "Simulates the scene headless and writes its final state as JSON:\n"
    "{\"scene\", \"steps\", \"time\", \"hash\", \"bodies\": [{\"name\", \"type\", \"position\",\n"
    "\"angle\", \"linear_velocity\", \"angular_velocity\", \"awake\"}, ...]}.\n"
    "\n"
    "  --steps N               run N steps\n"
    "  --seconds T             run round(T / timestep) steps\n"
    "                          (default: the scene's duration)\n"
    "  --threads K             worker threads (overrides world.threads; results do not change)\n"
    "  --broadphase tree|sap   overrides world.broadphase\n"
    "  --out FILE              write the state there instead of standard output\n"
    "  --trace FILE.csv        one row per body: step,time,name,x,y,angle,vx,vy,w,awake\n"
    "  --every K               trace every K steps (default 1; step 0 is always traced)\n"
    "  --record FILE           record the run for `carom replay` (docs/manual/recording.md)\n"
    "  --keyframes K           a keyframe in the recording every K steps (default 60)\n"
    "  --help                  this text\n";

}  // namespace

int runVerb(const std::vector<std::string>& args) {
    try {
        RunFlags flags = parseRunFlags(args, /*allowOut=*/true, /*allowJson=*/false);
        if (flags.help) {
            std::cout << kHelp;
            return kExitOk;
        }
        scene::SceneDesc desc = scene::loadFile(flags.scene);
        scene::SceneRunner runner(desc, flags.run);
        std::int64_t steps = stepsToRun(flags, runner);
        std::optional<Trace> trace;
        if (flags.trace) {
            trace.emplace(*flags.trace, flags.every);
            trace->record(runner);
        }
        std::optional<scene::SceneRecorder> recorder;
        if (flags.record) recorder.emplace(runner, static_cast<std::int32_t>(flags.keyframes));
        Progress progress(steps);
        for (std::int64_t k = 0; k < steps; ++k) {
            if (recorder)
                recorder->step(runner);
            else
                runner.step();
            checkBudget(runner, k + 1);
            if (trace) trace->record(runner);
            progress.update(k + 1);
        }
        progress.finish();
        if (trace) trace->close();
        warnNonFinite(runner, "run");
        if (recorder) {
            const std::vector<std::uint8_t> bytes = recorder->finish(runner).bytes();
            std::ofstream file(*flags.record, std::ios::binary | std::ios::trunc);
            file.write(reinterpret_cast<const char*>(bytes.data()),
                       static_cast<std::streamsize>(bytes.size()));
            file.close();
            if (!file) throw std::runtime_error("cannot write " + *flags.record);
        }

        std::string state = scene::stateJson(runner);
        if (flags.out) {
            std::ofstream out(*flags.out, std::ios::trunc);
            out << state;
            out.close();
            if (!out) throw std::runtime_error("cannot write " + *flags.out);
        } else {
            std::cout << state;  // main checks that it was written (finishOutput)
        }
        return kExitOk;
    } catch (...) {
        return reportError("run");
    }
}

}  // namespace carom::cli
