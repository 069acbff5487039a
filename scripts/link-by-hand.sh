#!/bin/sh
# Checks the claims of docs/integration.md "Linking the runtime by hand" with
# a tiny real build (two annotated C files) against the runtime of a build
# tree: where each way of adding -ldftracer_core lands on the link line, and
# whether the link succeeds under the toolchain's defaults (Debian 12's gcc
# links with --as-needed).
#
#   scripts/link-by-hand.sh [BUILD]        # BUILD: default build/
#
# Prints one line per way: "OK" or "FAIL (N undefined references)", and the
# link command. Exit status 0 when every way the page recommends links and
# every way it warns about fails, 1 otherwise.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/build}" && pwd)
lib=$build/runtime
inc=$repo/runtime/include
[ -f "$lib/libdftracer_core.so" ] || { echo "no $lib/libdftracer_core.so: build dftracer_core" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > work.c <<'C'
#include <stdio.h>
#include <dftracer/dftracer.h>
int work(int x)
{
    DFTRACER_C_FUNCTION_START();
    printf("%d\n", x);
    DFTRACER_C_FUNCTION_END();
    return x;
}
C
cat > main.c <<'C'
#include <dftracer/dftracer.h>
int work(int x);
int main(void)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    int r = work(1);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return r - 1;
}
C
cat > CMakeLists.txt <<C
cmake_minimum_required(VERSION 3.20)
project(linkdemo C)
add_executable(app main.c work.c)
target_include_directories(app PRIVATE $inc)
if(USE_TARGET)
  find_package(annotate REQUIRED)
  target_link_libraries(app PRIVATE dftracer::dftracer_core)
endif()
C
printf 'app: main.o work.o\n\t$(CC) $(LDFLAGS) -o $@ main.o work.o $(LIBS)\n%%.o: %%.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) -c $<\n' > Makefile
flags="-L$lib -ldftracer_core -Wl,-rpath,$lib"
status=0
report() { # name expected log rc
    if [ "$4" -eq 0 ]; then got=OK; else got="FAIL ($(grep -c 'undefined reference' "$3") undefined references)"; fi
    echo "$1: $got"
    grep -m1 -- '-o app' "$3" | sed "s|$lib|\$RUNTIME|g; s|$work/||g" | sed 's/^/    /'
    case "$got" in "$2"*) ;; *) status=1 ;; esac
}
cm() { name=$1; expect=$2; shift 2
    cmake -S . -B "b-$name" "$@" >/dev/null 2>&1 && cmake --build "b-$name" -- VERBOSE=1 >"$name.log" 2>&1
    report "cmake $name" "$expect" "$name.log" $?
}
cm target_link_libraries OK -DUSE_TARGET=ON "-Dannotate_DIR=$build"
cm CMAKE_C_STANDARD_LIBRARIES OK "-DCMAKE_C_STANDARD_LIBRARIES=$flags"
cm CMAKE_EXE_LINKER_FLAGS FAIL "-DCMAKE_EXE_LINKER_FLAGS=$flags"
mk() { name=$1; expect=$2; shift 2
    rm -f app ./*.o; make CPPFLAGS="-I$inc" "$@" >"$name.log" 2>&1
    report "make $name" "$expect" "$name.log" $?
}
mk LIBS OK "LIBS=$flags"
mk LDFLAGS FAIL "LDFLAGS=$flags"
if command -v autoreconf >/dev/null; then
    mkdir auto && cp main.c work.c auto/ && cd auto
    printf 'AC_INIT([linkdemo], [1.0])\nAM_INIT_AUTOMAKE([foreign])\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n' > configure.ac
    printf 'bin_PROGRAMS = app\napp_SOURCES = main.c work.c\n' > Makefile.am
    autoreconf -i >/dev/null 2>&1
    ac() { name=$1; expect=$2; shift 2
        { ./configure CPPFLAGS="-I$inc" "$@" && make; } >"$name.log" 2>&1
        report "autotools $name" "$expect" "$name.log" $?
        make distclean >/dev/null 2>&1
    }
    ac LIBS OK "LIBS=$flags"
    ac LDFLAGS FAIL "LDFLAGS=$flags"
fi
exit $status
