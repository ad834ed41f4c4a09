#ifndef UMESH_DETAIL_TUNING_FILE_HPP
#define UMESH_DETAIL_TUNING_FILE_HPP

// Library-internal spelling of umesh/tuning_file.hpp (exec::Auto's tuning
// files).

#include <umesh/tuning_file.hpp>

namespace umesh::detail {

using umesh::read_tuning_file;
using umesh::record_tuning_decision;
using umesh::TuningTable;
using umesh::write_tuning_file;

} // namespace umesh::detail

#endif
