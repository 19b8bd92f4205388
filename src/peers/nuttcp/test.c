/* ttcp -C --nuttcp host: the conversation with a nuttcp server (nuttcp -S):
 * HELO both ways, the parameter line, OK or KO, the data (data.c), then
 * the server's lines until it closes the connection, read into its end's
 * figures. What was seen on the wire from Debian's 6.1.2 is in wire.h and
 * docs/COMPAT.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/local.h"
#include "remote/dial.h"
#include "peers/nuttcp/internal.h"

int ttcp_nuttcp_check(const struct ttcp_options *o, char *why, size_t why_len)
{
    const char *no = NULL;
    if (o->bidir)
        no = "--bidir: nuttcp has no test both ways at once (on its own to-do list); run -t "
             "and -r one after the other";
    else if (!o->sinkmode)
        no = "-s: nuttcp's server tests with its own pattern only (its -s is not a server's)";
    else if (o->verify)
        no = "--verify: nuttcp's pattern carries its own bytes at offset 24; it cannot be "
             "checked";
    else if (o->omit_ns)
        no = "--omit: nuttcp's server has no such field, its figures would cover what ours "
             "leave out";
    else if (o->group != NULL)
        no = "multicast: not through nuttcp's server in this build";
    else if (o->key_file != NULL)
        no = "--key-file: nuttcp's protocol has no authentication to carry the key";
    else if (o->traceroute || o->pmtu)
        no = "--traceroute, --pmtu: ttcp's own server's; run them alone";
    else if (o->streams > TTCP_NUTTCP_STREAMS_MAX)
        no = "-P: nuttcp takes 1 to 128 streams";
    else if (o->port + o->streams > 65535 || o->port + 1 < TTCP_NUTTCP_PORT_MIN)
        no = "-p: the data ports (-p + 1 onwards, one a stream) must lie in 1024 to 65535";
    if (no == NULL)
        return 0;
    snprintf(why, why_len, "--nuttcp %s", no);
    return -1;
}

/* The control connection's step (remote/dial.h): from --bind's address,
 * connected within the control's time. */
static int control_step(void *ctx, tt_socket s, const struct tt_addr *a, enum ttcp_op *op)
{
    struct nuttcp_test *t = ctx;
    int rc;
    *op = TTCP_OP_BIND;
    if ((rc = ttcp_bind_outgoing(s, t->o, a->family, 0)) != 0)
        return rc;
    *op = TTCP_OP_CONNECT;
    return nuttcp_connect_by(s, a, nuttcp_wait_end(t, NUTTCP_CONTROL_NS));
}

/* Each address of the host in turn, until one connects. */
static int connect_control(struct nuttcp_test *t)
{
    struct ttcp_dialled d;
    int rc = ttcp_dial(t->o->host, (uint16_t)t->o->port, t->o->family, 0, control_step, t, &d);
    t->out->failure.op = d.op;
    if (rc != 0)
        return nuttcp_problem(t, TTCP_CLIENT_CONNECT, rc);
    t->ctl.s = d.sock;
    t->server = d.server;
    return 0;
}

/* The next line within span; 0, or -1 with the problem set (the end of
 * the connection is `lost`, as is a timeout). */
static int next_line(struct nuttcp_test *t, char *line, int64_t span)
{
    int rc = nuttcp_ctl_line(&t->ctl, line, TTCP_NUTTCP_LINE_MAX, nuttcp_wait_end(t, span));
    t->out->failure.op = TTCP_OP_IO;
    if (rc == 1)
        return 0;
    if (rc == TT_E_INVAL) {
        snprintf(t->out->why, sizeof t->out->why, "a line longer than %d bytes from the "
                 "nuttcp server", TTCP_NUTTCP_LINE_MAX);
        return nuttcp_problem(t, TTCP_CLIENT_PROTOCOL, 0);
    }
    return nuttcp_problem(t, TTCP_CLIENT_LOST, rc == 0 ? TT_E_CONNRESET : rc);
}

static int hello(struct nuttcp_test *t)
{
    static const struct ttcp_nuttcp_version spoken = TTCP_NUTTCP_SPOKEN;
    struct ttcp_nuttcp_version theirs;
    char line[TTCP_NUTTCP_LINE_MAX];
    size_t n = ttcp_nuttcp_helo(&spoken, line, sizeof line);
    int rc = nuttcp_ctl_send(&t->ctl, line, n);
    if (rc != 0)
        return nuttcp_problem(t, TTCP_CLIENT_LOST, rc);
    if (tt_wait_readable(t->ctl.s, 5000) == 0) {
        snprintf(t->out->why, sizeof t->out->why, "no HELO: is a nuttcp server there?");
        return nuttcp_problem(t, TTCP_CLIENT_SILENT, 0);
    }
    if (next_line(t, line, NUTTCP_CONTROL_NS) != 0)
        return -1;
    if (ttcp_nuttcp_read_helo(line, &theirs, t->out->why, sizeof t->out->why) != 0)
        return nuttcp_problem(t, TTCP_CLIENT_PROTOCOL, 0);
    return 0;
}

/* Our options as nuttcp's parameters (6.1.2's line). -n is each stream's,
 * as in ttcp's own -P; nuttcp's nbuf is all streams' together. */
static void make_params(const struct nuttcp_test *t, struct ttcp_nuttcp_params *p)
{
    const struct ttcp_options *o = t->o;
    uint64_t bps = o->pace_bps ? o->pace_bps : o->udp ? NUTTCP_UDP_DEFAULT_BPS : 0;
    ttcp_nuttcp_params_init(p);
    p->buflen = o->buflen;
    p->nbuf = o->duration_ns ? TTCP_NUTTCP_NBUF_FOREVER : o->nbuf * o->streams;
    p->win = o->sockbufsize;
    p->nstream = t->n;
    p->rate_kbps = bps ? (bps + 999) / 1000 : TTCP_NUTTCP_RATE_NONE;
    p->port = t->dport;
    p->trans = t->way == 0;
    p->timeout_s = (double)o->duration_ns / 1e9;
    p->udp = o->udp;
    p->datamss = (unsigned)o->mss;
    p->tos = o->tos_given ? (unsigned)o->tos : 0;
    p->nodelay = o->nodelay;
}

/* KO, its message lines, KO: refused, with the server's words. */
static int refused(struct nuttcp_test *t)
{
    char line[TTCP_NUTTCP_LINE_MAX], said[200] = "";
    struct ttcp_nuttcp_version v;
    int lines = 0;
    while (lines++ < 32 && next_line(t, line, NUTTCP_CONTROL_NS) == 0 &&
           ttcp_nuttcp_read_answer(line, &v) == TTCP_NUTTCP_ANSWER_TEXT)
        if (said[0] == '\0')
            snprintf(said, sizeof said, "%.150s", line);
    ttcp_nuttcp_printable(said);
    snprintf(t->out->why, sizeof t->out->why, "the nuttcp server refused: %s",
             said[0] ? said : "(no reason given)");
    return nuttcp_problem(t, TTCP_CLIENT_REFUSED, 0);
}

static int ask(struct nuttcp_test *t)
{
    struct ttcp_nuttcp_params p;
    struct ttcp_nuttcp_version v;
    char line[TTCP_NUTTCP_LINE_MAX];
    size_t n;
    int rc;
    make_params(t, &p);
    n = ttcp_nuttcp_params_line(&p, line, sizeof line);
    if ((rc = nuttcp_ctl_send(&t->ctl, line, n)) != 0)
        return nuttcp_problem(t, TTCP_CLIENT_LOST, rc);
    if (next_line(t, line, NUTTCP_CONTROL_NS) != 0)
        return -1;
    switch (ttcp_nuttcp_read_answer(line, &v)) {
    case TTCP_NUTTCP_ANSWER_OK:
        return 0;
    case TTCP_NUTTCP_ANSWER_KO:
        return refused(t);
    default:
        ttcp_nuttcp_printable(line);
        snprintf(t->out->why, sizeof t->out->why, "the nuttcp server answered \"%.120s\"",
                 line);
        return nuttcp_problem(t, TTCP_CLIENT_PROTOCOL, 0);
    }
}

/* The server's lines until it closes the connection (UDP: once we said
 * we are done sending, as nuttcp's client does). */
static void read_results(struct nuttcp_test *t)
{
    char line[TTCP_NUTTCP_LINE_MAX];
    int64_t end = nuttcp_wait_end(t, NUTTCP_RESULTS_NS);
    int lines = 0;
    if (t->o->udp)
        tt_shutdown_send(t->ctl.s);
    while (lines++ < 4096 && nuttcp_ctl_line(&t->ctl, line, sizeof line, end) == 1)
        ttcp_nuttcp_read_line(line, &t->report);
}

int ttcp_nuttcp_test(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                     struct ttcp_client_outcome *out, int64_t deadline)
{
    struct nuttcp_test *t = calloc(1, sizeof *t);
    unsigned i;
    int rc = -1;
    memset(out, 0, sizeof *out);
    if (t == NULL)
        return ttcp_outcome_problem(out, TTCP_CLIENT_LOCAL, TT_E_NOMEM);
    t->o = o;
    t->obs = obs;
    t->out = out;
    t->deadline = deadline;
    t->ctl.s = TT_NO_SOCKET;
    for (i = 0; i < TTCP_NUTTCP_STREAMS_MAX; i++)
        t->socks[i] = t->listeners[i] = TT_NO_SOCKET;
    t->way = o->transmit ? 0 : 1;
    t->n = (unsigned)o->streams;
    t->dport = (unsigned)o->port + 1;
    if (nuttcp_plan(t) == 0 && connect_control(t) == 0 && hello(t) == 0 &&
        nuttcp_listen(t) == 0 && ask(t) == 0 && nuttcp_open_streams(t) == 0) {
        nuttcp_run_streams(t);
        read_results(t);
        nuttcp_totals(t);
        rc = 0;
    }
    nuttcp_close_all(t);
    if (t->ctl.s != TT_NO_SOCKET)
        tt_close(t->ctl.s);
    if (t->run_ready)
        ttcp_streams_free(&t->run);
    free(t);
    return rc;
}
