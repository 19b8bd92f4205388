/* Orchestrates one test and keeps the session helpers in one place. */
#include "run.h"

#include <string.h>

#include "pattern.h"
#include "session.h"

void ttcp_emit(const struct ttcp_session *s, enum ttcp_event ev, const char *detail)
{
    if (s->obs != NULL && s->obs->event != NULL)
        s->obs->event(s->obs->ctx, ev, detail);
}

int ttcp_fail(struct ttcp_session *s, int code, const char *op)
{
    s->res->failure.native = tt_last_error();
    s->res->failure.code = code;
    s->res->failure.op = op;
    return code;
}

void ttcp_timer_start(struct ttcp_session *s)
{
    s->res->started = 1;
    tt_cpu_times(&s->res->cpu_start);
    s->start_ns = tt_now_ns();
}

void ttcp_timer_stop_at(struct ttcp_session *s, int64_t end_ns)
{
    s->res->real_ns = end_ns - s->start_ns;
    tt_cpu_times(&s->res->cpu_end);
}

void ttcp_timer_stop(struct ttcp_session *s)
{
    ttcp_timer_stop_at(s, tt_now_ns());
}

static int data_phase(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    if (o->udp)
        return o->transmit ? ttcp_udp_transmit(s) : ttcp_udp_receive(s);
    return o->transmit ? ttcp_tcp_transmit(s) : ttcp_tcp_receive(s);
}

int ttcp_run(const struct ttcp_options *opts, const struct ttcp_observer *obs,
             struct ttcp_result *res)
{
    struct ttcp_session s;
    int rc;

    memset(res, 0, sizeof *res);
    memset(&s, 0, sizeof s);
    s.opts = opts;
    s.obs = obs;
    s.res = res;
    s.listener = TT_NO_SOCKET;
    s.sock = TT_NO_SOCKET;

    rc = ttcp_buffer_alloc(&s.buf, (size_t)opts->buflen, (size_t)opts->bufalign,
                           (size_t)opts->bufoffset);
    if (rc != 0)
        return ttcp_fail(&s, rc, "malloc");
    res->buffer_address = (uintptr_t)s.buf.data;
    if (opts->transmit && opts->sinkmode)
        ttcp_pattern_fill(s.buf.data, s.buf.len);

    /* 1.12's order: resolve and allocate, print the header, then connect. */
    rc = opts->transmit ? ttcp_resolve_peer(&s) : 0;
    if (rc == 0) {
        ttcp_emit(&s, TTCP_EV_READY, NULL);
        rc = opts->transmit ? ttcp_open_transmitter(&s) : ttcp_open_receiver(&s);
    }
    if (rc == 0)
        rc = data_phase(&s);

    if (s.sock != TT_NO_SOCKET)
        tt_close(s.sock);
    if (s.listener != TT_NO_SOCKET)
        tt_close(s.listener);
    ttcp_buffer_free(&s.buf);
    return rc;
}
