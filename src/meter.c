/* The timed phase and the clock-driven parts of the loops: interval
 * reports (-i), a duration (--time) and pacing (-R). The clock is read in
 * the loops only when one of them asks for it. */
#include "session.h"


static void emit_intervals(struct ttcp_session *s, size_t closed)
{
    struct ttcp_intervals *iv = &s->res->intervals;
    size_t i;
    for (i = iv->count - closed; i < iv->count; i++) {
        struct ttcp_interval *in = &iv->list[i];
        if (!s->opts->udp && s->sock != TT_NO_SOCKET)
            in->tcp_valid = tt_tcp_info(s->sock, &in->tcp) == 0;
        iv->current = i;
        ttcp_emit(s, TTCP_EV_INTERVAL, NULL);
    }
}

void ttcp_tick(struct ttcp_session *s)
{
    s->now_ns = tt_now_ns();
    if (s->opts->interval_ns)
        emit_intervals(s, ttcp_intervals_tick(&s->res->intervals, s->now_ns, s->res->bytes));
}

void ttcp_pace(struct ttcp_session *s, uint64_t len)
{
    int64_t wait = ttcp_pacer_wait(&s->pacer, len, tt_now_ns());
    if (wait > ttcp_pacer_slack(&s->pacer))
        tt_sleep_ns(wait);
}

int ttcp_pace_more(struct ttcp_session *s, uint64_t len)
{
    if (ttcp_pacer_ahead(&s->pacer, tt_now_ns()) > ttcp_pacer_slack(&s->pacer))
        return 0;
    ttcp_pacer_wait(&s->pacer, len, tt_now_ns());
    return 1;
}

void ttcp_pace_finish(struct ttcp_session *s)
{
    int64_t wait;
    if (!s->opts->pace_bps || tt_interrupted())
        return;
    wait = ttcp_pacer_wait(&s->pacer, 0, tt_now_ns());
    if (wait > 0)
        tt_sleep_ns(wait);
}

int ttcp_keep_sending(const struct ttcp_session *s, uint64_t sent)
{
    const struct ttcp_options *o = s->opts;
    if (tt_interrupted())
        return 0;
    if (o->continuous)
        return 1;
    return o->duration_ns ? s->now_ns < s->end_ns : sent < o->nbuf;
}

void ttcp_timer_start(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    s->res->started = 1;
    tt_cpu_times(&s->res->cpu_start);
    s->start_ns = tt_now_ns();
    s->now_ns = s->start_ns;
    s->clocked = o->interval_ns || o->duration_ns || o->pace_bps;
    if (o->interval_ns)
        ttcp_intervals_start(&s->res->intervals, o->interval_ns, s->start_ns);
    if (o->duration_ns)
        s->end_ns = s->start_ns + o->duration_ns;
    if (o->pace_bps)
        ttcp_pacer_start(&s->pacer, o->pace_bps, o->pace_burst, o->buflen, s->start_ns);
}

void ttcp_timer_stop_at(struct ttcp_session *s, int64_t end_ns)
{
    s->res->real_ns = end_ns - s->start_ns;
    tt_cpu_times(&s->res->cpu_end);
    if (s->opts->interval_ns)
        emit_intervals(s, ttcp_intervals_finish(&s->res->intervals, end_ns, s->res->bytes));
}

void ttcp_timer_stop(struct ttcp_session *s)
{
    ttcp_timer_stop_at(s, tt_now_ns());
}
