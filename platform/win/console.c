/* Process set-up (Winsock 2.2), the Ctrl+C flag, and binary stdin/stdout. */
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <winsock2.h>

#include "ttcp/platform.h"
#include "win.h"

/* The platform's one mutable global (design.md §3): set by the handler,
 * which Windows runs on a thread of its own. */
static volatile LONG interrupted;

/* First Ctrl+C or Ctrl+Break: end the test and print its figures. A second
 * one falls through to the default handler, which ends the program (a
 * blocking Winsock call is not interrupted by the first). */
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

int tt_interrupted(void)
{
    return interrupted != 0;
}

/* Text mode would turn CR LF into LF and stop reading stdin at 0x1A. The
 * stream that carries only report lines stays text (CR LF, as consoles and
 * Windows scripts expect). */
int tt_stdio_binary(enum tt_stream stream)
{
    FILE *f = stream == TT_STDIN ? stdin : stdout;
    fflush(f);
    return _setmode(_fileno(f), _O_BINARY) == -1 ? TT_E_IO : 0;
}

int tt_stdin_is_console(void)
{
    DWORD mode;
    return GetConsoleMode(GetStdHandle(STD_INPUT_HANDLE), &mode) != 0;
}

int64_t tt_stdin_read(void *buf, size_t len)
{
    int n = _read(0, buf, (unsigned)(len > 0x40000000 ? 0x40000000 : len));
    return n < 0 ? TT_E_IO : n; /* GetLastError() keeps the reason */
}

int64_t tt_stdout_write(const void *buf, size_t len)
{
    const char *p = buf;
    size_t left = len;
    while (left > 0) {
        int n = _write(1, p, (unsigned)(left > 0x40000000 ? 0x40000000 : left));
        if (n <= 0)
            return TT_E_IO; /* GetLastError() keeps the reason */
        p += n;
        left -= (size_t)n;
    }
    return (int64_t)len;
}
