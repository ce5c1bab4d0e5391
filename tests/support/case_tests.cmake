# What the case-file suites (tests/cli, tests/dxdispatch) share: at configure time, reading a
# tab-separated cases file; in a test script (cmake -P), running the tool and checking stderr.
include_guard(GLOBAL)

# Calls the function `callback` once for each case of `cases_file`, with CMAKE_MATCH_1.. set from
# `regex`; comments and blank lines are skipped. A malformed line or no case is a configure error.
function(dmlref_for_each_case cases_file regex callback)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${cases_file})
  file(STRINGS ${cases_file} lines ENCODING UTF-8)
  set(count 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR line STREQUAL "")
      continue()
    endif()
    if(NOT line MATCHES "${regex}")
      message(FATAL_ERROR "${cases_file}: malformed line: ${line}")
    endif()
    cmake_language(CALL ${callback})
    math(EXPR count "${count} + 1")
  endforeach()
  if(count EQUAL 0)
    message(FATAL_ERROR "${cases_file}: no cases")
  endif()
endfunction()

# Adds the test `name`, labelled `label`: cmake -DTOOL=<tool_target's binary> <the definitions
# after `script`> -P `script`.
function(dmlref_add_script_test name label tool_target script)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DTOOL=$<TARGET_FILE:${tool_target}>" ${ARGN} -P ${script})
  set_tests_properties(${name} PROPERTIES LABELS ${label} TIMEOUT 60)
endfunction()

# Runs ${TOOL} with the arguments after `dir` in `dir`, showing the command and what it printed;
# sets rc, stdout and stderr in the caller.
function(dmlref_run_tool dir)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "cd ${dir} && dmlref ${shown}")
  execute_process(COMMAND "${TOOL}" ${ARGN}
                  WORKING_DIRECTORY "${dir}"
                  RESULT_VARIABLE rc
                  OUTPUT_VARIABLE stdout
                  ERROR_VARIABLE stderr)
  message(STATUS "exit code: ${rc}\nstdout:\n${stdout}\nstderr:\n${stderr}")
  set(rc "${rc}" PARENT_SCOPE)
  set(stdout "${stdout}" PARENT_SCOPE)
  set(stderr "${stderr}" PARENT_SCOPE)
endfunction()

# Fails unless `stderr` matches `regex`; "-" means stderr must be empty.
function(dmlref_expect_stderr stderr regex)
  if(regex STREQUAL "-")
    if(NOT stderr STREQUAL "")
      message(FATAL_ERROR "expected nothing on stderr")
    endif()
  elseif(NOT stderr MATCHES "${regex}")
    message(FATAL_ERROR "stderr does not match the regex: ${regex}")
  endif()
endfunction()
