/* --bind and --cport (engine/local.h). */
#include "engine/local.h"

int ttcp_local_address(const struct ttcp_options *o, int *family, uint16_t port,
                       struct tt_addr *out)
{
    struct tt_addr_list list;
    int rc;
    if (o->bind == NULL)
        return tt_addr_any(*family, port, out);
    rc = tt_resolve(o->bind, port, *family, o->udp, &list);
    if (rc != 0)
        return rc;
    *out = list.addr[0];
    *family = out->family;
    return 0;
}

int ttcp_bind_outgoing(tt_socket s, const struct ttcp_options *o, int family, uint16_t port)
{
    struct tt_addr local;
    int rc;
    if (o->bind == NULL && port == 0)
        return 0;
    rc = ttcp_local_address(o, &family, port, &local);
    if (rc != 0)
        return rc;
    /* a fixed port again at once: the last test's connection may sit in
     * TIME_WAIT on it (the client closes first) */
    if (port != 0)
        tt_setopt(s, TT_OPT_REUSEADDR, 1);
    return tt_bind(s, &local);
}
