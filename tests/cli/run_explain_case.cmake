# One test of `dmlref explain` or `dmlref compare` (see explain_tests.cmake):
#   cmake -DTOOL=... -DDATA_DIR=... -DEXIT_CODE=N -DSTDOUT_FILE=NAME.stdout|- -DSTDERR_REGEX=...|- -DARGUMENTS=... -P run_explain_case.cmake
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/../support/case_tests.cmake)

separate_arguments(args UNIX_COMMAND "${ARGUMENTS}")
dmlref_run_tool("${DATA_DIR}" ${args})

if(NOT rc STREQUAL "${EXIT_CODE}")
  message(FATAL_ERROR "expected exit code ${EXIT_CODE}, but the tool exited with: ${rc}")
endif()
if(STDOUT_FILE STREQUAL "-")
  set(expected "")
else()
  file(READ "${DATA_DIR}/../explain/${STDOUT_FILE}" expected)
endif()
if(NOT stdout STREQUAL expected)
  message(FATAL_ERROR "stdout differs from ${STDOUT_FILE}; expected:\n${expected}")
endif()
dmlref_expect_stderr("${stderr}" "${STDERR_REGEX}")
