# End-to-end tests of the `dmlref` tool, one CTest test per line of tests/cli/cases.txt (written by
# tests/npy/make_fixtures.py). Included by tools/CMakeLists.txt; each test runs run_case.cmake.
#
#   ok   cases: exit 0, nothing on stderr, and the output file is byte for byte the one numpy wrote;
#   fail cases: exit 1 or 2 (never a signal), a message matching the regex, and no output file.
#
# Tests are named cli.<case> and labelled `cli`: ctest -L cli, or ctest -R cli.gather.

set(DMLREF_CLI_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/../support/case_tests.cmake)

function(dmlref_add_cli_tests tool_target)
  function(dmlref_add_cli_case)
    dmlref_add_script_test(cli.${CMAKE_MATCH_1} cli ${tool_target} ${DMLREF_CLI_TEST_DIR}/run_case.cmake
                           "-DDATA_DIR=${DMLREF_CLI_TEST_DIR}/data"
                           "-DOUT=${CMAKE_CURRENT_BINARY_DIR}/cli_out/${CMAKE_MATCH_1}.npy"
                           "-DSTATUS=${CMAKE_MATCH_2}" "-DEXPECTATION=${CMAKE_MATCH_3}" "-DARGUMENTS=${CMAKE_MATCH_4}")
  endfunction()
  dmlref_for_each_case(${DMLREF_CLI_TEST_DIR}/cases.txt "^([^\t]+)\t(ok|fail)\t([^\t]+)\t([^\t]*)$"
                       dmlref_add_cli_case)
endfunction()
