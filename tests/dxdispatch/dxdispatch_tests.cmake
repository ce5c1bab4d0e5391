function(dmlref_add_dxdispatch_tests tool_target)
endfunction()
