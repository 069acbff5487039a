# strip.variant_kept: a function kept in one configuration is kept in all.
# Under -DX, f's END is expanded inside a user macro (not annotate's form):
# that configuration keeps f as it is; the default one, which does not see
# the macro call, would remove f's START and END, and the file would not
# compile under -DX. With --variant=-DX nothing of f goes (exit 1, the
# warning); g, stripped in both, still is.
#   -DANNOTATE= -DINCLUDE=<runtime include dir> -DWORK=dir
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(_f [=[#include <dftracer/dftracer.h>
#define DONE(v) do { DFTRACER_C_FUNCTION_END(); return (v); } while (0)
int f(int a)
{
    DFTRACER_C_FUNCTION_START();
#ifdef X
    if (a) DONE(1);
#endif
    DFTRACER_C_FUNCTION_END();
    return 0;
}
]=])
set(_g [=[int g(int a)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return a;
}
]=])
file(WRITE ${WORK}/io.c "${_f}${_g}")
execute_process(COMMAND ${ANNOTATE} ${WORK}/io.c --strip --variant=-DX -- -I${INCLUDE}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 1)
  message(FATAL_ERROR "--strip --variant=-DX exited ${_rc}, expected 1:\n${_err}")
endif()
if(NOT _err MATCHES "io\\.c:7:12: warning: DFTRACER_C_FUNCTION_END is expanded inside macro 'DONE'")
  message(FATAL_ERROR "no warning about DONE:\n${_err}")
endif()
if(NOT _err MATCHES "1 function stripped, 1 kept \\(1 not in annotate's form\\)")
  message(FATAL_ERROR "summary:\n${_err}")
endif()
string(REPLACE "    DFTRACER_C_FUNCTION_START();\n    DFTRACER_C_FUNCTION_END();\n" ""
  _g_stripped "${_g}")
if(NOT _out STREQUAL "${_f}${_g_stripped}")
  message(FATAL_ERROR "f was not kept whole, or g not stripped:\n${_out}")
endif()
