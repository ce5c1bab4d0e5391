# End-to-end tests of `dmlref explain` and `dmlref compare`, one CTest test per line of
# tests/cli/explain_cases.txt: the exit code, stdout byte for byte against tests/cli/explain/NAME.stdout
# (or nothing), stderr against a regex (or nothing). Included by tools/CMakeLists.txt; tests are
# named cli.explain.<case> and labelled `cli`.

set(DMLREF_EXPLAIN_CLI_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/../support/case_tests.cmake)

function(dmlref_add_explain_cli_tests tool_target)
  function(dmlref_add_explain_cli_case)
    dmlref_add_script_test(cli.explain.${CMAKE_MATCH_1} cli ${tool_target}
                           ${DMLREF_EXPLAIN_CLI_TEST_DIR}/run_explain_case.cmake
                           "-DDATA_DIR=${DMLREF_EXPLAIN_CLI_TEST_DIR}/data" "-DEXIT_CODE=${CMAKE_MATCH_2}"
                           "-DSTDOUT_FILE=${CMAKE_MATCH_3}" "-DSTDERR_REGEX=${CMAKE_MATCH_4}"
                           "-DARGUMENTS=${CMAKE_MATCH_5}")
  endfunction()
  dmlref_for_each_case(${DMLREF_EXPLAIN_CLI_TEST_DIR}/explain_cases.txt
                       "^([^\t]+)\t([0-9])\t([^\t]+)\t([^\t]+)\t([^\t]*)$" dmlref_add_explain_cli_case)
endfunction()
