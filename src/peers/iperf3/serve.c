/* ttcp -S serves an iperf3 client (iperf3.h): the conversation of
 * iperf3's server (wire.h's diagram) on the slot's thread, the server's
 * limits applied to the client's parameters, the streams on the engine
 * through the stream runner (serve_streams.c). Every read from the client
 * is bounded in size and time; whatever it does, the serve returns and
 * the slot is free again (iperf3's own server stays "busy": #1986, #1997). */
#include <stdlib.h>
#include <string.h>

#include "peers/iperf3/serve.h"
#include "remote/channel.h"
#include "remote/wire.h" /* TTCP_SERVER_TEST_MEMORY */

#define NS 1000000000ll

void ttcp_iperf3_refuse(tt_socket s, int busy)
{
    unsigned char cookie[TTCP_IPERF3_COOKIE_LEN];
    unsigned char b = ttcp_iperf3_state_byte(TTCP_IPERF3_ACCESS_DENIED);
    (void)busy; /* iperf3 has the one word for both: "the server is busy" */
    /* the cookie the gate looked at is queued: taken, so our close is a FIN, not a reset */
    if (tt_wait_readable(s, 0) > 0)
        (void)tt_recv(s, cookie, sizeof cookie);
    (void)tt_send(s, &b, 1);
}

static int read_exact(struct i3s *v, void *buf, size_t len, int64_t ns)
{
    return ttcp_channel_read_exact(v->s->control, buf, len, tt_now_ns() + ns) == 0 ? 0 : -1;
}

/* A length and its JSON, at most max bytes, into buf (max + 1 bytes):
 * 0; 1 when the length is out of bounds (nothing more read); -1 when the
 * client went quiet or away. */
static int read_json(struct i3s *v, char *buf, uint32_t max, uint32_t *len)
{
    unsigned char head[4];
    if (read_exact(v, head, sizeof head, I3S_CONTROL_NS) != 0)
        return -1;
    if (ttcp_iperf3_length_get(head, max, len) != 0)
        return 1;
    if (read_exact(v, buf, *len, I3S_CONTROL_NS) != 0)
        return -1;
    buf[*len] = '\0';
    return 0;
}

/* The cookie, PARAM_EXCHANGE, the parameters: 0 when they can be read. */
static int open_test(struct i3s *v)
{
    char json[TTCP_IPERF3_PARAMS_MAX + 1], why[160];
    uint32_t len = 0;
    int rc;
    if (read_exact(v, v->cookie, sizeof v->cookie, I3S_COOKIE_NS) != 0 ||
        !ttcp_iperf3_cookie_valid(v->cookie))
        return -1; /* not an iperf3 client: nothing to tell it */
    if (ttcp_iperf3_serve_state(v, TTCP_IPERF3_PARAM_EXCHANGE) != 0)
        return -1;
    rc = read_json(v, json, TTCP_IPERF3_PARAMS_MAX, &len);
    if (rc < 0) /* a cookie, then silence: its slot is free again */
        v->s->obs->notice(v->s->obs->ctx, TTCP_NOTICE_HELLO_TIMEOUT, &v->s->client);
    if (rc != 0)
        return rc > 0 ? ttcp_iperf3_serve_refuse(v, I3S_IE_RECVPARAMS) : -1;
    rc = ttcp_iperf3_params_parse(json, len, &v->params, why, sizeof why);
    if (rc == TTCP_IPERF3_AUTH) { /* iperf3's RSA authentication is not ours */
        (void)ttcp_iperf3_serve_state(v, TTCP_IPERF3_ACCESS_DENIED);
        v->s->obs->notice(v->s->obs->ctx, TTCP_NOTICE_AUTH_FAILED, &v->s->client);
        return -1;
    }
    return rc == TTCP_IPERF3_OK ? 0 : ttcp_iperf3_serve_refuse(v, I3S_IE_RECVPARAMS);
}

/* The server's limits, as ttcp's own clients meet them: --max-streams
 * and the test's buffers refused, --max-rate refused for what the client
 * sends faster (or unpaced: TCP without -b), --max-time capped in the
 * streams' options (serve_streams.c), as is --max-rate for what we send. */
static int within_limits(struct i3s *v)
{
    const struct ttcp_options *sv = v->s->server;
    const struct ttcp_iperf3_params *p = &v->params;
    uint64_t most = sv->max_streams ? sv->max_streams : TTCP_STREAMS_MAX;
    uint64_t len = p->len ? p->len : TTCP_IPERF3_MAX_BLOCK;
    int ways = (v->ways & 1u) + ((v->ways >> 1) & 1u);
    if (p->parallel > most ||
        (uint64_t)p->parallel * (uint64_t)ways * len > TTCP_SERVER_TEST_MEMORY)
        return ttcp_iperf3_serve_refuse(v, I3S_IE_NUMSTREAMS);
    if ((v->ways & 1u) && sv->max_rate_bps &&
        (p->bandwidth == 0 || p->bandwidth > sv->max_rate_bps / p->parallel))
        return ttcp_iperf3_serve_refuse(v, I3S_IE_TOTALRATE);
    return 0;
}

/* EXCHANGE_RESULTS: the client's in (read and checked, not needed
 * further), ours out; DISPLAY_RESULTS; the client's IPERF_DONE. */
static void exchange(struct i3s *v)
{
    char *buf = malloc(TTCP_IPERF3_RESULTS_MAX + 1), why[160];
    struct ttcp_iperf3_results *theirs = calloc(1, sizeof *theirs);
    uint32_t got = 0;
    size_t len = 0;
    unsigned char done;
    if (buf != NULL && theirs != NULL &&
        ttcp_iperf3_serve_state(v, TTCP_IPERF3_EXCHANGE_RESULTS) == 0 &&
        read_json(v, buf, TTCP_IPERF3_RESULTS_MAX, &got) == 0 &&
        ttcp_iperf3_results_parse(buf, got, theirs, why, sizeof why) == TTCP_IPERF3_OK &&
        ttcp_iperf3_serve_results(v, buf, TTCP_IPERF3_RESULTS_MAX + 1, &len) == 0) {
        unsigned char head[4];
        ttcp_iperf3_length_put((uint32_t)len, head);
        if (ttcp_iperf3_serve_send(v, head, sizeof head) == 0 &&
            ttcp_iperf3_serve_send(v, buf, len) == 0 &&
            ttcp_iperf3_serve_state(v, TTCP_IPERF3_DISPLAY_RESULTS) == 0)
            (void)read_exact(v, &done, 1, I3S_CONTROL_NS); /* IPERF_DONE, or its close */
    }
    if (theirs != NULL)
        ttcp_iperf3_results_release(theirs);
    free(theirs);
    free(buf);
}

/* The directions the parameters ask for, in the client's ways. */
static void plan(struct i3s *v)
{
    const struct ttcp_iperf3_params *p = &v->params;
    v->n = p->parallel ? (int)p->parallel : 1;
    v->ways = p->bidirectional ? 3u : p->reverse ? 2u : 1u;
}

/* From the streams' connections to the results, once the test is agreed. */
static void run_test(struct i3s *v)
{
    if (ttcp_iperf3_serve_plan(v) != 0) {
        ttcp_iperf3_serve_refuse(v, I3S_IE_INITTEST);
        return;
    }
    v->s->begun(v->s);
    if (ttcp_iperf3_serve_connect(v) != 0)
        return;
    if (ttcp_iperf3_serve_state(v, TTCP_IPERF3_TEST_START) != 0 ||
        ttcp_iperf3_serve_state(v, TTCP_IPERF3_TEST_RUNNING) != 0)
        return;
    ttcp_iperf3_serve_run(v);
    if (v->ended && !v->gone)
        exchange(v);
    else if (!v->ended && !tt_interrupted()) /* (stopped: the reader told SERVER_TERMINATE) */
        v->s->obs->notice(v->s->obs->ctx, TTCP_NOTICE_CONTROL_LOST, &v->s->client);
}

void ttcp_iperf3_serve(struct ttcp_peer_serving *s)
{
    struct i3s *v = calloc(1, sizeof *v);
    int way, i;
    if (v == NULL)
        return;
    v->s = s;
    for (way = 0; way < 2; way++)
        for (i = 0; i < TTCP_IPERF3_MAX_STREAMS; i++)
            v->socks[way][i] = TT_NO_SOCKET;
    tt_setopt(s->control, TT_OPT_SNDTIMEO_MS, (int)(I3S_CONTROL_NS / 1000000));
    (void)tt_setopt(s->control, TT_OPT_NODELAY, 1);
    tt_addr_text(&s->client, v->peer, sizeof v->peer);
    if (tt_mutex_new(&v->lock) == 0) {
        if (open_test(v) == 0) {
            plan(v);
            if (within_limits(v) == 0)
                run_test(v);
        }
        ttcp_iperf3_serve_free(v);
        tt_mutex_free(v->lock);
    }
    free(v);
}
