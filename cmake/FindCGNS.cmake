# FindCGNS: the CGNS mid-level library. Debian's libcgns-dev ships no CMake
# config.
#   CGNS_ROOT            hint (prefix holding include/ and lib/)
#   CGNS_FOUND, CGNS_INCLUDE_DIR, CGNS_LIBRARY
#   CGNS::CGNS           imported target
find_path(CGNS_INCLUDE_DIR cgnslib.h HINTS ${CGNS_ROOT} ENV CGNS_ROOT PATH_SUFFIXES include)
find_library(CGNS_LIBRARY cgns HINTS ${CGNS_ROOT} ENV CGNS_ROOT
             PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CGNS REQUIRED_VARS CGNS_LIBRARY CGNS_INCLUDE_DIR)
if(CGNS_FOUND AND NOT TARGET CGNS::CGNS)
  add_library(CGNS::CGNS UNKNOWN IMPORTED)
  set_target_properties(CGNS::CGNS PROPERTIES IMPORTED_LOCATION ${CGNS_LIBRARY}
                        INTERFACE_INCLUDE_DIRECTORIES ${CGNS_INCLUDE_DIR})
endif()
mark_as_advanced(CGNS_INCLUDE_DIR CGNS_LIBRARY)
