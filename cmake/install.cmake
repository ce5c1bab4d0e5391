# dmlref's install rules: included by the top-level CMakeLists.txt when DMLREF_INSTALL is on
# (the default only when dmlref is the top-level project).
#
#   cmake --install <build> --prefix <P>   installs
#     <P>/include/dmlref/...                        every header, the optional ones included
#     <P>/share/cmake/dmlref/dmlrefTargets.cmake    the exported INTERFACE target dmlref::dmlref
#     <P>/share/cmake/dmlref/dmlrefConfig.cmake     (+ dmlrefConfigVersion.cmake: SameMajorVersion)
#     <P>/share/pkgconfig/dmlref.pc                 relocatable (paths relative to ${pcfiledir})
#
# The package is architecture-independent (headers only), hence share/ and ARCH_INDEPENDENT: a
# config written on a 64-bit host also serves 32-bit consumers. Everything installed is
# relocatable: the prefix can be moved after installing.
#
# Note for tools/ (the `dmlref` command-line tool, target dmlref_cli): tools/CMakeLists.txt is
# added before this file is included, and installs its own executable, e.g.
#   if(DMLREF_INSTALL)
#     include(GNUInstallDirs)
#     install(TARGETS dmlref_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
#   endif()
# It is deliberately not part of the dmlrefTargets export set: the package exports the library
# only, so that find_package(dmlref) never requires the tool to have been built.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DMLREF_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/dmlref"
    CACHE STRING "Where dmlref's CMake package files are installed (relative to the prefix)")
set(DMLREF_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_DATADIR}/pkgconfig"
    CACHE STRING "Where dmlref.pc is installed (relative to the prefix)")
mark_as_advanced(DMLREF_INSTALL_CMAKEDIR DMLREF_INSTALL_PKGCONFIGDIR)

# The headers: the core (standard library only) and the optional adapters (dlpack.hpp, fmt.hpp),
# which need their dependency only in the translation units that include them.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/dmlref"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.hpp")

# The target's INSTALL_INTERFACE include directory is "include" (CMakeLists.txt); a different
# CMAKE_INSTALL_INCLUDEDIR is added here so that the exported target still finds the headers.
if(CMAKE_INSTALL_INCLUDEDIR STREQUAL "include")
  install(TARGETS dmlref EXPORT dmlrefTargets)
else()
  install(TARGETS dmlref EXPORT dmlrefTargets INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endif()
install(EXPORT dmlrefTargets
        NAMESPACE dmlref::
        DESTINATION "${DMLREF_INSTALL_CMAKEDIR}")

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/dmlrefConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/dmlrefConfig.cmake"
  INSTALL_DESTINATION "${DMLREF_INSTALL_CMAKEDIR}"
  NO_SET_AND_CHECK_MACRO)
# The version comes from include/dmlref/version.hpp (read by project() in CMakeLists.txt).
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/dmlrefConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion
  ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/dmlrefConfig.cmake"
              "${PROJECT_BINARY_DIR}/dmlrefConfigVersion.cmake"
        DESTINATION "${DMLREF_INSTALL_CMAKEDIR}")

# pkg-config: the prefix is computed from the .pc file's own location, so an install with
# `--prefix` (or a moved prefix) still points at its own include directory.
if(IS_ABSOLUTE "${DMLREF_INSTALL_PKGCONFIGDIR}")
  message(FATAL_ERROR "dmlref: DMLREF_INSTALL_PKGCONFIGDIR must be relative to the prefix")
endif()
file(RELATIVE_PATH DMLREF_PC_TO_PREFIX
     "/prefix/${DMLREF_INSTALL_PKGCONFIGDIR}" "/prefix")
string(REGEX REPLACE "/$" "" DMLREF_PC_TO_PREFIX "${DMLREF_PC_TO_PREFIX}")
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(DMLREF_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(DMLREF_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/dmlref.pc.in" "${PROJECT_BINARY_DIR}/dmlref.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/dmlref.pc" DESTINATION "${DMLREF_INSTALL_PKGCONFIGDIR}")
