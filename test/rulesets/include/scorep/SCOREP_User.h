/* A minimal stand-in for Score-P's <scorep/SCOREP_User.h> with the user
 * API's names and forms when SCOREP_USER_ENABLE is defined: FUNC_BEGIN
 * declares a static region handle (so it must come first in a block) and
 * begins the region; FUNC_END ends it. Lets the scorep rule set's golden
 * outputs compile without Score-P installed. */
#ifndef ANNOTATE_TEST_SCOREP_USER_H
#define ANNOTATE_TEST_SCOREP_USER_H

typedef struct SCOREP_User_Region *SCOREP_User_RegionHandle;
void SCOREP_User_RegionBegin(SCOREP_User_RegionHandle *handle,
                             const char *name, const char *file, int line);
void SCOREP_User_RegionEnd(SCOREP_User_RegionHandle handle);

#define SCOREP_USER_FUNC_BEGIN()                                               \
  static SCOREP_User_RegionHandle scorep_user_func_handle = 0;                 \
  SCOREP_User_RegionBegin(&scorep_user_func_handle, __func__, __FILE__,        \
                          __LINE__)
#define SCOREP_USER_FUNC_END() SCOREP_User_RegionEnd(scorep_user_func_handle)

#endif
