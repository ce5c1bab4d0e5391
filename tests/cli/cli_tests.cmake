# End-to-end tests of the `dmlref` tool, one CTest test per line of tests/cli/cases.txt (written by
# tests/npy/make_fixtures.py). Included by tools/CMakeLists.txt; each test runs run_case.cmake.
#
#   ok   cases: exit 0, nothing on stderr, and the output file is byte for byte the one numpy wrote;
#   fail cases: exit 1 or 2 (never a signal), a message matching the regex, and no output file.
#
# Tests are named cli.<case> and labelled `cli`: ctest -L cli, or ctest -R cli.gather.

set(DMLREF_CLI_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

function(dmlref_add_cli_tests tool_target)
  set(cases_file ${DMLREF_CLI_TEST_DIR}/cases.txt)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${cases_file})
  file(STRINGS ${cases_file} lines)
  set(count 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR line STREQUAL "")
      continue()
    endif()
    if(NOT line MATCHES "^([^\t]+)\t(ok|fail)\t([^\t]+)\t([^\t]*)$")
      message(FATAL_ERROR "${cases_file}: malformed line: ${line}")
    endif()
    set(name ${CMAKE_MATCH_1})
    set(status ${CMAKE_MATCH_2})
    set(expectation ${CMAKE_MATCH_3})
    set(arguments ${CMAKE_MATCH_4})
    add_test(NAME cli.${name}
             COMMAND ${CMAKE_COMMAND}
                     "-DTOOL=$<TARGET_FILE:${tool_target}>"
                     "-DDATA_DIR=${DMLREF_CLI_TEST_DIR}/data"
                     "-DOUT=${CMAKE_CURRENT_BINARY_DIR}/cli_out/${name}.npy"
                     "-DSTATUS=${status}"
                     "-DEXPECTATION=${expectation}"
                     "-DARGUMENTS=${arguments}"
                     -P ${DMLREF_CLI_TEST_DIR}/run_case.cmake)
    set_tests_properties(cli.${name} PROPERTIES LABELS cli TIMEOUT 60)
    math(EXPR count "${count} + 1")
  endforeach()
  if(count EQUAL 0)
    message(FATAL_ERROR "${cases_file}: no cases")
  endif()
endfunction()
