/* Included before every C and C++ source of the Windows build (packaging/windows/build_native.py).
 *
 * 1. Debian 12's MinGW-w64 headers (version 10) lack what newer ones declare for
 *    SetThreadInformation(..., ThreadPowerThrottling, ...), which ggml's CPU backend uses to keep
 *    Windows 11 from parking its threads on efficiency cores.  The layout is Windows' documented
 *    THREAD_POWER_THROTTLING_STATE (three ULONGs); newer headers are used as they are.
 * 2. GCC 12's AMX tile load and store macros cast the row stride to long, which is 32 bits on
 *    Windows: the assembler then rejects a 64-bit base with a 32-bit index ("not a valid
 *    base/index expression") in ggml's AMX kernels.  Where AMX is compiled (the sapphirerapids
 *    CPU variant), the three macros are redefined with a pointer-sized stride.
 */
#ifndef PARLEY_MINGW_COMPAT_H
#define PARLEY_MINGW_COMPAT_H
#include <_mingw.h>

#if defined(__MINGW64_VERSION_MAJOR) && __MINGW64_VERSION_MAJOR < 11 && !defined(__cplusplus)
typedef struct _THREAD_POWER_THROTTLING_STATE {
    unsigned long Version;
    unsigned long ControlMask;
    unsigned long StateMask;
} THREAD_POWER_THROTTLING_STATE;
#define THREAD_POWER_THROTTLING_CURRENT_VERSION 1
#define THREAD_POWER_THROTTLING_EXECUTION_SPEED 0x1
#endif

#if defined(__AMX_TILE__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#include <immintrin.h>
#undef _tile_loadd_internal
#undef _tile_stream_loadd_internal
#undef _tile_stored_internal
#define _tile_loadd_internal(dst, base, stride) \
    __asm__ volatile("tileloadd (%0,%1,1), %%tmm" #dst ::"r"((const void *) (base)), "r"((__PTRDIFF_TYPE__) (stride)))
#define _tile_stream_loadd_internal(dst, base, stride) \
    __asm__ volatile("tileloaddt1 (%0,%1,1), %%tmm" #dst ::"r"((const void *) (base)), "r"((__PTRDIFF_TYPE__) (stride)))
#define _tile_stored_internal(src, base, stride) \
    __asm__ volatile("tilestored %%tmm" #src ", (%0,%1,1)" ::"r"((void *) (base)), "r"((__PTRDIFF_TYPE__) (stride)) : "memory")
#endif

#endif
