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

function(dmlref_add_dxdispatch_tests tool_target)
  set(cases_file ${DMLREF_DXDISPATCH_TEST_DIR}/cases.txt)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${cases_file})
  file(STRINGS ${cases_file} lines)
  set(count 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR line STREQUAL "")
      continue()
    endif()
    if(NOT line MATCHES "^([^\t]+)\t([0-9])\t([^\t]+)$")
      message(FATAL_ERROR "${cases_file}: malformed line: ${line}")
    endif()
    set(name ${CMAKE_MATCH_1})
    add_test(NAME dxdispatch.${name}
             COMMAND ${CMAKE_COMMAND}
                     "-DTOOL=$<TARGET_FILE:${tool_target}>"
                     "-DDIR=${DMLREF_DXDISPATCH_TEST_DIR}"
                     "-DOUT=${CMAKE_CURRENT_BINARY_DIR}/dxdispatch_out/${name}"
                     "-DNAME=${name}"
                     "-DEXIT_CODE=${CMAKE_MATCH_2}"
                     "-DARGUMENTS=${CMAKE_MATCH_3}"
                     -P ${DMLREF_DXDISPATCH_TEST_DIR}/run_case.cmake)
    set_tests_properties(dxdispatch.${name} PROPERTIES LABELS dxdispatch TIMEOUT 60)
    math(EXPR count "${count} + 1")
  endforeach()
  if(count EQUAL 0)
    message(FATAL_ERROR "${cases_file}: no cases")
  endif()
endfunction()
