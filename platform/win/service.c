/* How a server is started: inetd, systemd's socket activation and a
 * daemon of its own are POSIX habits; Windows starts a server as a service
 * (sc.exe, NSSM) instead, so each says so. */
#include "ttcp/platform.h"

int tt_stdin_socket(tt_socket *out, struct tt_addr *peer, int *port)
{
    (void)out;
    (void)peer;
    (void)port;
    return TT_E_UNSUPPORTED;
}

/* No LISTEN_FDS here: the server binds its port itself. */
int tt_inherited_sockets(tt_socket *tcp, tt_socket *udp, int *port, const char **why)
{
    (void)why;
    *port = 0;
    *tcp = *udp = TT_NO_SOCKET;
    return 0;
}

int tt_daemon_start(void)
{
    return TT_E_UNSUPPORTED;
}

int tt_daemon_ready(int keep_output)
{
    (void)keep_output;
    return TT_E_UNSUPPORTED;
}

int tt_pidfile_check(const char *path, long *holder)
{
    (void)path;
    (void)holder;
    return TT_E_UNSUPPORTED;
}

int tt_pidfile_write(const char *path)
{
    (void)path;
    return TT_E_UNSUPPORTED;
}

void tt_pidfile_remove(const char *path)
{
    (void)path;
}
