# Cross-compiling ttcpw.exe for 32-bit Windows (7 and later) with Debian's mingw-w64.
# ci/test-windows builds it and checks its imports; ci/test-windows32 runs the Windows suite on it
# under 32-bit Wine (by hand: it needs an i386 Debian root).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86)
set(TTCP_MINGW_TRIPLET i686-w64-mingw32)
# SSE2 arithmetic, as on x86_64: with gcc's default x87 code a double keeps 80 bits in a register,
# and a ratio of exactly the threshold (measure/compression.c: 1.1) was judged above it (caught by
# unit_compression under 32-bit Wine). Every CPU that runs Windows 8 or later has SSE2.
set(CMAKE_C_FLAGS_INIT "-msse2 -mfpmath=sse")
include(${CMAKE_CURRENT_LIST_DIR}/mingw-common.cmake)
