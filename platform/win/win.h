/* Helpers shared by the Windows platform files; not part of the interface. */
#ifndef TTCP_WIN_H
#define TTCP_WIN_H

#include <winsock2.h>

/* The TT_E_* code for a Winsock / Win32 error number. */
int tt_win_code(int err);
/* The TT_E_* code for WSAGetLastError() (call right after the failure). */
int tt_win_fail(void);

/* Ctrl+C inside the platform (console.c): whether it came, without telling
 * the core (tt_interrupted() does that); and whether the core has been told.
 * A wait is armed when the core has not: a Ctrl+C during it, or just before
 * it, ends it; a wait the core begins knowing of the Ctrl+C waits as ever. */
int tt_win_ctrl_c(void);
int tt_win_ctrl_c_told(void);

#endif
