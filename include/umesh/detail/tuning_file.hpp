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

/// Writes `table` to `path` (through a temporary of this process renamed
/// into place); a failed write throws std::ios_base::failure.
void write_tuning_file(const std::string &path, const TuningTable &table);

/// Adds (or replaces) one decision in `path`, keeping the decisions other
/// plans and other runs wrote there (read, merged and written under a lock
/// on its folder); returns the file's table.
TuningTable record_tuning_decision(const std::string &path, const std::string &key,
                                   const std::string &candidate);

} // namespace umesh::detail

#endif
