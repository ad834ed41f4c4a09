#ifndef UMESH_TUNING_FILE_HPP
#define UMESH_TUNING_FILE_HPP

// exec::Auto's tuning file (Auto::with_tuning_file, $UMESH_TUNING_FILE), for
// programs that list, check, prepare or merge the decisions a run keeps
// there. One decision per line:
//   umesh-tuning 1
//   <key> TAB <candidate>
// where the key names the device, backend, loop, a fingerprint of the loop's
// maps and a hash of its argument types (docs/executors.md). A file that
// does not parse is an Error naming its line.

#include <map>
#include <string>

namespace umesh {

/// Key -> the candidate chosen for it (a name exec::Auto's candidates() gives).
using TuningTable = std::map<std::string, std::string>;

/// The decisions in `path`; empty when the file does not exist. A file that
/// is not a regular file, or does not parse, is an Error naming the file
/// (and the line).
TuningTable read_tuning_file(const std::string &path);

/// The line of `path` that holds the decision for `key` (0 when none does,
/// or the file cannot be read): what messages about a decision name.
int tuning_file_line(const std::string &path, const std::string &key);

/// Writes `table` to `path` (through a temporary of this process renamed
/// into place; where `path` is a link, the file it leads to, the link
/// kept); a failed write throws std::ios_base::failure.
void write_tuning_file(const std::string &path, const TuningTable &table);

/// Adds (or replaces) one decision in `path`, keeping the decisions other
/// plans and other runs wrote there (read, merged and written under a lock
/// on its folder, which must exist); returns the file's table.
TuningTable record_tuning_decision(const std::string &path, const std::string &key,
                                   const std::string &candidate);

} // namespace umesh

#endif
