// carom bench SCENE: time every step of a scene.
//
// Each step is timed on the steady clock around SceneRunner::step (events
// included); the report gives the mean, median, minimum and 95th percentile
// (nearest rank) of the milliseconds per step, the mean of each stage of
// World::profile() (broadphase = pairs, narrowphase = collide, continuous,
// solver = solve), the counts of bodies, joints and contacts after the last
// step, and the state hash.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include <carom/json_writer.hpp>

#include "options.hpp"
#include "progress.hpp"
#include "trace.hpp"
#include "verbs.hpp"

namespace carom::cli {

namespace {

const char* kHelp =
    "usage: carom bench SCENE [options]\n"
    "\n"
    "Steps the scene and reports bodies, joints, contacts, milliseconds per step\n"
    "(mean, median, minimum, 95th percentile), the mean time of each stage of the\n"
    "step (broadphase, narrowphase, continuous, solver) and the state hash.\n"
    "\n"
    "  --steps N / --seconds T   how long to run (default: the scene's duration)\n"
    "  --threads K               worker threads (overrides world.threads)\n"
    "  --broadphase tree|sap     overrides world.broadphase\n"
    "  --trace FILE.csv --every K  as for carom run (slows the run down)\n"
    "  --json                    one JSON object on standard output instead of text\n"
    "  --help                    this text\n";

struct Stats {
    double mean = 0.0, median = 0.0, min = 0.0, p95 = 0.0, total = 0.0;
};

Stats statsOf(std::vector<double> ms) {
    Stats s;
    if (ms.empty()) return s;
    std::sort(ms.begin(), ms.end());
    for (double v : ms) s.total += v;
    s.mean = s.total / static_cast<double>(ms.size());
    std::size_t n = ms.size();
    s.median = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    s.min = ms.front();
    // Nearest rank: the smallest value with at least 95% of the steps at or below it.
    std::size_t rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n)));
    s.p95 = ms[std::max<std::size_t>(rank, 1) - 1];
    return s;
}

std::string ms3(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

}  // namespace

int benchVerb(const std::vector<std::string>& args) {
    try {
        RunFlags flags = parseRunFlags(args, /*allowOut=*/false, /*allowJson=*/true);
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

        std::vector<double> ms;
        ms.reserve(static_cast<std::size_t>(steps));
        double pairs = 0.0, collide = 0.0, continuous = 0.0, solve = 0.0;
        double reused = 0.0;  // manifolds kept (WorldDef::contactReuseDistance)
        Progress progress(steps);
        using Clock = std::chrono::steady_clock;
        for (std::int64_t k = 0; k < steps; ++k) {
            Clock::time_point t0 = Clock::now();
            runner.step();
            Clock::time_point t1 = Clock::now();
            checkBudget(runner, k + 1);
            ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            const Profile& p = runner.world().profile();
            pairs += p.pairs;
            collide += p.collide;
            continuous += p.continuous;
            solve += p.solve;
            reused += p.reusedManifolds;
            if (trace) trace->record(runner);
            progress.update(k + 1);
        }
        progress.finish();
        if (trace) trace->close();

        Stats s = statsOf(ms);
        double n = steps > 0 ? static_cast<double>(steps) : 1.0;
        Counters c = runner.world().counters();
        std::string hash = scene::hashHex(runner.world().stateHash());
        const char* broadphase =
            runner.world().broadphaseType() == BroadphaseType::SortAndSweep ? "sap" : "tree";
        int threads = flags.run.threads.value_or(desc.world.threads);

        if (flags.json) {
            scene::JsonWriter j;
            j.beginObject();
            j.key("scene").value(desc.name).key("file").value(flags.scene);
            j.key("steps").value(static_cast<int64_t>(steps)).key("threads").value(threads);
            j.key("broadphase").value(broadphase);
            j.key("bodies").value(c.bodies).key("awake_bodies").value(c.awakeBodies);
            j.key("joints").value(c.joints).key("contacts").value(c.contacts);
            j.key("touching_contacts").value(c.touchingContacts);
            j.key("contacts_created_per_step").value(static_cast<double>(c.contactsCreated) / n);
            j.key("contacts_destroyed_per_step")
                .value(static_cast<double>(c.contactsDestroyed) / n);
            j.key("reused_manifolds_per_step").value(reused / n);
            j.key("ms_per_step_mean").value(s.mean).key("ms_per_step_median").value(s.median);
            j.key("ms_per_step_min").value(s.min).key("ms_per_step_p95").value(s.p95);
            j.key("ms_total").value(s.total);
            j.key("profile_ms").beginObject();
            j.key("broadphase").value(pairs / n).key("narrowphase").value(collide / n);
            j.key("continuous").value(continuous / n).key("solver").value(solve / n);
            j.endObject();
            j.key("hash").value(hash);
            j.endObject();
            std::cout << j.str() << "\n";
        } else {
            std::cout << "scene        " << desc.name << " (" << flags.scene << ")\n"
                      << "steps        " << steps << "  (threads " << threads << ", broadphase "
                      << broadphase << ")\n"
                      << "bodies       " << c.bodies << "  (awake " << c.awakeBodies << ")\n"
                      << "joints       " << c.joints << "\n"
                      << "contacts     " << c.contacts << "  (touching " << c.touchingContacts
                      << ")\n"
                      << "churn        " << ms3(static_cast<double>(c.contactsCreated) / n)
                      << " created, " << ms3(static_cast<double>(c.contactsDestroyed) / n)
                      << " destroyed per step\n"
                      << "reused       " << ms3(reused / n) << " manifolds per step\n"
                      << "ms/step      mean " << ms3(s.mean) << "  median " << ms3(s.median)
                      << "  min " << ms3(s.min) << "  p95 " << ms3(s.p95) << "  (total "
                      << ms3(s.total) << " ms)\n"
                      << "stages (ms)  broadphase " << ms3(pairs / n) << "  narrowphase "
                      << ms3(collide / n) << "  continuous " << ms3(continuous / n) << "  solver "
                      << ms3(solve / n) << "\n"
                      << "hash         " << hash << "\n";
        }
        return kExitOk;
    } catch (...) {
        return reportError("bench");
    }
}

}  // namespace carom::cli
