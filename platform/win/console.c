/* Process set-up (Winsock 2.2), the Ctrl+C flag, and what the console is.
 * Reading stdin so that Ctrl+C cuts it short is stdio.c's. */
#include <winsock2.h>

#include "ttcp/platform.h"
#include "win.h"

/* The Ctrl+C flag (docs/DESIGN.md, "The platform rule"), set by the handler,
 * which Windows runs on a thread of its own. */
static volatile LONG interrupted;

/* First Ctrl+C or Ctrl+Break: end the test and print its figures (every
 * call that waits, on a socket or on stdin, looks at the flag at least every
 * 100 ms: net.c, stdio.c). A second one falls through to the default
 * handler, which ends the program. */
static BOOL WINAPI on_console_event(DWORD event)
{
    if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT)
        return FALSE;
    return InterlockedExchange(&interrupted, 1) == 0;
}

int tt_init(void)
{
    WSADATA wsa;
    int rc = WSAStartup(MAKEWORD(2, 2), &wsa);
    if (rc != 0) {
        WSASetLastError(rc);
        return tt_win_code(rc);
    }
    SetConsoleCtrlHandler(on_console_event, TRUE);
    return 0;
}

void tt_cleanup(void)
{
    WSACleanup();
}

/* Set once tt_interrupted() has said yes: the core knows of the Ctrl+C. */
static volatile LONG told;

int tt_interrupted(void)
{
    if (interrupted == 0)
        return 0;
    told = 1;
    return 1;
}

int tt_win_ctrl_c(void)
{
    return interrupted != 0;
}

int tt_win_ctrl_c_told(void)
{
    return told != 0;
}

int tt_stdin_is_console(void)
{
    DWORD mode;
    return GetConsoleMode(GetStdHandle(STD_INPUT_HANDLE), &mode) != 0;
}

/* Explorer opens a console for the program alone; in a cmd window the
 * shell shares it. */
int tt_console_is_own(void)
{
    DWORD pids[2];
    return GetConsoleProcessList(pids, 2) == 1;
}

int tt_slash_switches(void)
{
    return 1;
}
