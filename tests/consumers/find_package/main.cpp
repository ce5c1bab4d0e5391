// Uses an installed dmlref through find_package(dmlref): runs a Gather and checks the result.
#include <dmlref/dmlref.hpp>

#include <cstdio>

#include "gather_check.hpp"

static_assert(DMLREF_VERSION_MAJOR == PACKAGE_VERSION_MAJOR &&
                  DMLREF_VERSION_MINOR == PACKAGE_VERSION_MINOR &&
                  DMLREF_VERSION_PATCH == PACKAGE_VERSION_PATCH,
              "dmlref/version.hpp and dmlrefConfigVersion.cmake disagree");

int main() {
  dmlref::Status status;
  const bool good = gather_works(status);
  std::printf("dmlref %d.%d.%d via find_package: gather %s\n", DMLREF_VERSION_MAJOR,
              DMLREF_VERSION_MINOR, DMLREF_VERSION_PATCH, good ? "ok" : "WRONG");
  if (!status.ok()) std::printf("%s\n", status.message().c_str());
  return good ? 0 : 1;
}
