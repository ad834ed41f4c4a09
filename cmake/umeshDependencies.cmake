# Optional dependencies: METIS and Scotch. Quietly found; REQUIRE options make
# a missing one fatal. The summary lines start with "umesh:".
set(UMESH_HAS_METIS OFF)
set(UMESH_HAS_SCOTCH OFF)
if(UMESH_ENABLE_METIS)
  find_package(METIS QUIET)
  if(METIS_FOUND)
    set(UMESH_HAS_METIS ON)
  elseif(UMESH_REQUIRE_METIS)
    message(FATAL_ERROR "umesh: METIS not found (Debian: apt-get install libmetis-dev; or set METIS_ROOT)")
  endif()
endif()
if(UMESH_ENABLE_SCOTCH)
  find_package(SCOTCH QUIET)
  if(SCOTCH_FOUND)
    set(UMESH_HAS_SCOTCH ON)
  elseif(UMESH_REQUIRE_SCOTCH)
    message(FATAL_ERROR "umesh: Scotch not found (Debian: apt-get install libscotch-dev; or set SCOTCH_ROOT)")
  endif()
endif()
message(STATUS "umesh: METIS ${UMESH_HAS_METIS}, Scotch ${UMESH_HAS_SCOTCH}")

# Mesh and result formats (umesh::io): Exodus II, CGNS and VTK. Each option
# is AUTO (the default: built where its library is found), ON (a missing
# library is a configure error) or OFF. Without one, its readers and writers
# throw a sentence naming the option and the Debian package.
set(UMESH_ENABLE_EXODUS AUTO CACHE STRING "Exodus II meshes and results: AUTO, ON or OFF")
set(UMESH_ENABLE_CGNS AUTO CACHE STRING "CGNS meshes: AUTO, ON or OFF")
set(UMESH_ENABLE_VTK AUTO CACHE STRING "VTK XML results (.vtu, .pvtu, .pvd): AUTO, ON or OFF")
# umesh_io_dependency(NAME Exodus OPTION UMESH_ENABLE_EXODUS DEBIAN libexodusii-dev
#                     FIND ExodusII [args...]) sets UMESH_HAS_<NAME in upper case>.
function(umesh_io_dependency)
  cmake_parse_arguments(D "" "NAME;OPTION;DEBIAN" "FIND" ${ARGN})
  string(TOUPPER ${D_NAME} _upper)
  set(_value "${${D_OPTION}}")
  string(TOUPPER "${_value}" _value)
  set(_has OFF)
  if(_value STREQUAL "AUTO" OR _value STREQUAL "")
    set(_mode AUTO)
  elseif(_value MATCHES "^(ON|YES|TRUE|Y|1)$")
    set(_mode ON)
  elseif(_value MATCHES "^(OFF|NO|FALSE|N|0)$")
    set(_mode OFF)
  else()
    message(FATAL_ERROR "umesh: ${D_OPTION} is '${${D_OPTION}}'; it takes AUTO, ON or OFF")
  endif()
  if(NOT _mode STREQUAL "OFF")
    find_package(${D_FIND} QUIET)
    list(GET D_FIND 0 _package)
    if(${_package}_FOUND)
      set(_has ON)
    elseif(_mode STREQUAL "ON")
      message(FATAL_ERROR "umesh: ${D_OPTION}=ON but ${D_NAME} was not found (Debian: apt-get "
                          "install ${D_DEBIAN}; or set ${_package}_ROOT / ${_package}_DIR)")
    endif()
  endif()
  set(UMESH_HAS_${_upper} ${_has} PARENT_SCOPE)
endfunction()
umesh_io_dependency(NAME Exodus OPTION UMESH_ENABLE_EXODUS DEBIAN libexodusii-dev FIND ExodusII)
umesh_io_dependency(NAME CGNS OPTION UMESH_ENABLE_CGNS DEBIAN libcgns-dev FIND CGNS)
umesh_io_dependency(NAME VTK OPTION UMESH_ENABLE_VTK DEBIAN libvtk9-dev
                    FIND VTK 9 COMPONENTS CommonCore CommonDataModel IOXML)
message(STATUS "umesh: mesh formats: Exodus II ${UMESH_HAS_EXODUS}, CGNS ${UMESH_HAS_CGNS}, "
               "VTK ${UMESH_HAS_VTK} (UMESH_ENABLE_EXODUS, _CGNS, _VTK: AUTO, ON or OFF)")
