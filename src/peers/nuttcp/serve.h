/* ttcp -S's nuttcp end (serve.c: the conversation; serve_data.c: the
 * test's options, its data sockets, its streams and the lines nuttcp's
 * client reads after them). Internal to peers/nuttcp/. */
#ifndef TTCP_PEERS_NUTTCP_SERVE_H
#define TTCP_PEERS_NUTTCP_SERVE_H

#include "engine/streams.h"
#include "peers/nuttcp/ctl.h"
#include "peers/nuttcp/nuttcp.h"
#include "peers/nuttcp/wire.h"

#define NUTTCP_SERVE_HELO_NS (5ll * 1000000000ll)    /* the HELO, then the parameters */
#define NUTTCP_SERVE_DATA_NS (10ll * 1000000000ll)   /* the data connections, from the OK */
#define NUTTCP_SERVE_MAX_BUFLEN (4u << 20)           /* -l a client may ask for */
#define NUTTCP_SERVE_DRAIN_NS (4ll * 1000000000ll)   /* UDP: its EOD1..EOD4 after EOD0 */

struct nuttcp_serve {
    struct ttcp_peer_serving *s;
    struct nuttcp_ctl ctl;
    struct ttcp_nuttcp_params p;
    struct ttcp_options whole; /* the server's side of the test */
    unsigned n;                /* streams */
    int transmit;              /* the server sends (the client's nuttcp -r) */
    struct ttcp_options *part; /* [n]: each stream's */
    struct ttcp_result *res;   /* [n] */
    int *rc;                   /* [n] */
    tt_socket *socks;          /* [n]: until each stream's run takes it */
    struct tt_addr *to;        /* [n]: where stream i's data goes (or came from) */
    struct ttcp_streams run;
    struct ttcp_streams_observer stream_obs;
    int run_ready;
    struct ttcp_result total;  /* the streams together */
    int total_ready;
    char peer[80];             /* the client's address, the transmitter's "host" */
    char why[200];
};

/* serve_data.c */
/* The server's side from the client's parameters, within the server's
 * limits: 0, or -1 with why (what the client is told between its KOs). */
int nuttcp_serve_plan(struct nuttcp_serve *v);
/* Before the OK: the client's streams' sockets on ports of their own. */
int nuttcp_serve_listen(struct nuttcp_serve *v);
/* After the OK: every stream's socket (the client's connections, or ours
 * to it); 0, or -1. */
int nuttcp_serve_open(struct nuttcp_serve *v);
/* The streams side by side (a receiving server's interval lines on the
 * control connection as they close), then the total. */
void nuttcp_serve_run(struct nuttcp_serve *v);
/* What the client reads after the data: DONE (a receiving server), then
 * the total, CPU, retrans (a sending one) and rusage lines. */
void nuttcp_serve_report(struct nuttcp_serve *v);
void nuttcp_serve_free(struct nuttcp_serve *v);

#endif
