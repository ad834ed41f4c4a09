# FindSCOTCH: Scotch ships no CMake config.
#   SCOTCH_ROOT           hint (prefix holding include/ and lib/)
#   SCOTCH_FOUND, SCOTCH_INCLUDE_DIR, SCOTCH_LIBRARIES
#   SCOTCH::SCOTCH        imported target (libscotch + libscotcherr)
find_path(SCOTCH_INCLUDE_DIR scotch.h HINTS ${SCOTCH_ROOT} ENV SCOTCH_ROOT
          PATH_SUFFIXES include include/scotch)
find_library(SCOTCH_LIBRARY scotch HINTS ${SCOTCH_ROOT} ENV SCOTCH_ROOT
             PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
find_library(SCOTCHERR_LIBRARY scotcherr HINTS ${SCOTCH_ROOT} ENV SCOTCH_ROOT
             PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SCOTCH REQUIRED_VARS SCOTCH_LIBRARY SCOTCHERR_LIBRARY SCOTCH_INCLUDE_DIR)
if(SCOTCH_FOUND AND NOT TARGET SCOTCH::SCOTCH)
  find_package(Threads REQUIRED)
  find_package(ZLIB QUIET)
  find_package(BZip2 QUIET)
  find_package(LibLZMA QUIET)
  set(SCOTCH_LIBRARIES ${SCOTCH_LIBRARY} ${SCOTCHERR_LIBRARY})
  add_library(SCOTCH::SCOTCH INTERFACE IMPORTED)
  set(_scotch_deps ${SCOTCH_LIBRARY} ${SCOTCHERR_LIBRARY} Threads::Threads m)
  foreach(_t ZLIB::ZLIB BZip2::BZip2 LibLZMA::LibLZMA)
    if(TARGET ${_t})
      list(APPEND _scotch_deps ${_t})
    endif()
  endforeach()
  set_target_properties(SCOTCH::SCOTCH PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${SCOTCH_INCLUDE_DIR}
                        INTERFACE_LINK_LIBRARIES "${_scotch_deps}")
endif()
mark_as_advanced(SCOTCH_INCLUDE_DIR SCOTCH_LIBRARY SCOTCHERR_LIBRARY)
