/* Every address of the server's name in turn (dial.h). */
#include "remote/dial.h"

#include <string.h>

int ttcp_dial(const char *host, uint16_t port, int family, int udp, ttcp_dial_step step,
              void *ctx, struct ttcp_dialled *out)
{
    struct tt_addr_list list;
    int rc = tt_resolve(host, port, family, udp, &list), i;
    memset(out, 0, sizeof *out);
    out->sock = TT_NO_SOCKET;
    out->op = TTCP_OP_HOSTNAME;
    if (rc != 0)
        return rc;
    if (list.count < 1)
        return TT_E_IO;
    for (i = 0; i < list.count && !tt_interrupted(); i++) {
        out->tried++;
        out->op = TTCP_OP_SOCKET;
        rc = tt_socket_open(list.addr[i].family, udp, &out->sock);
        if (rc != 0) { /* a family this host lacks: the next may do */
            out->sock = TT_NO_SOCKET;
            continue;
        }
        rc = step(ctx, out->sock, &list.addr[i], &out->op);
        if (rc == 0) {
            out->server = list.addr[i];
            return 0;
        }
        tt_close(out->sock);
        out->sock = TT_NO_SOCKET;
    }
    return tt_interrupted() ? TT_E_INTR : rc;
}
