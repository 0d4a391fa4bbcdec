# cmake -DSOURCE_DIR=... -DLAYERS=<build>/layers.cmake -P check_layers.cmake
#
# Fails, naming each file and include, when a layer includes a header of a
# layer it does not declare (cmake/SimdexLayers.cmake), or when a front end
# (tools/, python/src/) includes anything of the library but the public
# headers.
# A layer may include its own headers, the public headers (include/simdex/)
# and those of the layers it depends on, directly or through them.
cmake_minimum_required(VERSION 3.20)
include(${LAYERS})

# The layer a header path belongs to: the longest layer folder it is in.
function(layer_of path out)
  set(best "")
  set(best_length 0)
  foreach(layer IN LISTS SIMDEX_LAYERS)
    set(dir ${SIMDEX_LAYER_DIR_${layer}})
    string(LENGTH "${dir}" length)
    string(FIND "${path}" "${dir}/" at)
    if(at EQUAL 0 AND length GREATER best_length)
      set(best ${layer})
      set(best_length ${length})
    endif()
  endforeach()
  set(${out} "${best}" PARENT_SCOPE)
endfunction()

set(errors "")
function(check_folder dir allowed_layers what)
  file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${dir}/*.h ${SOURCE_DIR}/${dir}/*.cc)
  foreach(file IN LISTS files)
    file(STRINGS ${SOURCE_DIR}/${file} lines REGEX "^#include \"(engine|format|base)/")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" header "${line}")
      layer_of(${header} target)
      if(target STREQUAL "" OR NOT target IN_LIST allowed_layers)
        if(target STREQUAL "")
          set(target "no layer")
        endif()
        string(APPEND errors "${file}: includes ${header} (${target}), but ${what}\n")
      endif()
    endforeach()
  endforeach()
  set(errors "${errors}" PARENT_SCOPE)
endfunction()

foreach(layer IN LISTS SIMDEX_LAYERS)
  set(allowed ${layer} ${SIMDEX_LAYER_CLOSURE_${layer}})
  string(REPLACE ";" ", " declared "${SIMDEX_LAYER_CLOSURE_${layer}}")
  if(declared STREQUAL "")
    set(declared "nothing")
  endif()
  check_folder(${SIMDEX_LAYER_DIR_${layer}} "${allowed}"
               "layer ${layer} may use ${declared} (cmake/SimdexLayers.cmake, DEPENDS)")
endforeach()
foreach(front_end tools python/src)
  check_folder(${front_end} "" "${front_end}/ may include the public headers (include/simdex/) alone")
endforeach()

if(NOT errors STREQUAL "")
  message(NOTICE "${errors}")
  message(FATAL_ERROR "includes outside the declared layers (above)")
endif()
message(STATUS "every layer includes what it declares")
