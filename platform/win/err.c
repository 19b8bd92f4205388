/* Winsock / Win32 errors -> portable codes, once, here; FormatMessage text. */
#include <stdio.h>
#include <string.h>
#include <winsock2.h>
#include <ws2tcpip.h>

#include "sockets.h"
#include "ttcp/platform.h"
#include "win.h"

int tt_win_code(int err)
{
    switch (err) {
    case WSAEINTR: return TT_E_INTR;
    case WSAEWOULDBLOCK: return TT_E_AGAIN;
    case WSAECONNREFUSED: return TT_E_CONNREFUSED;
    case WSAECONNRESET: case WSAECONNABORTED: return TT_E_CONNRESET;
    case WSAESHUTDOWN: case ERROR_BROKEN_PIPE: case ERROR_NO_DATA: return TT_E_PIPE;
    case WSAEADDRINUSE: return TT_E_ADDRINUSE;
    case WSAENOBUFS: return TT_E_NOBUFS;
    case WSAENETUNREACH: case WSAEHOSTUNREACH: return TT_E_UNREACH;
    case WSAETIMEDOUT: return TT_E_TIMEDOUT;
    case WSA_NOT_ENOUGH_MEMORY: return TT_E_NOMEM; /* = ERROR_NOT_ENOUGH_MEMORY */
    case WSAEINVAL: return TT_E_INVAL;
    case WSAEMSGSIZE: return TT_E_MSGSIZE;
    case WSAEAFNOSUPPORT: case WSAEPFNOSUPPORT: return TT_E_AFNOSUPPORT;
    case WSAEACCES: case ERROR_ACCESS_DENIED: return TT_E_ACCES;
    case WSAEOPNOTSUPP: case WSAENOPROTOOPT: return TT_E_UNSUPPORTED;
    case WSAHOST_NOT_FOUND: case WSANO_DATA: case WSATRY_AGAIN: return TT_E_NOHOST;
    default: return TT_E_IO;
    }
}

int tt_win_fail(void)
{
    return tt_win_code(WSAGetLastError());
}

int tt_socket_fail(void)
{
    return tt_win_fail();
}

int tt_last_error(void)
{
    return WSAGetLastError();
}

void tt_set_native_error(int err)
{
    WSASetLastError(err);
}

const char *tt_error_text(int code, int native, char *buf, size_t len)
{
    DWORD n;
    (void)code;
    if (native == 0)
        return NULL; /* nothing native to say: the caller uses ttcp_strerror */
    n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
                       (DWORD)native, MAKELANGID(LANG_NEUTRAL, SUBLANG_DEFAULT), buf,
                       (DWORD)len, NULL);
    /* FormatMessage ends its text with ".\r\n"; one line is wanted. */
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    if (n == 0)
        snprintf(buf, len, "Windows error %d", native);
    return buf;
}
