# e2e_cxx_check_unwind(TRACE CATCHER THROUGH THROWER EXCEPTION AFTER) fails
# unless every span of TRACE named CATCHER shows an exception that was thrown
# in THROWER, unwound through THROUGH and caught in CATCHER, with every span
# of the path closed when the handler ran:
#
#   CATCHER                 restore_field
#     THROUGH                 read_field        (ends before AFTER starts)
#       THROWER                 Dataset
#         EXCEPTION               Error
#     AFTER                   fallback_values   (a child of CATCHER)
#
# dftracer-check already proves that spans nest; this proves they nest in
# the order the code says. Had the unwinding left THROUGH or THROWER open,
# AFTER would have been recorded as their child (args.p_idx), not CATCHER's.
function(e2e_cxx_check_unwind trace catcher through thrower exception after)
  file(READ "${trace}" _text)
  # One event per line; the "[" line and any bracket never enter the list.
  string(REGEX MATCHALL "{[^\n]*}" _events "${_text}")
  set(_catchers)
  foreach(_e IN LISTS _events)
    string(JSON _ph ERROR_VARIABLE _err GET "${_e}" ph)
    if(_err OR NOT _ph STREQUAL "X")
      continue()
    endif()
    string(JSON _id GET "${_e}" id)
    string(JSON _name GET "${_e}" name)
    string(JSON _ts GET "${_e}" ts)
    string(JSON _dur GET "${_e}" dur)
    string(JSON _parent GET "${_e}" args p_idx)
    set(_name_${_id} "${_name}")
    set(_begin_${_id} ${_ts})
    math(EXPR _end_${_id} "${_ts} + ${_dur}")
    set(_parent_${_id} ${_parent})
    list(APPEND _kids_${_parent} ${_id})
    if(_name STREQUAL catcher)
      list(APPEND _catchers ${_id})
    endif()
  endforeach()
  list(LENGTH _catchers _n)
  if(_n EQUAL 0)
    message(FATAL_ERROR "${trace}: no ${catcher} span, so no exception path to check")
  endif()

  foreach(_c IN LISTS _catchers)
    set(_where "${trace}: ${catcher} (id ${_c})")
    # THROUGH -> THROWER -> EXCEPTION: the path the exception took.
    set(_unwound "")
    foreach(_t IN LISTS _kids_${_c})
      if(NOT _name_${_t} STREQUAL through)
        continue()
      endif()
      foreach(_w IN LISTS _kids_${_t})
        if(NOT _name_${_w} STREQUAL thrower)
          continue()
        endif()
        foreach(_x IN LISTS _kids_${_w})
          if(_name_${_x} STREQUAL exception)
            set(_unwound ${_t})
          endif()
        endforeach()
      endforeach()
    endforeach()
    if(NOT _unwound)
      message(FATAL_ERROR "${_where} has no ${through} > ${thrower} > ${exception} "
                          "child path: the exception path was not traced")
    endif()
    # AFTER: run from the handler, once the unwound spans were closed.
    set(_handler "")
    foreach(_a IN LISTS _kids_${_c})
      if(_name_${_a} STREQUAL after)
        set(_handler ${_a})
      endif()
    endforeach()
    if(NOT _handler)
      set(_stray "")
      foreach(_id IN LISTS _kids_${_unwound})
        list(APPEND _stray "${_name_${_id}}")
      endforeach()
      message(FATAL_ERROR "${_where}: ${after}, called from the handler, is not its "
                          "child; ${through} (id ${_unwound}) was left open by the "
                          "unwinding (its children: ${_stray})")
    endif()
    if(_end_${_unwound} GREATER _begin_${_handler})
      message(FATAL_ERROR "${_where}: ${through} (id ${_unwound}) ends at "
                          "${_end_${_unwound}} us, after ${after} (id ${_handler}) "
                          "began at ${_begin_${_handler}} us: it was closed late")
    endif()
  endforeach()
  message(STATUS "${trace}: ${_n} exception path(s) ${catcher} > ${through} > "
                 "${thrower} > ${exception}, each closed before ${after}")
endfunction()
