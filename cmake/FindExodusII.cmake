# FindExodusII: the Exodus II C library. Debian's libexodusii-dev ships no
# CMake config (libexoIIv2c); SEACAS installs it as libexodus.
#   ExodusII_ROOT            hint (prefix holding include/ and lib/)
#   ExodusII_FOUND, ExodusII_INCLUDE_DIR, ExodusII_LIBRARY
#   ExodusII::ExodusII       imported target
find_path(ExodusII_INCLUDE_DIR exodusII.h HINTS ${ExodusII_ROOT} ENV ExodusII_ROOT
          PATH_SUFFIXES include include/exodusii)
find_library(ExodusII_LIBRARY NAMES exoIIv2c exodus HINTS ${ExodusII_ROOT} ENV ExodusII_ROOT
             PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ExodusII REQUIRED_VARS ExodusII_LIBRARY ExodusII_INCLUDE_DIR)
if(ExodusII_FOUND AND NOT TARGET ExodusII::ExodusII)
  add_library(ExodusII::ExodusII UNKNOWN IMPORTED)
  set_target_properties(ExodusII::ExodusII PROPERTIES IMPORTED_LOCATION ${ExodusII_LIBRARY}
                        INTERFACE_INCLUDE_DIRECTORIES ${ExodusII_INCLUDE_DIR})
endif()
mark_as_advanced(ExodusII_INCLUDE_DIR ExodusII_LIBRARY)
