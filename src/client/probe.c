/* --latency through -C: the client's probes (docs/PROTOCOL.md, section
 * 3b). A UDP socket of its own, connected to the server's port, says
 * hello with the test's token until the server answers `probe_ready`;
 * then a probe goes every --latency-interval, for --latency-idle before
 * the data (idle) and while the streams run (loaded, on a thread beside
 * them), and each echo's round trip goes into the outcome's samples. The
 * server's half is server/echo.c and serve_probes() in server/control.c. */
#include <stdio.h>
#include <string.h>

#include "client/internal.h"
#include "engine/local.h"
#include "remote/probe.h"

#define HELLO_RESEND_MS 100
#define WAIT_SLICE_NS 50000000ll   /* the longest wait between two looks at the streams */
#define LATE_NS 1000000000ll       /* after the data, the longest wait for echoes */

static int probe_socket(struct client *c)
{
    tt_socket s = TT_NO_SOCKET;
    int rc = tt_socket_open(c->server.family, 1, &s);
    if (rc == 0 && (rc = ttcp_bind_outgoing(s, c->opts, c->server.family, 0)) == 0 &&
        (rc = tt_connect(s, &c->server)) == 0) {
        c->probes.sock = s;
        return 0;
    }
    if (s != TT_NO_SOCKET)
        tt_close(s);
    snprintf(c->out->why, sizeof c->out->why, "latency probes: cannot open a UDP socket to "
             "the server");
    return ttcp_client_problem(c, TTCP_CLIENT_LOCAL, rc);
}

int ttcp_client_probe_open(struct client *c)
{
    unsigned char hello[TTCP_PROTO_MAGIC_LEN + TTCP_PROTO_LENGTH_LEN + TTCP_PROTO_BODY_MAX];
    size_t len = ttcp_probe_hello(c->token, hello, sizeof hello);
    int64_t end = ttcp_client_wait_end(c, CONTROL_NS);
    struct ttcp_latency *l = &c->out->latency;
    l->source = TTCP_LATENCY_UDP_ECHO;
    l->period_ns = c->opts->latency_interval_ns;
    if (probe_socket(c) != 0)
        return -1;
    for (;;) {
        struct ttcp_message m;
        if (tt_interrupted()) {
            snprintf(c->out->why, sizeof c->out->why, "latency probes' hello");
            return ttcp_client_problem(c, TTCP_CLIENT_LOCAL, TT_E_INTR);
        }
        if (tt_now_ns() >= end) {
            snprintf(c->out->why, sizeof c->out->why, "no answer to the latency probes' hello: "
                     "a firewall may drop UDP to port %llu", (unsigned long long)c->opts->port);
            return ttcp_client_problem(c, TTCP_CLIENT_REFUSED, 0);
        }
        tt_send(c->probes.sock, hello, len); /* lost? it goes again */
        if (tt_wait_readable(c->control, HELLO_RESEND_MS) <= 0)
            continue;
        if (ttcp_client_receive_any(c, &m) != 0)
            return -1;
        if (strcmp(ttcp_proto_type(&m), "probe_ready") == 0)
            return 0;
    }
}

/* One probe, its sample kept first (with no answer yet): its number is
 * the sample's index, so an echo finds it. */
static void send_probe(struct client *c, int phase, int64_t now)
{
    struct ttcp_latency *l = &c->out->latency;
    unsigned char p[TTCP_PROBE_LEN];
    uint32_t seq = l->count;
    if (ttcp_latency_push(l, now, -1, phase) != 0)
        return;
    ttcp_probe_build(p, seq, now);
    tt_send(c->probes.sock, p, sizeof p);
}

/* The echoes waiting: each answers its probe once, if its stamp is the
 * one sent (a stray or forged datagram answers nothing). */
static void read_echoes(struct client *c)
{
    struct ttcp_latency *l = &c->out->latency;
    unsigned char buf[TTCP_PROBE_LEN + 1];
    int64_t n, sent;
    uint32_t seq;
    while (tt_wait_readable(c->probes.sock, 0) > 0 &&
           (n = tt_recv(c->probes.sock, buf, sizeof buf)) > 0) {
        int64_t now = tt_now_ns();
        if (ttcp_probe_read(buf, (size_t)n, &seq, &sent) != 0 || seq >= l->count ||
            l->list[seq].at_ns != sent || l->list[seq].rtt_ns >= 0)
            continue;
        l->list[seq].rtt_ns = now - sent;
    }
}

/* Waits up to ms for an echo; before the data (no streams run) for the
 * control connection too, where the server says nothing unless the test
 * is over for it (an error frame, or the connection closed): -1 then, with
 * the problem recorded. */
static int await_echo(struct client *c, int ms, int idle)
{
    tt_socket both[2];
    unsigned char ready[2] = {0, 0};
    struct ttcp_message m;
    both[0] = c->probes.sock;
    both[1] = c->control;
    if (tt_poll_readable(both, idle ? 2 : 1, ms, ready) <= 0)
        return 0;
    if (ready[0])
        read_echoes(c);
    if (!ready[1])
        return 0;
    if (ttcp_client_receive_any(c, &m) == 0) { /* not error nor busy: out of turn */
        snprintf(c->out->why, sizeof c->out->why, "expected nothing during the latency "
                 "probes, got %.32s", ttcp_proto_type(&m));
        ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    }
    return -1;
}

/* Probes every period until `until` (0: while run's streams run); -1 when
 * the server ended the test before the data. */
static int probe_until(struct client *c, int phase, int64_t until, struct ttcp_streams *run)
{
    int64_t period = c->opts->latency_interval_ns;
    for (;;) {
        int64_t now = tt_now_ns(), wait;
        if (tt_interrupted() || (run != NULL ? ttcp_streams_running(run) == 0 : now >= until))
            return 0;
        if (now >= c->probes.next_ns) {
            send_probe(c, phase, now);
            c->probes.next_ns += period;
            if (c->probes.next_ns <= now) /* behind (a slow thread): no burst to catch up */
                c->probes.next_ns = now + period;
        }
        wait = c->probes.next_ns - now;
        if (wait > WAIT_SLICE_NS)
            wait = WAIT_SLICE_NS;
        if (until != 0 && wait > until - now)
            wait = until - now;
        if (await_echo(c, (int)(wait / 1000000) + 1, run == NULL) != 0)
            return -1;
    }
}

int ttcp_client_probe_idle(struct client *c)
{
    c->probes.next_ns = tt_now_ns();
    return probe_until(c, TTCP_LATENCY_IDLE, c->probes.next_ns + c->opts->latency_idle_ns, NULL);
}

void ttcp_client_probe_loaded(void *arg)
{
    struct client *c = arg;
    c->probes.origin_ns = tt_now_ns();
    c->probes.next_ns = c->probes.origin_ns;
    probe_until(c, TTCP_LATENCY_LOADED, 0, &c->run);
}

/* Whether a probe of the last LATE_NS is still unanswered. */
static int awaiting(const struct ttcp_latency *l, int64_t now)
{
    uint32_t i = l->count;
    while (i > 0 && now - l->list[i - 1].at_ns < LATE_NS)
        if (l->list[--i].rtt_ns < 0)
            return 1;
    return 0;
}

void ttcp_client_probe_close(struct client *c)
{
    struct ttcp_latency *l = &c->out->latency;
    int64_t end = tt_now_ns() + LATE_NS;
    uint32_t i;
    if (c->probes.sock == TT_NO_SOCKET)
        return;
    while (awaiting(l, tt_now_ns()) && tt_now_ns() < end && !tt_interrupted())
        if (tt_wait_readable(c->probes.sock, 20) > 0)
            read_echoes(c);
    tt_close(c->probes.sock);
    c->probes.sock = TT_NO_SOCKET;
    if (c->probes.origin_ns == 0) /* the streams never ran: all of it was idle */
        c->probes.origin_ns = tt_now_ns();
    for (i = 0; i < l->count; i++) /* times from the data's start */
        l->list[i].at_ns -= c->probes.origin_ns;
}
