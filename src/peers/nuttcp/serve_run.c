/* A nuttcp client's test on ttcp -S, once its sockets are open (serve.h):
 * the streams on the stream runner, each one the engine's data phase
 * (ttcp_run_on), their lines on the server's own output as ttcp's own
 * tests print them; a receiving server's interval lines to the client as
 * they close; then the lines 6.1.2's client reads after the data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run.h"
#include "peers/nuttcp/serve.h"

#define DRAIN_SLICE_MS 100

static void send_text(struct nuttcp_serve *v, const char *text, size_t n)
{
    if (n > 0)
        nuttcp_ctl_send(&v->ctl, text, n);
}

/* A client started with -fparse reads the server's lines as key=value pairs
 * (its summary is zero when they come in the usual words). */
static int parse_asked(const struct nuttcp_serve *v)
{
    return (v->p.format & TTCP_NUTTCP_FORMAT_PARSE) != 0;
}

/* A receiving server's interval, as nuttcp's receiver prints it. */
static void send_interval(struct nuttcp_serve *v, const struct ttcp_interval *in)
{
    char line[256];
    uint64_t packets = v->p.buflen ? in->bytes / v->p.buflen : 0, drops = 0;
    double seconds = (double)(in->end_ns - in->start_ns) / 1e9;
    if ((in->end_ns - in->start_ns) * 2 < v->whole.interval_ns)
        return; /* the test's last moments: nuttcp's receiver prints whole intervals */
    if (in->udp_valid) {
        packets = in->udp_expected;
        drops = in->udp_lost;
    }
    send_text(v, line, ttcp_nuttcp_interval_line(parse_asked(v), in->bytes, seconds, v->p.udp, 0,
                                                 drops, packets, line, sizeof line));
}

static void stream_event(void *ctx, int way, int i, enum ttcp_stream_end end,
                         const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct nuttcp_serve *v = ctx;
    const struct ttcp_server_observer *obs = v->s->obs;
    (void)way;
    (void)end;
    obs->event(obs->ctx, &v->part[i], ev, res);
    if (ev->kind == TTCP_EV_INTERVAL && v->n == 1 && !v->transmit && ev->interval != NULL)
        send_interval(v, ev->interval);
}

static void total_interval(void *ctx, int way, enum ttcp_stream_end end,
                           const struct ttcp_interval *in)
{
    struct nuttcp_serve *v = ctx;
    (void)way;
    if (end == TTCP_END_LOCAL && !v->transmit)
        send_interval(v, in);
}

/* Datagrams on a UDP stream's socket from anyone but the client: not its. */
static int stream_claim(void *ctx, const struct tt_datagram *d)
{
    struct nuttcp_serve *v = ctx;
    unsigned char a[16], b[16];
    int n = tt_addr_ip(&v->s->client, a);
    return tt_addr_ip(&d->from, b) != n || memcmp(a, b, (size_t)n) != 0;
}

static void run_stream(void *ctx, int way, int i, const struct ttcp_observer *obs)
{
    struct nuttcp_serve *v = ctx;
    tt_socket sock = v->socks[i];
    unsigned flags = v->p.udp ? TTCP_RUN_KEEP_SOCKET : v->transmit ? 0u : TTCP_RUN_ACCEPTED;
    (void)way;
    if (!v->p.udp)
        v->socks[i] = TT_NO_SOCKET; /* the run closes it */
    v->rc[i] = ttcp_run_on(&v->part[i], obs, &v->res[i], sock, &v->to[i], flags);
    if (v->rc[i] != 0)
        v->s->obs->failed(v->s->obs->ctx, &v->part[i], &v->res[i]);
}

void nuttcp_serve_run(struct nuttcp_serve *v)
{
    static const struct ttcp_streams_observer proto = {stream_event, total_interval, NULL,
                                                        stream_claim, NULL};
    struct ttcp_streams_observer *obs = &v->stream_obs;
    unsigned way = v->transmit ? 1u : 0u;
    *obs = proto;
    obs->ctx = v;
    if (ttcp_streams_init(&v->run, (int)v->n, 1u << way, obs) != 0)
        return;
    v->run_ready = 1;
    ttcp_streams_run(&v->run, run_stream, v, NULL, NULL);
    ttcp_streams_total(&v->run, (int)way, TTCP_END_LOCAL, v->res, &v->total);
    v->total_ready = 1;
    if (v->n > 1 && v->total.started) {
        struct ttcp_event ev = {TTCP_EV_FIGURES, TTCP_WARN_COUNT, NULL, NULL};
        v->s->obs->event(v->s->obs->ctx, &v->whole, &ev, &v->total);
    }
}

/* The figures' lines, as 6.1.2's server prints them into the connection. */
void nuttcp_serve_report(struct nuttcp_serve *v)
{
    const struct ttcp_result *r = &v->total;
    char side = v->transmit ? 't' : 'r', line[256];
    double real_s = (double)r->real_ns / 1e9;
    double user = (double)(r->cpu_end.user_ns - r->cpu_start.user_ns) / 1e9;
    double sys = (double)(r->cpu_end.sys_ns - r->cpu_start.sys_ns) / 1e9;
    unsigned pct = real_s > 0 ? (unsigned)((user + sys) / real_s * 100.0 + 0.5) : 0;
    uint64_t retrans = r->tcp_end_valid ? r->tcp_end.retransmits : 0;
    int parse = parse_asked(v);
    if (!v->total_ready)
        return;
    if (!v->transmit)
        send_text(v, TTCP_NUTTCP_DONE, strlen(TTCP_NUTTCP_DONE));
    send_text(v, line,
              ttcp_nuttcp_total_line(parse, side, r->bytes, real_s, line, sizeof line));
    send_text(v, line,
              ttcp_nuttcp_cpu_line(parse, side, r->bytes, user + sys, line, sizeof line));
    if (v->transmit && !v->p.udp)
        send_text(v, line, ttcp_nuttcp_retrans_line(parse, retrans, line, sizeof line));
    send_text(v, line,
              ttcp_nuttcp_rusage_line(parse, side, user, sys, real_s, pct, line, sizeof line));
}

/* UDP: the client's last EODs still come; they stay on the test's sockets
 * until it closes its control connection (after them), or a while. */
static void drain(struct nuttcp_serve *v)
{
    int64_t end = tt_now_ns() + NUTTCP_SERVE_DRAIN_NS;
    unsigned char buf[64];
    unsigned i;
    while (tt_now_ns() < end && !tt_interrupted()) {
        if (tt_wait_readable(v->ctl.s, DRAIN_SLICE_MS) > 0 &&
            tt_recv(v->ctl.s, buf, sizeof buf) <= 0)
            break;
        for (i = 0; i < v->n; i++)
            while (v->socks[i] != TT_NO_SOCKET && tt_wait_readable(v->socks[i], 0) > 0 &&
                   tt_recv(v->socks[i], buf, sizeof buf) >= 0)
                continue;
    }
}

void nuttcp_serve_free(struct nuttcp_serve *v)
{
    unsigned i;
    if (v->p.udp && !v->transmit && v->total_ready)
        drain(v);
    for (i = 0; v->socks != NULL && i < v->n; i++)
        if (v->socks[i] != TT_NO_SOCKET)
            tt_close(v->socks[i]);
    for (i = 0; v->res != NULL && i < v->n; i++)
        ttcp_result_release(&v->res[i]);
    if (v->total_ready)
        ttcp_result_release(&v->total);
    if (v->run_ready)
        ttcp_streams_free(&v->run);
    free(v->part);
    free(v->res);
    free(v->rc);
    free(v->socks);
    free(v->to);
}
