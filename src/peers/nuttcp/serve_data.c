/* The data of a nuttcp client's test on ttcp -S (serve.h): the server's
 * side from the parameter line within the server's limits; the data
 * sockets (the transmitter opens them: the client's connections to the
 * data port + i, or ours to the client's address alone); the streams on
 * the stream runner (ttcp_run_on); the lines nuttcp's client reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run.h"
#include "peers/nuttcp/serve.h"
#include "remote/wire.h"


static int refuse(struct nuttcp_serve *v, const char *why)
{
    snprintf(v->why, sizeof v->why, "%s", why);
    return -1;
}

/* What this server does not serve, and the limits a client's own pace
 * must keep (a receiving server cannot slow it down): NULL, or the reason. */
static const char *not_served(const struct nuttcp_serve *v)
{
    const struct ttcp_nuttcp_params *p = &v->p;
    const struct ttcp_options *sv = v->s->server;
    uint64_t most = sv->max_streams ? sv->max_streams : TTCP_STREAMS_MAX;
    if (p->thirdparty)
        return "third-party tests are not served by ttcp -S";
    if (p->multicast)
        return "multicast is not served by ttcp -S";
    if (p->reverse)
        return "-F (the data connection the other way) is not served by ttcp -S";
    if (p->traceroute)
        return "traceroute is not served by ttcp -S";
    if (p->nstream > most)
        return "nstream: more streams than this server's --max-streams";
    if (p->buflen > NUTTCP_SERVE_MAX_BUFLEN ||
        (uint64_t)p->nstream * p->buflen > TTCP_SERVER_TEST_MEMORY)
        return "buflen: at most 4 MiB a buffer, 64 MiB all streams together, on this server";
    if (p->udp && (p->buflen < TTCP_UDP_MIN_BUFLEN || p->buflen > TTCP_UDP_MAX_BUFLEN))
        return "buflen: a UDP datagram of 5 to 65507 bytes";
    if (p->trans && sv->max_time_ns &&
        (p->timeout_s <= 0 || p->timeout_s * 1e9 > (double)sv->max_time_ns))
        return "timeout: longer than this server's --max-time (give -T)";
    if (p->trans && sv->max_rate_bps &&
        (p->rate_kbps == TTCP_NUTTCP_RATE_NONE || p->rate_kbps * 1000 > sv->max_rate_bps))
        return "rate: faster than this server's --max-rate (give -R)";
    return NULL;
}

/* The amount: a sending server's time or buffers, capped by --max-time. */
static void amount(struct nuttcp_serve *v, struct ttcp_options *o)
{
    const struct ttcp_nuttcp_params *p = &v->p;
    const struct ttcp_options *sv = v->s->server;
    if (!o->transmit) {
        o->limit_ns = sv->max_time_ns ? sv->max_time_ns + TTCP_LIMIT_GRACE_NS : 0;
        return;
    }
    if (p->timeout_s > 0) {
        o->duration_ns = (int64_t)(p->timeout_s * 1e9);
    } else {
        o->nbuf = (p->nbuf + v->n - 1) / v->n; /* nuttcp's nbuf is all streams' */
        o->nbuf_given = 1;
    }
    o->limit_ns = sv->max_time_ns;
    if (p->rate_kbps != TTCP_NUTTCP_RATE_NONE && p->rate_kbps > 0)
        o->pace_bps = p->rate_kbps * 1000;
    if (sv->max_rate_bps && (o->pace_bps == 0 || o->pace_bps > sv->max_rate_bps))
        o->pace_bps = sv->max_rate_bps;
}

static void base_options(struct nuttcp_serve *v, struct ttcp_options *o)
{
    const struct ttcp_options *sv = v->s->server;
    const struct ttcp_nuttcp_params *p = &v->p;
    ttcp_wire_server_base(sv, o);
    o->side_given = 1;
    o->port = p->port;
    o->buflen = p->buflen;
    o->udp = p->udp;
    o->udp_dialect = p->udp ? TTCP_UDP_NUTTCP : TTCP_UDP_TTCP;
    o->transmit = !p->trans;
    o->streams = p->nstream;
    o->sockbufsize = p->win > TTCP_SERVER_MAX_SOCKBUF ? TTCP_SERVER_MAX_SOCKBUF : p->win;
    o->mss = p->datamss;
    o->tos = p->tos;
    o->tos_given = p->tos != 0;
    o->nodelay = p->nodelay;
    o->host = o->transmit ? tt_addr_text(&v->s->client, v->peer, sizeof v->peer) : NULL;
    if (!o->transmit && p->interval_s > 0) /* the receiver's lines, as nuttcp's */
        o->interval_ns = (int64_t)(p->interval_s * 1e9);
    if (o->udp && !o->transmit)
        o->start_timeout_ns = o->idle_timeout_ns;
}

static int make_room(struct nuttcp_serve *v)
{
    unsigned i;
    v->part = calloc(v->n, sizeof *v->part);
    v->res = calloc(v->n, sizeof *v->res);
    v->rc = calloc(v->n, sizeof *v->rc);
    v->socks = calloc(v->n, sizeof *v->socks);
    v->to = calloc(v->n, sizeof *v->to);
    if (!v->part || !v->res || !v->rc || !v->socks || !v->to)
        return refuse(v, "the server is out of memory");
    for (i = 0; i < v->n; i++)
        v->socks[i] = TT_NO_SOCKET;
    return 0;
}

int nuttcp_serve_plan(struct nuttcp_serve *v)
{
    const char *no = not_served(v);
    unsigned i;
    if (no != NULL)
        return refuse(v, no);
    v->n = v->p.nstream;
    v->transmit = !v->p.trans;
    base_options(v, &v->whole);
    amount(v, &v->whole);
    if (ttcp_options_validate(&v->whole, v->why, sizeof v->why) != 0 || make_room(v) != 0)
        return -1;
    for (i = 0; i < v->n; i++) {
        ttcp_stream_options(&v->whole, (int)i, (int)v->n, &v->part[i]);
        v->part[i].port = v->p.port + i;
    }
    return 0;
}
