/* Helpers shared by the Windows platform files; not part of the interface. */
#ifndef TTCP_WIN_H
#define TTCP_WIN_H

#include <winsock2.h>

/* The TT_E_* code for a Winsock / Win32 error number. */
int tt_win_code(int err);
/* The TT_E_* code for WSAGetLastError() (call right after the failure). */
int tt_win_fail(void);

#endif
