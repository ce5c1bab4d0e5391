# End-to-end tests of `dmlref explain` and `dmlref compare`, one CTest test per line of
# tests/cli/explain_cases.txt: the exit code, stdout byte for byte against tests/cli/explain/NAME.stdout
# (or nothing), stderr against a regex (or nothing). Included by tools/CMakeLists.txt; tests are
# named cli.explain.<case> and labelled `cli`.

set(DMLREF_EXPLAIN_CLI_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

function(dmlref_add_explain_cli_tests tool_target)
  set(cases_file ${DMLREF_EXPLAIN_CLI_TEST_DIR}/explain_cases.txt)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${cases_file})
  file(STRINGS ${cases_file} lines ENCODING UTF-8)
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR line STREQUAL "")
      continue()
    endif()
    if(NOT line MATCHES "^([^\t]+)\t([0-9])\t([^\t]+)\t([^\t]+)\t([^\t]*)$")
      message(FATAL_ERROR "${cases_file}: malformed line: ${line}")
    endif()
    add_test(NAME cli.explain.${CMAKE_MATCH_1}
             COMMAND ${CMAKE_COMMAND}
                     "-DTOOL=$<TARGET_FILE:${tool_target}>"
                     "-DDATA_DIR=${DMLREF_EXPLAIN_CLI_TEST_DIR}/data"
                     "-DEXIT_CODE=${CMAKE_MATCH_2}"
                     "-DSTDOUT_FILE=${CMAKE_MATCH_3}"
                     "-DSTDERR_REGEX=${CMAKE_MATCH_4}"
                     "-DARGUMENTS=${CMAKE_MATCH_5}"
                     -P ${DMLREF_EXPLAIN_CLI_TEST_DIR}/run_explain_case.cmake)
    set_tests_properties(cli.explain.${CMAKE_MATCH_1} PROPERTIES LABELS cli TIMEOUT 60)
  endforeach()
endfunction()
