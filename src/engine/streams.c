/* The stream runner: a thread per stream, joined; a group lock in front of
 * the caller's observer; the intervals added up as the streams close them;
 * each way's totals. One set of rules for every caller (engine/streams.h). */
#include "engine/streams.h"

#include <stdlib.h>
#include <string.h>

/* One stream's place in the group, and the observer its run reports to. */
struct member {
    struct ttcp_streams *g;
    int way, i;
    ttcp_stream_body body;
    void *body_ctx;
    struct ttcp_observer obs;
};

void ttcp_stream_options(const struct ttcp_options *whole, int i, int n,
                         struct ttcp_options *out)
{
    *out = *whole;
    if (n < 2)
        return;
    out->streams = 1;
    ttcp_options_stream(out, i + 1);
    out->thread_cpu = 1; /* a stream's CPU share is its thread's */
    if (whole->pace_bps) {
        out->pace_bps = whole->pace_bps / (uint64_t)n;
        if (out->pace_bps == 0)
            out->pace_bps = 1;
    }
    if (whole->fq_rate_bps) /* the total too, as -R's */
        out->fq_rate_bps = whole->fq_rate_bps / (uint64_t)n > 8000
                               ? whole->fq_rate_bps / (uint64_t)n : 8000;
    if (whole->cpu_count)
        out->pin_cpu = whole->cpus[i % whole->cpu_count] + 1;
}

int ttcp_streams_init(struct ttcp_streams *g, int n, unsigned ways,
                      const struct ttcp_streams_observer *obs)
{
    int way, end;
    memset(g, 0, sizeof *g);
    g->n = n;
    g->ways = ways & 3u;
    g->obs = obs;
    g->running = n * ((g->ways & 1u) != 0) + n * ((g->ways & 2u) != 0);
    g->sums_kept = obs->total != NULL && n > 1;
    if (tt_mutex_new(&g->lock) != 0)
        return TT_E_NOMEM;
    for (way = 0; g->sums_kept && way < 2; way++)
        for (end = 0; end < 2; end++)
            if ((g->ways & (1u << way)) && ttcp_interval_sum_init(&g->sums[way][end], n) != 0) {
                ttcp_streams_free(g);
                return TT_E_NOMEM;
            }
    return 0;
}

void ttcp_streams_free(struct ttcp_streams *g)
{
    int k;
    for (k = 0; k < 4; k++)
        ttcp_interval_sum_free(&g->sums[k / 2][k % 2]);
    tt_mutex_free(g->lock);
    g->lock = NULL;
}

/* The totals every stream of way has got past at end; under the lock. */
static void emit_totals(struct ttcp_streams *g, int way, enum ttcp_stream_end end)
{
    const struct ttcp_interval *in;
    while ((in = ttcp_interval_sum_next(&g->sums[way][end])) != NULL)
        g->obs->total(g->obs->ctx, way, end, in);
}

void ttcp_streams_event(struct ttcp_streams *g, int way, int i, enum ttcp_stream_end end,
                        const struct ttcp_event *ev, const struct ttcp_result *res)
{
    tt_mutex_lock(g->lock);
    g->obs->event(g->obs->ctx, way, i, end, ev, res);
    if (ev->kind == TTCP_EV_INTERVAL && g->sums_kept) {
        ttcp_interval_sum_add(&g->sums[way][end], i, ev->interval);
        emit_totals(g, way, end);
    }
    tt_mutex_unlock(g->lock);
}

void ttcp_streams_closed(struct ttcp_streams *g, int way, int i, enum ttcp_stream_end end)
{
    if (!g->sums_kept)
        return;
    tt_mutex_lock(g->lock);
    ttcp_interval_sum_end(&g->sums[way][end], i);
    emit_totals(g, way, end);
    tt_mutex_unlock(g->lock);
}

int ttcp_streams_running(struct ttcp_streams *g)
{
    int running;
    tt_mutex_lock(g->lock);
    running = g->running;
    tt_mutex_unlock(g->lock);
    return running;
}

static void member_event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct member *m = ctx;
    ttcp_streams_event(m->g, m->way, m->i, TTCP_END_LOCAL, ev, res);
}

static int member_stop(void *ctx)
{
    const struct ttcp_streams_observer *obs = ((struct member *)ctx)->g->obs;
    return obs->stop(obs->ctx);
}

static int member_claim(void *ctx, const struct tt_datagram *d)
{
    const struct ttcp_streams_observer *obs = ((struct member *)ctx)->g->obs;
    return obs->claim(obs->ctx, d);
}

static void member_main(void *arg)
{
    struct member *m = arg;
    m->body(m->body_ctx, m->way, m->i, &m->obs);
    ttcp_streams_closed(m->g, m->way, m->i, TTCP_END_LOCAL);
    tt_mutex_lock(m->g->lock);
    m->g->running--;
    tt_mutex_unlock(m->g->lock);
}

/* Member k: stream k / 2 of way k % 2, its number on the wire. */
static void enlist(struct ttcp_streams *g, struct member *m, int k, ttcp_stream_body body,
                   void *ctx)
{
    memset(m, 0, sizeof *m);
    m->g = g;
    m->way = k % 2;
    m->i = k / 2;
    m->body = body;
    m->body_ctx = ctx;
    m->obs.event = member_event;
    m->obs.ctx = m;
    m->obs.stop = g->obs->stop != NULL ? member_stop : NULL;
    m->obs.claim = g->obs->claim != NULL ? member_claim : NULL;
}

static int has(const struct ttcp_streams *g, int k)
{
    return (g->ways & (1u << (k % 2))) != 0;
}

/* No memory for the threads' records: each stream in turn on this thread. */
static void run_in_turn(struct ttcp_streams *g, ttcp_stream_body body, void *body_ctx)
{
    struct member one;
    int k;
    for (k = 0; k < 2 * g->n; k++)
        if (has(g, k)) {
            enlist(g, &one, k, body, body_ctx);
            member_main(&one);
        }
}

void ttcp_streams_run(struct ttcp_streams *g, ttcp_stream_body body, void *body_ctx,
                      void (*beside)(void *ctx), void *beside_ctx)
{
    struct ttcp_beside task;
    task.run = beside;
    task.ctx = beside_ctx;
    ttcp_streams_run_beside(g, body, body_ctx, &task, beside != NULL);
}

void ttcp_streams_run_beside(struct ttcp_streams *g, ttcp_stream_body body, void *body_ctx,
                             const struct ttcp_beside *tasks, int count)
{
    int ids = 2 * g->n, k, t, after[TTCP_BESIDE_MAX] = {0};
    struct member *m = calloc((size_t)ids, sizeof *m);
    struct tt_thread **threads = calloc((size_t)ids + TTCP_BESIDE_MAX, sizeof *threads);

    if (count > TTCP_BESIDE_MAX)
        count = TTCP_BESIDE_MAX;
    for (t = 0; t < count; t++)
        after[t] = 1;
    if (m == NULL || threads == NULL) {
        run_in_turn(g, body, body_ctx);
    } else {
        for (t = 0; t < count; t++)
            if (tt_thread_start(&threads[ids + t], tasks[t].run, tasks[t].ctx) == 0)
                after[t] = 0;
        for (k = 0; k < ids; k++) {
            if (!has(g, k))
                continue;
            enlist(g, &m[k], k, body, body_ctx);
            if (tt_thread_start(&threads[k], member_main, &m[k]) != 0) {
                threads[k] = NULL;
                member_main(&m[k]);
            }
        }
        for (k = 0; k < ids + TTCP_BESIDE_MAX; k++)
            if (threads[k] != NULL)
                tt_thread_join(threads[k]);
    }
    for (t = 0; t < count; t++) /* no thread for it: after the streams */
        if (after[t])
            tasks[t].run(tasks[t].ctx);
    free(threads);
    free(m);
}

void ttcp_streams_total(struct ttcp_streams *g, int way, enum ttcp_stream_end end,
                        struct ttcp_result *parts, struct ttcp_result *total)
{
    int n = g->n;
    if (n == 1) {
        *total = parts[0];
        memset(&parts[0].intervals, 0, sizeof parts[0].intervals);
        memset(&parts[0].latency, 0, sizeof parts[0].latency);
        return;
    }
    ttcp_result_sum(total, parts, n);
    ttcp_result_sum_cpu(total, parts, n);
    if (g->sums_kept) {
        total->intervals = g->sums[way][end].total; /* the total's own, for JSON */
        memset(&g->sums[way][end].total, 0, sizeof g->sums[way][end].total);
    }
}
