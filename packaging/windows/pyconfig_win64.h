/* pyconfig.h for compiling an extension module of the 64-bit Windows CPython 3.11 with
 * MinGW-w64 GCC on Linux (packaging/windows/build_native.py).
 *
 * CPython's other headers are the same on every system; this file says what they need to know
 * about the target: 64-bit Windows (LLP64: long is 4 bytes, pointers 8), Windows threads, and
 * python311.dll as a shared library whose functions and data are imported.  Only what the
 * public headers test is defined; nothing here describes the build of python311.dll itself.
 */
#ifndef Py_CONFIG_H
#define Py_CONFIG_H

#ifndef _WIN64
#error "pyconfig_win64.h is for 64-bit Windows targets (x86_64-w64-mingw32)"
#endif

#define MS_WIN64
#define MS_WIN32
#define MS_WINDOWS
#define NT_THREADS
#define WITH_THREAD
#define PLATFORM "win32"

/* python311.dll: functions and data come from the DLL; the module's PyInit_ is exported. */
#define Py_ENABLE_SHARED 1
#define HAVE_DECLSPEC_DLL

/* Sizes on 64-bit Windows (LLP64). */
#define SIZEOF_SHORT 2
#define SIZEOF_INT 4
#define SIZEOF_LONG 4
#define SIZEOF_LONG_LONG 8
#define SIZEOF_FLOAT 4
#define SIZEOF_DOUBLE 8
#define SIZEOF_VOID_P 8
#define SIZEOF_SIZE_T 8
#define SIZEOF_TIME_T 8
#define SIZEOF_WCHAR_T 2
#define SIZEOF__BOOL 1
#define SIZEOF_PID_T 4
#define SIZEOF_OFF_T 4
#define SIZEOF_FPOS_T 8
#define ALIGNOF_SIZE_T 8
#define ALIGNOF_LONG 4
#define HAVE_LONG_LONG 1

#define DOUBLE_IS_LITTLE_ENDIAN_IEEE 1
#define HAVE_WCHAR_H 1
#define HAVE_STDDEF_H 1
#define HAVE_SYS_STAT_H 1
#define WITH_PYMALLOC 1
#define WITH_DOC_STRINGS 1

#endif /* Py_CONFIG_H */
