# Include isolation between layers. Every source folder is reachable only through a per-target
# include root in the build tree that holds links to the folders that target may see: its own
# and the layers below it. A header of a higher layer is simply not on the include path, so an
# upward #include fails to compile (tests/layering checks it), not merely to link.
#
#   ddpsim_layer(TARGET ddpsim_sim_network SEES core topology algorithms sim/engine sim/network)
function(ddpsim_layer)
  cmake_parse_arguments(L "" "TARGET" "SEES" ${ARGN})
  set(root ${PROJECT_BINARY_DIR}/include/${L_TARGET})
  foreach(dir IN LISTS L_SEES)
    get_filename_component(parent ${root}/${dir} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    if(NOT EXISTS ${root}/${dir})
      file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${dir} ${root}/${dir} SYMBOLIC)
    endif()
  endforeach()
  target_include_directories(${L_TARGET} PUBLIC ${root})
  set_property(TARGET ${L_TARGET} PROPERTY DDPSIM_INCLUDE_ROOT ${root})
endfunction()
