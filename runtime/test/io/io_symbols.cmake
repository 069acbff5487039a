# The one list of intercepted symbols (runtime/src/io_symbols.def) against
# the docs and against real programs.
#
#   cmake -DDEF=io_symbols.def -DMODE=docs -DDOC=docs/runtime.md -P io_symbols.cmake
#     every symbol is named (`name`) in the docs
#   cmake -DDEF=io_symbols.def -DMODE=cover -DNM=nm -DOBJECTS=a.o;b.o -P ...
#     every I/O function the objects import (`nm -u`) is intercepted, or is
#     one of the documented exceptions below
cmake_minimum_required(VERSION 3.20)

file(STRINGS ${DEF} _lines REGEX "^DFT_(POSIX|STDIO|MPIIO|HDF5)\\(")
set(_symbols)
foreach(_line ${_lines})
  string(REGEX REPLACE "^DFT_[A-Z0-9]+\\(([A-Za-z0-9_]+)\\).*" "\\1" _s "${_line}")
  list(APPEND _symbols ${_s})
endforeach()
list(LENGTH _symbols _n)
if(_n LESS 100)
  message(FATAL_ERROR "only ${_n} symbols read from ${DEF}")
endif()

if(MODE STREQUAL "docs")
  file(READ ${DOC} _doc)
  set(_missing)
  foreach(_s ${_symbols})
    string(FIND "${_doc}" "`${_s}`" _at)
    if(_at EQUAL -1)
      list(APPEND _missing ${_s})
    endif()
  endforeach()
  if(_missing)
    message(FATAL_ERROR "${DOC} does not name these intercepted symbols: ${_missing}")
  endif()
  message(STATUS "${DOC} names all ${_n} intercepted symbols")
  return()
endif()

# The I/O functions: the families of the four layers, in every form glibc,
# MPI and HDF5 export (64, _chk, _2, _unlocked, __x...).
set(_io_re "^(__)?(open|openat|creat|close|close_range|closefrom|read|pread|write|pwrite|readv|writev|preadv|pwritev|lseek|fsync|fdatasync|ftruncate|mmap|msync|dup|dup2|dup3|fcntl|stat|lstat|fstat|fstatat|statx|x?stat|lxstat|fxstat|fxstatat|access|faccessat|unlink|unlinkat|rename|renameat|mkdir|mkdirat|rmdir|opendir|closedir|fopen|fdopen|freopen|fclose|fread|fwrite|fseek|fseeko|ftell|ftello|rewind|fflush)(64)?(_chk|_2|64_2|_unlocked|_unlocked_chk)?$|^MPI_File_|^H5[FDGAO][a-z_0-9]+$")
# Imported by the programs but deliberately not intercepted (docs/runtime.md,
# "Not intercepted", and "Layers and symbols" for the MPI/HDF5 scope).
set(_not_intercepted
  # file metadata that names no file's data, or HDF5/MPI queries
  MPI_File_get_size MPI_File_get_position MPI_File_get_info MPI_File_set_info
  MPI_File_get_amode MPI_File_get_view MPI_File_get_group
  MPI_File_get_atomicity MPI_File_set_atomicity MPI_File_get_byte_offset
  MPI_File_preallocate MPI_File_c2f MPI_File_f2c
  H5Fget_name H5Fget_filesize H5Fget_obj_count H5Fis_accessible H5Fis_hdf5
  H5Dget_space H5Dget_type H5Dget_create_plist H5Dset_extent H5Dvlen_reclaim
  H5Dget_storage_size H5Aget_space H5Aget_type H5Aexists H5Adelete
  H5Aget_name H5Aiterate2 H5Gget_info H5Lexists H5Oget_info3
  H5Oget_info_by_name3 H5Ovisit3 H5Oexists_by_name)
set(_uncovered)
foreach(_obj ${OBJECTS})
  execute_process(COMMAND ${NM} -u ${_obj} OUTPUT_VARIABLE _out RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${NM} -u ${_obj} failed")
  endif()
  string(REPLACE "\n" ";" _out "${_out}")
  foreach(_line ${_out})
    string(REGEX REPLACE "^ *[Uw] +([^@ ]+).*" "\\1" _sym "${_line}")
    if(_sym MATCHES "${_io_re}" AND NOT _sym IN_LIST _symbols
       AND NOT _sym IN_LIST _not_intercepted)
      list(APPEND _uncovered "${_sym} (${_obj})")
    endif()
  endforeach()
endforeach()
if(_uncovered)
  list(REMOVE_DUPLICATES _uncovered)
  string(JOIN "\n  " _list ${_uncovered})
  message(FATAL_ERROR "I/O functions imported but not intercepted:\n  ${_list}")
endif()
list(LENGTH OBJECTS _objs)
message(STATUS "every I/O function that ${_objs} objects import is intercepted")
