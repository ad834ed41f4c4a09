#ifndef UMESH_DETAIL_TUNING_FILE_HPP
#define UMESH_DETAIL_TUNING_FILE_HPP

// Tuning files of exec::Auto: one decision per line,
//   umesh-tuning 1
//   <key> TAB <candidate>
// where the key names the device, backend, loop and a fingerprint of the
// loop's maps. A file that does not parse is an Error naming its line.

#include <map>
#include <string>

namespace umesh::detail {

using TuningTable = std::map<std::string, std::string>;

/// The decisions in `path`; empty when the file does not exist.
TuningTable read_tuning_file(const std::string &path);

/// Writes `table` to `path` (through a temporary renamed into place).
void write_tuning_file(const std::string &path, const TuningTable &table);

} // namespace umesh::detail

#endif
