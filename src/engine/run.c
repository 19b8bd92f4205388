/* Orchestrates one test: the session set up, the phases in turn, the
 * session torn down. */
#include "engine/run.h"

#include <string.h>

#include "engine/phases.h"
#include "engine/pmtu.h"
#include "measure/pattern.h"

#define FAILED_ACCEPT_PAUSE_NS 200000000ll

static int data_phase(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    if (o->udp)
        return o->transmit ? ttcp_udp_transmit(s) : ttcp_udp_receive(s);
    return o->transmit ? ttcp_tcp_transmit(s) : ttcp_tcp_receive(s);
}

/* What the transmitter sends in sink mode: the classic pattern and zeros
 * once; the random pattern is made buffer by buffer from its seed. */
static void prepare_payload(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    if (o->pattern == TTCP_PAYLOAD_ZEROS)
        memset(s->buf.data, 0, s->buf.len);
    else
        ttcp_pattern_fill(s->buf.data, s->buf.len);
    if (o->pattern == TTCP_PAYLOAD_RANDOM) {
        /* any seed will do unless the user wants to repeat a run */
        s->res->seed = o->seed_given ? o->seed : (uint64_t)tt_now_ns() * 0x9E3779B97F4A7C15ull;
        s->res->seed_used = 1;
        ttcp_prng_seed(&s->prng, s->res->seed);
    }
}

/* UDP in sink mode moves datagrams in batches: a slot per datagram, each
 * starting as a copy of the payload (-c goes one at a time). */
static void make_batch(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    int i;
    if (!o->udp || !o->sinkmode || o->continuous)
        return;
    s->batch_stride = (s->buf.len + 63) / 64 * 64;
    s->batch_slots = TT_BATCH_MAX;
    s->batch_len = s->batch_stride * (size_t)s->batch_slots;
    s->batch = tt_page_alloc(s->batch_len);
    if (s->batch == NULL)
        return; /* one at a time, then */
    for (i = 0; i < s->batch_slots; i++)
        memcpy(s->batch + (size_t)i * s->batch_stride, s->buf.data, s->buf.len);
}

/* A fresh result for the next test of a -c receiver. */
static void next_result(struct ttcp_session *s)
{
    struct ttcp_result *r = s->res;
    uintptr_t address = r->buffer_address;
    int number = r->test_number;
    ttcp_result_release(r);
    memset(r, 0, sizeof *r);
    r->buffer_address = address;
    r->test_number = number;
}

/* One test, or with -c on a receiver, one test after another until Ctrl+C;
 * Ctrl+C between tests ends a continuous receiver cleanly. */
static int run_tests(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    int again = o->continuous && !o->transmit;
    int rc;

    for (;;) {
        s->res->test_number++;
        rc = (!o->transmit && !o->udp) ? ttcp_accept_one(s) : 0;
        if (rc == 0)
            rc = data_phase(s);
        if (s->res->started)
            ttcp_emit(s, TTCP_EV_FIGURES);
        if (again && rc == TT_E_INTR && !s->res->started)
            return 0;
        if (!again || ttcp_stopping(s))
            return rc;
        if (rc != 0)
            ttcp_emit(s, TTCP_EV_FAILED);
        if (rc != 0 && !s->res->started)
            tt_sleep_ns(FAILED_ACCEPT_PAUSE_NS); /* no tight loop when accept keeps failing */
        next_result(s);
    }
}

/* A fresh session and its buffer, the payload in place. */
static int begin(struct ttcp_session *s, const struct ttcp_options *opts,
                 const struct ttcp_observer *obs, struct ttcp_result *res)
{
    size_t len = (size_t)opts->buflen, back = (size_t)ttcp_options_back_buflen(opts);
    int rc;

    memset(res, 0, sizeof *res);
    memset(s, 0, sizeof *s);
    s->opts = opts;
    s->obs = obs;
    s->res = res;
    s->listener = TT_NO_SOCKET;
    s->sock = TT_NO_SOCKET;
    if (opts->pin_cpu > 0 && tt_thread_pin(opts->pin_cpu - 1) != 0)
        ttcp_warn(s, TTCP_WARN_CPU_PIN);

    /* One buffer serves both directions of a half close. */
    rc = ttcp_buffer_alloc(&s->buf, back > len ? back : len, (size_t)opts->bufalign,
                           (size_t)opts->bufoffset);
    if (rc != 0)
        return ttcp_fail(s, rc, TTCP_OP_MALLOC);
    s->buf.len = len;
    res->buffer_address = (uintptr_t)s->buf.data;
    if (opts->transmit && opts->sinkmode)
        prepare_payload(s);
    return 0;
}

static void end(struct ttcp_session *s)
{
    if (s->batch != NULL)
        tt_page_free(s->batch, s->batch_len);
    if (s->sock != TT_NO_SOCKET)
        tt_close(s->sock);
    if (s->listener != TT_NO_SOCKET)
        tt_close(s->listener);
    ttcp_buffer_free(&s->buf);
}

int ttcp_run_on(const struct ttcp_options *opts, const struct ttcp_observer *obs,
                struct ttcp_result *res, tt_socket sock, const struct tt_addr *peer,
                unsigned flags)
{
    return ttcp_run_on_stamped(opts, obs, res, sock, peer, flags, NULL);
}

int ttcp_run_on_stamped(const struct ttcp_options *opts, const struct ttcp_observer *obs,
                        struct ttcp_result *res, tt_socket sock, const struct tt_addr *peer,
                        unsigned flags, const struct ttcp_udp_stamp *stamp)
{
    struct ttcp_session s;
    int rc = begin(&s, opts, obs, res);

    s.stamp = stamp;
    s.sock = sock;
    s.handed = 1;
    s.run_flags = flags;
    if ((flags & TTCP_RUN_SEND_TO_PEER) && peer != NULL)
        s.dest = *peer;
    res->test_number = 1;
    if (rc == 0) {
        ttcp_emit(&s, TTCP_EV_READY);
        rc = ttcp_adopt_connection(&s, peer, (flags & TTCP_RUN_ACCEPTED) != 0);
    }
    if (rc == 0 && opts->udp && opts->continuous && !opts->transmit) {
        /* a -c receiver on a socket given (systemd's): test after test, as
         * ttcp_run's, so the last sender's trailing markers start none */
        make_batch(&s);
        res->test_number = 0;
        rc = run_tests(&s);
    } else {
        if (rc == 0) {
            make_batch(&s);
            rc = data_phase(&s);
        }
        if (res->started)
            ttcp_emit(&s, TTCP_EV_FIGURES);
    }
    if (flags & TTCP_RUN_KEEP_SOCKET)
        s.sock = TT_NO_SOCKET;
    end(&s);
    return rc;
}

/* --pmtu: the path MTU first, once for the test (-P's streams: the
 * runner above probes for them all). Ctrl+C during it: no test. */
static int probe_path(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    if (!o->pmtu || !o->transmit || o->stream_number != 0)
        return 0;
    if (ttcp_pmtu_find(o, &s->res->pmtu, &s->res->failure) != 0)
        return s->res->failure.code;
    ttcp_emit(s, TTCP_EV_PMTU);
    return s->res->pmtu.interrupted ? ttcp_fail(s, TT_E_INTR, TTCP_OP_PMTU) : 0;
}

int ttcp_run(const struct ttcp_options *opts, const struct ttcp_observer *obs,
             struct ttcp_result *res)
{
    struct ttcp_session s;
    int rc = begin(&s, opts, obs, res);

    if (rc == 0)
        rc = probe_path(&s);
    if (rc != 0) {
        end(&s);
        return rc;
    }

    /* 1.12's order: resolve and allocate, print the header, then connect. */
    rc = opts->transmit ? ttcp_resolve_peer(&s) : 0;
    if (rc == 0) {
        ttcp_emit(&s, TTCP_EV_READY);
        rc = opts->transmit ? ttcp_open_transmitter(&s) : ttcp_open_receiver(&s);
    }
    if (rc == 0)
        make_batch(&s);
    if (rc == 0)
        rc = run_tests(&s);
    end(&s);
    return rc;
}
