/* The table of other tools' protocols: each row plugs one folder of
 * src/peers/ into the client (and the server) without either naming it
 * (docs/DESIGN.md, "Other tools' protocols"). */
#include "cli/peers.h"

#include <stdio.h>

#include "peers/iperf2/iperf2.h"
#include "peers/iperf2/wire.h"
#include "peers/iperf3/iperf3.h"
#include "peers/iperf3/wire.h"
#include "peers/nuttcp/nuttcp.h"

/* -S --nuttcp-port: nuttcp's control port (0: not served). */
static uint64_t nuttcp_port(const struct ttcp_options *server, int *typed)
{
    *typed = server->nuttcp_port_given;
    return server->nuttcp_port;
}

/* -S --iperf3-port (0: not served). */
static uint64_t iperf3_port(const struct ttcp_options *server, int *typed)
{
    *typed = server->iperf3_port_given;
    return server->iperf3_port;
}

static const struct ttcp_peer peers[] = {
    {.name = "iperf3", .far_end = TTCP_FAR_IPERF3, .check = ttcp_iperf3_check,
     .test = ttcp_iperf3_test, .serve = ttcp_iperf3_serve, .port = iperf3_port,
     .key_len = TTCP_IPERF3_COOKIE_LEN, .refuse = ttcp_iperf3_refuse},
    {.name = "nuttcp", .far_end = TTCP_FAR_NUTTCP, .check = ttcp_nuttcp_check,
     .test = ttcp_nuttcp_test, .serve = ttcp_nuttcp_serve, .port = nuttcp_port,
     .refuse = ttcp_nuttcp_refuse},
    {.name = "iperf2", .far_end = TTCP_FAR_IPERF2, .check = ttcp_iperf2_check,
     .test = ttcp_iperf2_test, .serve = ttcp_iperf2_serve, .port = NULL,
     .recognise = ttcp_iperf2_recognise, .recognise_len = TTCP_IPERF2_HDR_MAX,
     .recognise_udp = ttcp_iperf2_recognise_udp, .serve_udp = ttcp_iperf2_serve_udp},
};

const struct ttcp_peer *cli_peers(size_t *count)
{
    *count = sizeof peers / sizeof peers[0];
    return peers;
}

const struct ttcp_peer *cli_peer(int far_end)
{
    size_t i;
    for (i = 0; i < sizeof peers / sizeof peers[0]; i++)
        if (peers[i].name != NULL && peers[i].far_end == far_end)
            return &peers[i];
    return NULL;
}

int cli_peer_check(const struct ttcp_options *o, char *why, size_t why_len)
{
    const struct ttcp_peer *p;
    if (o->mode != TTCP_MODE_CLIENT || o->far_end == TTCP_FAR_TTCP)
        return 0;
    p = cli_peer(o->far_end);
    if (p == NULL || p->test == NULL) {
        snprintf(why, why_len, "this build of ttcp cannot test against that tool's server");
        return -1;
    }
    return p->check != NULL ? p->check(o, why, why_len) : 0;
}
