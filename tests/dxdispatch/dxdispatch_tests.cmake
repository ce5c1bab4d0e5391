# End-to-end tests of `dmlref run` (DxDispatch model files), one CTest test per line of
# tests/dxdispatch/cases.txt. Included by tools/CMakeLists.txt; each test runs run_case.cmake:
# `dmlref run ARGUMENTS --output-dir OUT` from tests/dxdispatch/models, then
#   - the exit code must be the one listed;
#   - stdout must equal expected/NAME.stdout and stderr expected/NAME.stderr (a missing file means
#     nothing), with the output folder written as @OUT@ and the models folder as @DATA@;
#   - OUT must hold exactly the files of expected/NAME/, byte for byte (none when it is missing).
# expected/NAME.stdout and expected/NAME/ come from make_expected.py (numpy); the .stderr files
# are written by hand. Tests are named dxdispatch.NAME and labelled `dxdispatch` (ctest -L dxdispatch).

set(DMLREF_DXDISPATCH_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/../support/case_tests.cmake)

function(dmlref_add_dxdispatch_tests tool_target)
  function(dmlref_add_dxdispatch_case)
    dmlref_add_script_test(dxdispatch.${CMAKE_MATCH_1} dxdispatch ${tool_target}
                           ${DMLREF_DXDISPATCH_TEST_DIR}/run_case.cmake "-DDIR=${DMLREF_DXDISPATCH_TEST_DIR}"
                           "-DOUT=${CMAKE_CURRENT_BINARY_DIR}/dxdispatch_out/${CMAKE_MATCH_1}"
                           "-DNAME=${CMAKE_MATCH_1}" "-DEXIT_CODE=${CMAKE_MATCH_2}" "-DARGUMENTS=${CMAKE_MATCH_3}")
  endfunction()
  dmlref_for_each_case(${DMLREF_DXDISPATCH_TEST_DIR}/cases.txt "^([^\t]+)\t([0-9])\t([^\t]+)$"
                       dmlref_add_dxdispatch_case)
endfunction()
