# FindPTSCOTCH: PT-Scotch, Scotch's MPI partitioner (Debian: libptscotch-dev).
# It ships no CMake config. The caller links MPI (ptscotch.h includes mpi.h).
#   PTSCOTCH_ROOT           hint (prefix holding include/ and lib/)
#   PTSCOTCH_FOUND, PTSCOTCH_INCLUDE_DIR, PTSCOTCH_LIBRARIES
#   PTSCOTCH::PTSCOTCH      imported target: libptscotch, then libscotch (upstream
#                           builds keep the sequential routines there; Debian's
#                           libptscotch holds them too, and being first on the
#                           link line its copies are the ones used), libptscotcherr
find_path(PTSCOTCH_INCLUDE_DIR ptscotch.h HINTS ${PTSCOTCH_ROOT} ENV PTSCOTCH_ROOT
          PATH_SUFFIXES include include/scotch)
foreach(_lib ptscotch ptscotcherr scotch)
  string(TOUPPER ${_lib} _var)
  find_library(PTSCOTCH_${_var}_LIBRARY ${_lib} HINTS ${PTSCOTCH_ROOT} ENV PTSCOTCH_ROOT
               PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
endforeach()
# umesh uses Scotch 7's contexts (SCOTCH_Context, deterministic threads):
# an older PT-Scotch (6.x) is not found, rather than failing to compile.
set(PTSCOTCH_VERSION "")
if(PTSCOTCH_INCLUDE_DIR AND EXISTS "${PTSCOTCH_INCLUDE_DIR}/scotch.h")
  file(STRINGS "${PTSCOTCH_INCLUDE_DIR}/scotch.h" _ptscotch_v REGEX "^#define SCOTCH_(VERSION|RELEASE) ")
  string(REGEX REPLACE ".*SCOTCH_VERSION ([0-9]+).*" "\\1" _major "${_ptscotch_v}")
  string(REGEX REPLACE ".*SCOTCH_RELEASE ([0-9]+).*" "\\1" _minor "${_ptscotch_v}")
  if(_major MATCHES "^[0-9]+$" AND _minor MATCHES "^[0-9]+$")
    set(PTSCOTCH_VERSION "${_major}.${_minor}")
  endif()
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PTSCOTCH REQUIRED_VARS PTSCOTCH_PTSCOTCH_LIBRARY
                                  PTSCOTCH_PTSCOTCHERR_LIBRARY PTSCOTCH_SCOTCH_LIBRARY
                                  PTSCOTCH_INCLUDE_DIR VERSION_VAR PTSCOTCH_VERSION)
if(PTSCOTCH_FOUND AND (NOT PTSCOTCH_VERSION OR PTSCOTCH_VERSION VERSION_LESS 7.0))
  message(STATUS "umesh: PT-Scotch ${PTSCOTCH_VERSION} at ${PTSCOTCH_INCLUDE_DIR} is older than 7.0 "
                 "(or its version unread): not used")
  set(PTSCOTCH_FOUND FALSE)
endif()
if(PTSCOTCH_FOUND AND NOT TARGET PTSCOTCH::PTSCOTCH)
  find_package(Threads REQUIRED)
  find_package(ZLIB QUIET)
  find_package(BZip2 QUIET)
  find_package(LibLZMA QUIET)
  set(PTSCOTCH_LIBRARIES ${PTSCOTCH_PTSCOTCH_LIBRARY} ${PTSCOTCH_SCOTCH_LIBRARY}
                         ${PTSCOTCH_PTSCOTCHERR_LIBRARY})
  set(_ptscotch_deps ${PTSCOTCH_LIBRARIES} Threads::Threads m)
  foreach(_t ZLIB::ZLIB BZip2::BZip2 LibLZMA::LibLZMA)
    if(TARGET ${_t})
      list(APPEND _ptscotch_deps ${_t})
    endif()
  endforeach()
  add_library(PTSCOTCH::PTSCOTCH INTERFACE IMPORTED)
  set_target_properties(PTSCOTCH::PTSCOTCH PROPERTIES
                        INTERFACE_INCLUDE_DIRECTORIES ${PTSCOTCH_INCLUDE_DIR}
                        INTERFACE_LINK_LIBRARIES "${_ptscotch_deps}")
endif()
mark_as_advanced(PTSCOTCH_INCLUDE_DIR PTSCOTCH_PTSCOTCH_LIBRARY PTSCOTCH_PTSCOTCHERR_LIBRARY
                 PTSCOTCH_SCOTCH_LIBRARY)
