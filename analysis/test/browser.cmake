# The HTML report in a real browser: headless Chromium, network namespace
# without interfaces (unshare -n) when available, a fresh profile. The page
# must draw (<body data-rendered="1">, no data-error), hold the timeline and
# the charts, log nothing to the console, fit a narrow window (640 px: wide
# tables and the timeline scroll in their own boxes), and screenshot as a
# picture.
#   -DCHROMIUM=<chromium> -DUNSHARE=<unshare or empty> -DHTML=<report>
#   -DWORK=<dir> -DGEN=<dftracer_trace_gen> -DPNG=<screenshot path>
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
file(MAKE_DIRECTORY ${WORK})
set(_net)
if(UNSHARE)
  execute_process(COMMAND ${UNSHARE} -n true RESULT_VARIABLE _rc
    OUTPUT_QUIET ERROR_QUIET)
  if(_rc EQUAL 0)
    set(_net ${UNSHARE} -n)
  endif()
endif()
set(_flags --headless --no-sandbox --disable-gpu --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --enable-logging=stderr --v=0)

file(REMOVE_RECURSE ${WORK}/profile1 ${WORK}/profile2)
string(TIMESTAMP _t0 "%s")
execute_process(COMMAND ${_net} ${CHROMIUM} ${_flags}
  --user-data-dir=${WORK}/profile1 --dump-dom file://${HTML}
  OUTPUT_FILE ${WORK}/dom.html ERROR_VARIABLE _log RESULT_VARIABLE _rc
  TIMEOUT 120)
string(TIMESTAMP _t1 "%s")
math(EXPR _secs "${_t1} - ${_t0}")
if(NOT _rc EQUAL 0)
  analysis_fail("chromium --dump-dom failed (${_rc}): ${_log}")
endif()
file(READ ${WORK}/dom.html _dom)
if(NOT _dom MATCHES "<body data-rendered=\"1\">")
  string(REGEX MATCH "<body[^>]*>" _body "${_dom}")
  analysis_fail("the timeline script did not finish: ${_body}")
endif()
foreach(_id timeline-canvas layer-chart size-chart function-chart layer-table)
  if(NOT _dom MATCHES "id=\"${_id}\"")
    analysis_fail("#${_id} is not in the page")
  endif()
endforeach()
# The page is UTF-8 throughout: a cut multi-byte character would show as
# U+FFFD.
string(ASCII 239 191 189 _replacement)
string(FIND "${_dom}" "${_replacement}" _at)
if(NOT _at EQUAL -1)
  analysis_fail("the page holds bytes that are not UTF-8 (U+FFFD at ${_at})")
endif()
if(_log MATCHES "CONSOLE")
  analysis_fail("the page logged to the console:\n${_log}")
endif()
if(_dom MATCHES "(src|href)=\"https?:")
  analysis_fail("the page references the network")
endif()

# A narrow window: the report in a 640 px frame of a page that measures it
# (file:// pages may read each other's DOM with --allow-file-access-from-files).
file(WRITE ${WORK}/narrow.html "<!DOCTYPE html><html><body>
<iframe id=\"f\" src=\"file://${HTML}\" style=\"width:640px;height:900px\"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {
  var d = this.contentDocument.scrollingElement;
  document.body.dataset.width = d.scrollWidth > d.clientWidth ? d.scrollWidth : 'fits';
});
</script></body></html>
")
file(REMOVE_RECURSE ${WORK}/profile3)
execute_process(COMMAND ${_net} ${CHROMIUM} ${_flags}
  --user-data-dir=${WORK}/profile3 --allow-file-access-from-files
  --dump-dom file://${WORK}/narrow.html
  OUTPUT_VARIABLE _narrow ERROR_VARIABLE _log RESULT_VARIABLE _rc TIMEOUT 120)
if(NOT _narrow MATCHES "<body data-width=\"fits\">")
  string(REGEX MATCH "<body[^>]*>" _body "${_narrow}")
  analysis_fail("the page is wider than a 640 px window: ${_body}")
endif()

execute_process(COMMAND ${_net} ${CHROMIUM} ${_flags}
  --user-data-dir=${WORK}/profile2 --window-size=1280,1600
  --screenshot=${PNG} file://${HTML}
  OUTPUT_QUIET ERROR_VARIABLE _log RESULT_VARIABLE _rc TIMEOUT 120)
if(NOT _rc EQUAL 0 OR NOT EXISTS ${PNG})
  analysis_fail("chromium --screenshot failed (${_rc}): ${_log}")
endif()
analysis_run(_out _rc ${GEN} check-png ${PNG})
message("${_out}")
if(NOT _rc EQUAL 0)
  analysis_fail("the screenshot is blank")
endif()
message("loaded and drawn in ${_secs} s (network: ${_net})")
