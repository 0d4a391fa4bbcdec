# The layers of the library: base/, format/ and each engine/ folder is an
# OBJECT library simdex_<layer> with the layers it may use declared once,
# here in simdex_layer(... DEPENDS ...) calls, in the order of the layers
# (a layer names only layers declared before it, so the graph has no
# cycle). The static simdex is made of all their objects.
#
# Two checks keep a layer to what it declares (docs/architecture.md, "The
# layers"):
# - simdex_<layer>_link_check, built by default: a shared library of the
#   layer's objects and those of every layer below it that it may use,
#   linked with --no-undefined, so that a call into an undeclared layer
#   fails the build.
# - the test layers_include_declared_layers (cmake/check_layers.cmake):
#   every #include "engine/...", "format/..." or "base/..." of a layer names
#   a layer it may use (templates and inline code, which leave no symbol);
#   the front ends, tools/ and python/src/, include the public headers
#   (include/simdex/) alone.

# simdex_declare_layer(NAME DIR dir [DEPENDS layers...]): records a layer for
# the include check (simdex_layer calls it; engine/service, a library of its
# own, calls it directly).
function(simdex_declare_layer name)
  cmake_parse_arguments(L "" "DIR" "DEPENDS" ${ARGN})
  set(closure)
  foreach(dep IN LISTS L_DEPENDS)
    get_property(known GLOBAL PROPERTY SIMDEX_LAYER_DIR_${dep} SET)
    if(NOT known)
      message(FATAL_ERROR "layer ${name} depends on ${dep}, which is not a layer declared before it")
    endif()
    get_property(dep_closure GLOBAL PROPERTY SIMDEX_LAYER_CLOSURE_${dep})
    list(APPEND closure ${dep} ${dep_closure})
  endforeach()
  list(REMOVE_DUPLICATES closure)
  set_property(GLOBAL PROPERTY SIMDEX_LAYER_DIR_${name} ${L_DIR})
  set_property(GLOBAL PROPERTY SIMDEX_LAYER_DEPENDS_${name} ${L_DEPENDS})
  set_property(GLOBAL PROPERTY SIMDEX_LAYER_CLOSURE_${name} ${closure})
  set_property(GLOBAL APPEND PROPERTY SIMDEX_LAYERS ${name})
endfunction()

# simdex_layer(NAME SOURCES... [DEPENDS layers...] [LIBRARIES libraries...]):
# the OBJECT library simdex_<NAME> of the current folder's SOURCES, using
# the DEPENDS layers and the third-party LIBRARIES; its objects go into
# simdex.
function(simdex_layer name)
  cmake_parse_arguments(L "" "" "DEPENDS;LIBRARIES" ${ARGN})
  file(RELATIVE_PATH dir ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  simdex_declare_layer(${name} DIR ${dir} DEPENDS ${L_DEPENDS})
  set(target simdex_${name})
  add_library(${target} OBJECT ${L_UNPARSED_ARGUMENTS})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
  list(TRANSFORM L_DEPENDS PREPEND simdex_ OUTPUT_VARIABLE dep_targets)
  target_link_libraries(${target} PUBLIC ${dep_targets} ${L_LIBRARIES})
  set_property(GLOBAL PROPERTY SIMDEX_LAYER_LIBRARIES_${name} ${L_LIBRARIES})
  set_property(GLOBAL APPEND PROPERTY SIMDEX_LAYER_TARGETS ${target})
  target_sources(simdex PRIVATE $<TARGET_OBJECTS:${target}>)
  target_link_libraries(simdex PRIVATE ${L_LIBRARIES})

  simdex_layer_link_check(${name} ${target})
endfunction()

# simdex_layer_link_check(NAME TARGET [LIBRARIES libraries...]): the shared
# library TARGET_link_check of TARGET's objects and those of the layers NAME
# may use, with their LIBRARIES, linked with --no-undefined. Not in fuzz
# builds: their objects call the fuzzer's coverage hooks, which only the
# fuzzer programs define.
function(simdex_layer_link_check name target)
  cmake_parse_arguments(L "" "" "LIBRARIES" ${ARGN})
  if(SIMDEX_FUZZ)
    return()
  endif()
  get_property(closure GLOBAL PROPERTY SIMDEX_LAYER_CLOSURE_${name})
  get_property(libraries GLOBAL PROPERTY SIMDEX_LAYER_LIBRARIES_${name})
  list(APPEND libraries ${L_LIBRARIES})
  set(objects $<TARGET_OBJECTS:${target}>)
  foreach(dep IN LISTS closure)
    list(APPEND objects $<TARGET_OBJECTS:simdex_${dep}>)
    get_property(dep_libraries GLOBAL PROPERTY SIMDEX_LAYER_LIBRARIES_${dep})
    list(APPEND libraries ${dep_libraries})
  endforeach()
  add_library(${target}_link_check SHARED ${objects})
  set_target_properties(${target}_link_check PROPERTIES LINKER_LANGUAGE CXX
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/layer_checks)
  target_link_libraries(${target}_link_check PRIVATE ${libraries} Threads::Threads)
  target_link_options(${target}_link_check PRIVATE "LINKER:--no-undefined")
endfunction()

# Writes the declared graph for cmake/check_layers.cmake and registers the
# include check. Called once, after every layer is declared.
function(simdex_layer_include_check)
  get_property(layers GLOBAL PROPERTY SIMDEX_LAYERS)
  set(text "set(SIMDEX_LAYERS ${layers})\n")
  foreach(layer IN LISTS layers)
    get_property(dir GLOBAL PROPERTY SIMDEX_LAYER_DIR_${layer})
    get_property(depends GLOBAL PROPERTY SIMDEX_LAYER_DEPENDS_${layer})
    get_property(closure GLOBAL PROPERTY SIMDEX_LAYER_CLOSURE_${layer})
    string(APPEND text "set(SIMDEX_LAYER_DIR_${layer} ${dir})\n"
                       "set(SIMDEX_LAYER_DEPENDS_${layer} ${depends})\n"
                       "set(SIMDEX_LAYER_CLOSURE_${layer} ${closure})\n")
  endforeach()
  file(WRITE ${PROJECT_BINARY_DIR}/layers.cmake "${text}")
  if(BUILD_TESTING)
    add_test(NAME layers_include_declared_layers
      COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DLAYERS=${PROJECT_BINARY_DIR}/layers.cmake
              -P ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake)
  endif()
endfunction()
