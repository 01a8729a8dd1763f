/* Included before every C source of the Windows build (packaging/windows/build_native.py).
 *
 * Debian 12's MinGW-w64 headers (version 10) lack what newer ones declare for
 * SetThreadInformation(..., ThreadPowerThrottling, ...), which ggml's CPU backend uses to keep
 * Windows 11 from parking its threads on efficiency cores.  The layout is Windows' documented
 * THREAD_POWER_THROTTLING_STATE (three ULONGs); newer headers are used as they are.
 */
#ifndef PARLEY_MINGW_COMPAT_H
#define PARLEY_MINGW_COMPAT_H
#include <_mingw.h>
#if defined(__MINGW64_VERSION_MAJOR) && __MINGW64_VERSION_MAJOR < 11
typedef struct _THREAD_POWER_THROTTLING_STATE {
    unsigned long Version;
    unsigned long ControlMask;
    unsigned long StateMask;
} THREAD_POWER_THROTTLING_STATE;
#define THREAD_POWER_THROTTLING_CURRENT_VERSION 1
#define THREAD_POWER_THROTTLING_EXECUTION_SPEED 0x1
#endif
#endif
