#ifndef DMLREF_VERSION_HPP
#define DMLREF_VERSION_HPP

/// dmlref's version; CMake reads it from here, so this is the single source of truth.
#define DMLREF_VERSION_MAJOR 0
#define DMLREF_VERSION_MINOR 1
#define DMLREF_VERSION_PATCH 0

#endif  // DMLREF_VERSION_HPP
