#ifndef UMESH_APPS_COMMON_AUTO_CLI_HPP
#define UMESH_APPS_COMMON_AUTO_CLI_HPP

// exec::Auto's options on an app's command line (miniAero, LULESH):
// --reproducible, the check of the executors it allows, and the tuner the
// apps build from it. One definition, so that every app spells it alike.

#include "common/bits_hash.hpp"
#include "common/exec_names.hpp"

#include <umesh/concurrency.hpp>
#include <umesh/exec.hpp>
#include <umesh/exec_auto.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

namespace umesh::apps {

struct AutoCli {
  bool reproducible = false;

  /// --reproducible.
  void add_to(CLI::App &app) {
    app.add_flag("--reproducible", reproducible,
                 "bitwise-identical results run to run (on host backends whatever the thread "
                 "count): auto tries only the variants that give them on this backend (gather, "
                 "colour, hierarchical with coloured write-back; on GPUs not with scratch "
                 "atomics), and an executor in --exec that does not give them is refused; with "
                 "--tuning-file, a later run repeats the first one's choices");
  }

  /// Why `execs` cannot run under --reproducible on Space with the
  /// hierarchical loop options `h` (the first executor that would not give
  /// bitwise-identical results), or empty.
  template <class Space>
  std::string problem(const std::vector<std::string> &execs,
                      const exec::HierarchicalLoopOptions &h) const {
    if (!reproducible)
      return {};
    constexpr exec::Concurrency c = exec::concurrency_of<Space>();
    for (const auto &name : execs) {
      bool ok = false; // the apps' own strategies are not umesh's to vouch for
      exec::with_name(AppExecutors{}, name, [&](auto tag) {
        using E = decltype(tag);
        if constexpr (std::is_same<E, exec::AutoAll>::value)
          ok = true; // its candidates are limited instead
        else if constexpr (exec::is_hierarchical_v<E>)
          ok = E::reproducible(c, h);
        else
          ok = E::reproducible(c);
      });
      if (!ok)
        return "--reproducible: executor '" + name +
               "' does not give bitwise-identical results run to run on " +
               exec::concurrency_name(c) +
               " (docs/executors.md, Reproducible results); name auto, serial, gather, colour "
               "or hierarchical (with --writeback coloured" +
               (c == exec::Concurrency::gpu ? ", --combine colours" : "") + ") in --exec";
    }
    return {};
  }

  /// A note for runs of auto under --reproducible that keep no tuning file
  /// (its choices are timings: another run may choose otherwise), or empty.
  std::string note(const std::vector<std::string> &execs, const std::string &tuning_file) const {
    const bool with_auto = std::find(execs.begin(), execs.end(), "auto") != execs.end();
    if (!reproducible || !with_auto || !tuning_file.empty() || std::getenv("UMESH_TUNING_FILE"))
      return {};
    return "note: --reproducible auto without --tuning-file: each run tunes again, and another "
           "run may choose another reproducible variant (other last bits); give --tuning-file "
           "so that later runs repeat this one's choices";
  }

  /// --reproducible runs print a hash of their result's bits (BitsHash): two
  /// runs compare by one line.
  static std::string bits(const std::vector<double> &values) {
    BitsHash hash;
    for (const double v : values)
      hash.add(v);
    return hash.hex();
  }

  /// The apps' tuner: every executor a candidate, at block size `block`.
  exec::AutoAll autotune(int block, const std::string &tuning_file) const {
    return exec::AutoAll{}
        .with_block_sizes({block})
        .with_tuning_file(tuning_file)
        .with_reproducible(reproducible);
  }
};

} // namespace umesh::apps

#endif
