/* errno -> portable codes, once, here; and the OS's own error text. */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include "posix.h"
#include "sockets.h"
#include "ttcp/platform.h"

int tt_posix_code(int err)
{
    switch (err) {
    case EINTR: return TT_E_INTR;
    case EAGAIN:
#if EWOULDBLOCK != EAGAIN
    case EWOULDBLOCK:
#endif
        return TT_E_AGAIN;
    case ECONNREFUSED: return TT_E_CONNREFUSED;
    case ECONNRESET: return TT_E_CONNRESET;
    case EPIPE: return TT_E_PIPE;
    case EADDRINUSE: return TT_E_ADDRINUSE;
    case ENOBUFS: return TT_E_NOBUFS;
    case ENETUNREACH: case EHOSTUNREACH: return TT_E_UNREACH;
    case ETIMEDOUT: return TT_E_TIMEDOUT;
    case ENOMEM: return TT_E_NOMEM;
    case EINVAL: return TT_E_INVAL;
    case EMSGSIZE: return TT_E_MSGSIZE;
    case EAFNOSUPPORT: return TT_E_AFNOSUPPORT;
    case EACCES: case EPERM: return TT_E_ACCES;
    case EOPNOTSUPP: case ENOPROTOOPT: return TT_E_UNSUPPORTED;
    case ENODEV: return TT_E_NODEV;
    default: return TT_E_IO;
    }
}

int tt_posix_fail(void)
{
    return tt_posix_code(errno);
}

int tt_socket_fail(void)
{
    return tt_posix_fail();
}

int tt_last_error(void)
{
    return errno;
}

void tt_set_native_error(int err)
{
    errno = err;
}

const char *tt_error_text(int code, int native, char *buf, size_t len)
{
    if (code == TT_E_NOHOST)
        snprintf(buf, len, "%s", gai_strerror(native)); /* resolver codes */
    else if (native != 0)
        snprintf(buf, len, "%s", strerror(native));
    else
        return NULL; /* nothing native to say: the caller uses ttcp_strerror */
    return buf;
}
