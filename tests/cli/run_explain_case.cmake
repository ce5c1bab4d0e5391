# One test of `dmlref explain` or `dmlref compare` (see explain_tests.cmake):
#   cmake -DTOOL=... -DDATA_DIR=... -DEXIT_CODE=N -DSTDOUT_FILE=NAME.stdout|- -DSTDERR_REGEX=...|- -DARGUMENTS=... -P run_explain_case.cmake
cmake_minimum_required(VERSION 3.21)

separate_arguments(args UNIX_COMMAND "${ARGUMENTS}")
message(STATUS "cd ${DATA_DIR} && dmlref ${ARGUMENTS}")
execute_process(COMMAND "${TOOL}" ${args}
                WORKING_DIRECTORY "${DATA_DIR}"
                RESULT_VARIABLE rc
                OUTPUT_VARIABLE stdout
                ERROR_VARIABLE stderr)
message(STATUS "stdout:\n${stdout}")
message(STATUS "stderr:\n${stderr}")

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
if(STDERR_REGEX STREQUAL "-")
  if(NOT stderr STREQUAL "")
    message(FATAL_ERROR "expected nothing on stderr")
  endif()
elseif(NOT stderr MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match the regex: ${STDERR_REGEX}")
endif()
