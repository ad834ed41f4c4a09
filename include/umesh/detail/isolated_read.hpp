#ifndef UMESH_DETAIL_ISOLATED_READ_HPP
#define UMESH_DETAIL_ISOLATED_READ_HPP

// Reading a file through a library that umesh cannot make safe (NetCDF and
// HDF5 under Exodus II, CGNS's ADF and HDF5 code): on a damaged or forged
// file such a library may crash, abort or exhaust memory inside its own
// code, which would take the caller's process and its unsaved results with
// it. The read runs first in a child process; only when the child comes
// back with the mesh read does the caller read the file itself (umesh's own
// error about what the file holds comes back as it is).

#include <functional>
#include <string>

namespace umesh::detail {

/// Runs `read` (a read of the file `path`) in a forked child whose output
/// goes nowhere and whose memory may grow by at most 16 times the file's
/// size plus 1 GiB (a forged header can claim gigabytes of names or
/// values). Returns when it finished; throws the child's umesh::Error (its
/// message) when it threw one, without reading the file here; otherwise
/// throws umesh::Error naming `what` (e.g. "exodus file 'x.exo'") and
/// `library` and how the child ended (its signal, or that it threw something other
/// than umesh::Error, such as std::bad_alloc). Where no child can be
/// started, returns and the caller reads in its own process, as it would
/// without this guard.
void read_in_child_first(const std::string &path, const std::string &what,
                         const std::string &library, const std::function<void()> &read);

} // namespace umesh::detail

#endif
