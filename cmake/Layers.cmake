# The core's layers, each one CMake OBJECT library (csrc/<layer>/**.cpp, compiled once), linked
# together into libascendcl.so. A layer declares the layers it may call (DEPS); a call into any
# other layer is a link error of the layer check (ACL_SIM_CHECK_LAYERS):
#
#   for every layer L, libacl_sim_layer_check_L.so is linked from L's objects plus static archives
#   of the layers L declares (and theirs, transitively) with --no-undefined, so a symbol L uses
#   that only an undeclared layer defines is "undefined reference" at build time.
#
# The archives and check objects reuse the layers' object files: nothing is compiled twice, the
# check costs one archive step and one link per layer. DEVELOPERS.md has the layer order.

if(ACL_SIM_CHECK_LAYERS)
  add_custom_target(acl_sim_layer_check ALL)
endif()

# acl_sim_layer(<name> [DEPS <layers it calls>...] [LIBS <system libraries>...])
function(acl_sim_layer name)
  cmake_parse_arguments(L "" "" "DEPS;LIBS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/csrc/${name}/*.cpp)
  set(t acl_sim_${name})
  add_library(${t} OBJECT ${sources})
  target_include_directories(${t}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/csrc/include>
    PRIVATE ${PROJECT_SOURCE_DIR}/csrc)
  target_compile_definitions(${t} PRIVATE ACL_SIM_BUILDING_LIBRARY=1)
  set_target_properties(${t} PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_compile_options(${t} PRIVATE $<$<CONFIG:Release>:-O3> -Wall -Wextra -Wno-unused-parameter)
  foreach(dep ${L_DEPS})
    target_link_libraries(${t} PUBLIC acl_sim_${dep})
  endforeach()
  target_link_libraries(${t} PUBLIC ${L_LIBS})
  acl_sim_apply_sanitizers(${t})
  set_property(GLOBAL APPEND PROPERTY ACL_SIM_LAYERS ${name})

  if(ACL_SIM_CHECK_LAYERS)
    add_library(${t}_archive STATIC $<TARGET_OBJECTS:${t}>)
    set_target_properties(${t}_archive PROPERTIES LINKER_LANGUAGE CXX)
    add_library(acl_sim_layer_check_${name} SHARED $<TARGET_OBJECTS:${t}>)
    set_target_properties(acl_sim_layer_check_${name} PROPERTIES LINKER_LANGUAGE CXX)
    foreach(dep ${L_DEPS})
      target_link_libraries(${t}_archive PUBLIC acl_sim_${dep}_archive)
      target_link_libraries(acl_sim_layer_check_${name} PRIVATE acl_sim_${dep}_archive)
    endforeach()
    target_link_libraries(${t}_archive PUBLIC ${L_LIBS})
    target_link_libraries(acl_sim_layer_check_${name} PRIVATE ${L_LIBS})
    target_link_options(acl_sim_layer_check_${name} PRIVATE "LINKER:--no-undefined")
    acl_sim_apply_sanitizers(acl_sim_layer_check_${name})
    add_dependencies(acl_sim_layer_check acl_sim_layer_check_${name})
  endif()
endfunction()
