# Cross-compiling ttcpw.exe for 32-bit Windows (7 and later) with Debian's mingw-w64.
# It builds and its imports are checked; this machine has no 32-bit Wine to run it.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86)
set(TTCP_MINGW_TRIPLET i686-w64-mingw32)
include(${CMAKE_CURRENT_LIST_DIR}/mingw-common.cmake)
