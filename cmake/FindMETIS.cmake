# FindMETIS: METIS ships no CMake config.
#   METIS_ROOT            hint (prefix holding include/ and lib/)
#   METIS_FOUND, METIS_INCLUDE_DIR, METIS_LIBRARY, METIS_IDXTYPEWIDTH
#   METIS::METIS          imported target
find_path(METIS_INCLUDE_DIR metis.h HINTS ${METIS_ROOT} ENV METIS_ROOT PATH_SUFFIXES include)
find_library(METIS_LIBRARY metis HINTS ${METIS_ROOT} ENV METIS_ROOT
             PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
if(METIS_INCLUDE_DIR)
  file(STRINGS ${METIS_INCLUDE_DIR}/metis.h _metis_width REGEX "^#define IDXTYPEWIDTH")
  string(REGEX MATCH "[0-9]+" METIS_IDXTYPEWIDTH "${_metis_width}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(METIS REQUIRED_VARS METIS_LIBRARY METIS_INCLUDE_DIR)
if(METIS_FOUND AND NOT TARGET METIS::METIS)
  add_library(METIS::METIS UNKNOWN IMPORTED)
  set_target_properties(METIS::METIS PROPERTIES IMPORTED_LOCATION ${METIS_LIBRARY}
                        INTERFACE_INCLUDE_DIRECTORIES ${METIS_INCLUDE_DIR})
endif()
mark_as_advanced(METIS_INCLUDE_DIR METIS_LIBRARY)
