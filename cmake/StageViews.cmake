# Include views that make the pipeline's order a compile-time rule.
#
# Every internal header is included by its path under src/ ("analysis/timeline/intervals.h") and
# every public one by its path under include/ ("tensormorph/model/trace.h"). The view of stage S,
# ${TM_VIEWS}/S, holds a symbolic link for each stage up to and including S:
#   <stage>              -> src/<stage>
#   tensormorph/<stage>  -> include/tensormorph/<stage>   (where the stage has public headers)
# plus tensormorph/version.h; the view of `cli` (the front ends and the tests) holds every stage
# and the umbrella header tensormorph/tensormorph.h. A stage's code is compiled with its view as
# its only project include directory, so `#include "report/table.h"` in src/analysis/ names a file
# that does not exist there, and the build stops at it.
#
# TM_STAGES (lowest first) must be set before this file is included. For each stage S (and cli),
# TM_GEN_INCLUDES_S lists the folders of generated headers of S and the stages below it
# (${TM_GEN}/<stage>, as tm_protoc and the embedded assets write them).
set(TM_VIEWS "${CMAKE_BINARY_DIR}/stage-include")

function(tm_link_into_view view name target)
  if(EXISTS "${target}")
    get_filename_component(parent "${view}/${name}" DIRECTORY)
    file(MAKE_DIRECTORY "${parent}")
    file(CREATE_LINK "${target}" "${view}/${name}" SYMBOLIC)
  endif()
endfunction()

# Creates ${TM_VIEWS}/<stage> afresh at configure time and sets TM_GEN_INCLUDES_<stage>.
function(tm_make_stage_view stage)
  set(view "${TM_VIEWS}/${stage}")
  file(REMOVE_RECURSE "${view}")
  file(MAKE_DIRECTORY "${view}/tensormorph")
  set(gen)
  foreach(lower ${TM_STAGES})
    tm_link_into_view("${view}" "${lower}" "${CMAKE_SOURCE_DIR}/src/${lower}")
    tm_link_into_view("${view}" "tensormorph/${lower}" "${CMAKE_SOURCE_DIR}/include/tensormorph/${lower}")
    list(APPEND gen "${TM_GEN}/${lower}")
    if(lower STREQUAL stage)
      break()
    endif()
  endforeach()
  tm_link_into_view("${view}" "tensormorph/version.h" "${CMAKE_SOURCE_DIR}/include/tensormorph/version.h")
  if(stage STREQUAL "cli")
    tm_link_into_view("${view}" "cli" "${CMAKE_SOURCE_DIR}/src/cli")
    tm_link_into_view("${view}" "tensormorph/tensormorph.h"
                      "${CMAKE_SOURCE_DIR}/include/tensormorph/tensormorph.h")
  endif()
  set(TM_GEN_INCLUDES_${stage} ${gen} PARENT_SCOPE)
endfunction()
