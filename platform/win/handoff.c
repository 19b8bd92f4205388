/* Handing a socket to another process: only ttcp -S --inetd needs it, and
 * inetd is not a Windows habit. */
#include "ttcp/platform.h"

int tt_handoff_open(const char *name, struct tt_handoff **out)
{
    (void)name;
    (void)out;
    return TT_E_UNSUPPORTED;
}

int tt_handoff_take(struct tt_handoff *h, tt_socket *s, struct tt_addr *peer, char *words,
                    size_t cap)
{
    (void)h;
    (void)s;
    (void)peer;
    (void)words;
    (void)cap;
    return TT_E_UNSUPPORTED;
}

int tt_handoff_give(const char *name, tt_socket s, const char *words, int timeout_ms)
{
    (void)name;
    (void)s;
    (void)words;
    (void)timeout_ms;
    return TT_E_UNSUPPORTED;
}

void tt_handoff_close(struct tt_handoff *h)
{
    (void)h;
}
