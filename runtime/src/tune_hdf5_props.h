/*===- tune_hdf5_props.h - DFTRACER_TUNE's HDF5 keys on property lists ---===*
 *
 * Setting I (an index into dftracer_tune_settings_) read from and written
 * to an HDF5 property list, with the functions the key table names,
 * looked up at run time: a function the library lacks reads as "cannot
 * tell" or "refused", never a crash. Busy callers only.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_TUNE_HDF5_PROPS_H
#define DFTRACER_RUNTIME_TUNE_HDF5_PROPS_H

#include "hdf5_api.h"
#include "tune.h"

/* A new list of class List (dftracer_tune_list), or -1. */
hid_t dftracer_tune_new_list(unsigned List);
/* A copy of the application's list App (H5P_DEFAULT: a new list), or -1. */
hid_t dftracer_tune_copy_list(unsigned List, hid_t App);
void dftracer_tune_close_list(hid_t L);
/* Setting I's HDF5 set and get functions (NULL: the library lacks it). */
void *dftracer_tune_setter(unsigned I);
void *dftracer_tune_getter(unsigned I);
/* Setting I's key's value on list L into V; 0 when HDF5 cannot tell. */
int dftracer_tune_get(unsigned I, hid_t L, struct dftracer_tune_value *V);
/* Setting I's requested value, libver's "latest" resolved. */
struct dftracer_tune_value dftracer_tune_wanted(unsigned I);
/* Set setting I's value on L; 0 when HDF5 refused or lacks it. */
int dftracer_tune_set(unsigned I, hid_t L);
/* V in setting I's key's canonical text. */
void dftracer_tune_format_of(unsigned I, const struct dftracer_tune_value *V,
                             char *Out, size_t Size);
/* The application's value of setting I (list App of class List) into
 * Before; *IsDefault when it is a new list's. Whether it is the requested
 * value already. */
int dftracer_tune_before(unsigned I, unsigned List, hid_t App, char *Before,
                         size_t Size, int *IsDefault);
/* The driver of FAPL Fapl ("mpio", "sec2", "another driver"); *Mpio. */
const char *dftracer_tune_driver_of(hid_t Fapl, int *Mpio);

#endif
