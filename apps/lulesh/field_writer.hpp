#ifndef UMESH_LULESH_FIELD_WRITER_HPP
#define UMESH_LULESH_FIELD_WRITER_HPP

// umesh_lulesh --output: the fields of the states a run passes through
// (apps/common/field_output.hpp), taken from the solver (fields.hpp).

#include "common/field_output.hpp"

namespace lulesh {

/// Follows one run: the initial state and every --output-every cycles, and
/// the last cycle (LULESH stops at a time, not a known cycle).
template <class Solver> class FieldOutput {
public:
  /// Checks the output folder and files (collective; throws before the run).
  FieldOutput(const umesh::apps::FieldOutputOptions &o, int rank, int ranks)
      : o_(o), writer_(o, "lulesh", rank, ranks) {}
  void after_cycle(const Solver &s) {
    const int cycle = s.clock().cycle;
    if (o_.every > 0 && cycle % o_.every == 0)
      write(s);
  }
  void finish(const Solver &s) {
    if (written_ != s.clock().cycle)
      write(s);
    writer_.finish();
  }

private:
  void write(const Solver &s) {
    const auto [grid, fields] = s.fields();
    writer_.write(s.clock().cycle, s.clock().time, grid, fields);
    written_ = s.clock().cycle;
  }
  umesh::apps::FieldOutputOptions o_;
  umesh::apps::FieldWriter writer_;
  int written_ = -1;
};

} // namespace lulesh

#endif
