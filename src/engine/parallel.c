/* -P in the classic pair: a thread per stream, each running a whole test
 * (ttcp_run) on its own port; a group observer in front of the caller's
 * serialises the streams' events and adds up their intervals. */
#include "engine/parallel.h"

#include <stdlib.h>
#include <string.h>

#include "engine/run.h"
#include "measure/sum.h"

struct group {
    const struct ttcp_options *whole;
    const struct ttcp_observer *obs; /* the caller's */
    struct ttcp_parallel *out;
    struct tt_mutex *lock;           /* one event at a time reaches obs */
    struct ttcp_interval_sum sums;
};

struct stream {
    struct group *g;
    int index;
    struct ttcp_observer obs;
};

void ttcp_parallel_stream_options(const struct ttcp_options *whole, int i,
                                  struct ttcp_options *out)
{
    *out = *whole;
    out->streams = 1;
    ttcp_options_stream(out, i + 1);
    out->thread_cpu = 1; /* a stream's CPU share is its thread's */
    if (whole->pace_bps) {
        out->pace_bps = whole->pace_bps / whole->streams;
        if (out->pace_bps == 0)
            out->pace_bps = 1;
    }
    if (whole->cpu_count)
        out->pin_cpu = whole->cpus[i % whole->cpu_count] + 1;
}

/* The total intervals every stream has got past, in order; under the lock. */
static void emit_totals(struct group *g)
{
    const struct ttcp_interval *in;
    while ((in = ttcp_interval_sum_next(&g->sums)) != NULL) {
        struct ttcp_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = TTCP_EV_INTERVAL;
        ev.warning = TTCP_WARN_COUNT;
        ev.interval = in;
        ev.opts = g->whole;
        g->obs->event(g->obs->ctx, &ev, &g->out->total);
    }
}

static void stream_event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct stream *st = ctx;
    struct group *g = st->g;
    tt_mutex_lock(g->lock);
    g->obs->event(g->obs->ctx, ev, res);
    if (ev->kind == TTCP_EV_INTERVAL) {
        ttcp_interval_sum_add(&g->sums, st->index, ev->interval);
        emit_totals(g);
    }
    tt_mutex_unlock(g->lock);
}

static int stream_stop(void *ctx)
{
    struct stream *st = ctx;
    const struct ttcp_observer *obs = st->g->obs;
    return obs->stop != NULL && obs->stop(obs->ctx);
}

static void stream_main(void *arg)
{
    struct stream *st = arg;
    struct group *g = st->g;
    int i = st->index;
    g->out->rc[i] = ttcp_run(&g->out->opts[i], &st->obs, &g->out->results[i]);
    tt_mutex_lock(g->lock);
    ttcp_interval_sum_end(&g->sums, i);
    emit_totals(g);
    tt_mutex_unlock(g->lock);
}

static int allocate(struct ttcp_parallel *p, int n)
{
    memset(p, 0, sizeof *p);
    p->opts = calloc((size_t)n, sizeof *p->opts);
    p->results = calloc((size_t)n, sizeof *p->results);
    p->rc = calloc((size_t)n, sizeof *p->rc);
    if (p->opts == NULL || p->results == NULL || p->rc == NULL) {
        ttcp_parallel_release(p);
        return TT_E_NOMEM;
    }
    p->n = n;
    return 0;
}

/* Every stream on a thread (one that cannot get a thread runs on ours,
 * after the others started); waits for them all. */
static void run_all(struct group *g, struct stream *st)
{
    int n = g->out->n, i;
    struct tt_thread **threads = calloc((size_t)n, sizeof *threads);
    for (i = 0; i < n; i++)
        if (threads == NULL || tt_thread_start(&threads[i], stream_main, &st[i]) != 0)
            stream_main(&st[i]);
    for (i = 0; i < n; i++)
        if (threads != NULL && threads[i] != NULL)
            tt_thread_join(threads[i]);
    free(threads);
}

static int outcome(const struct ttcp_parallel *p)
{
    int i;
    for (i = 0; i < p->n; i++)
        if (p->rc[i] != 0)
            return p->rc[i];
    return 0;
}

int ttcp_run_parallel(const struct ttcp_options *opts, const struct ttcp_observer *obs,
                      struct ttcp_parallel *out)
{
    struct group g;
    struct stream *st;
    struct tt_cpu cpu_start, cpu_end;
    int n = (int)opts->streams, i, rc = allocate(out, n);

    if (rc == 0 && (st = calloc((size_t)n, sizeof *st)) == NULL)
        rc = TT_E_NOMEM;
    if (rc != 0) {
        out->total.failure.code = TT_E_NOMEM;
        out->total.failure.op = TTCP_OP_MALLOC;
        return TT_E_NOMEM;
    }
    memset(&g, 0, sizeof g);
    g.whole = opts;
    g.obs = obs;
    g.out = out;
    if (tt_mutex_new(&g.lock) != 0 || ttcp_interval_sum_init(&g.sums, n) != 0) {
        tt_mutex_free(g.lock);
        free(st);
        out->total.failure.code = TT_E_NOMEM;
        out->total.failure.op = TTCP_OP_MALLOC;
        return TT_E_NOMEM;
    }
    for (i = 0; i < n; i++) {
        ttcp_parallel_stream_options(opts, i, &out->opts[i]);
        out->opts[i].port = opts->port + (uint64_t)i;
        st[i].g = &g;
        st[i].index = i;
        st[i].obs.event = stream_event;
        st[i].obs.ctx = &st[i];
        st[i].obs.stop = obs->stop != NULL ? stream_stop : NULL;
        st[i].obs.claim = NULL;
    }

    tt_cpu_times(&cpu_start);
    run_all(&g, st);
    tt_cpu_times(&cpu_end);

    ttcp_result_sum(&out->total, out->results, n);
    out->total.cpu_start = cpu_start;
    out->total.cpu_end = cpu_end;
    out->total.intervals = g.sums.total; /* the total's own, for JSON */
    memset(&g.sums.total, 0, sizeof g.sums.total);
    if (out->total.started) {
        struct ttcp_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = TTCP_EV_FIGURES;
        ev.warning = TTCP_WARN_COUNT;
        ev.opts = opts;
        obs->event(obs->ctx, &ev, &out->total);
    }
    ttcp_interval_sum_free(&g.sums);
    tt_mutex_free(g.lock);
    free(st);
    return outcome(out);
}

void ttcp_parallel_release(struct ttcp_parallel *p)
{
    int i;
    for (i = 0; p->results != NULL && i < p->n; i++)
        ttcp_result_release(&p->results[i]);
    ttcp_result_release(&p->total);
    free(p->opts);
    free(p->results);
    free(p->rc);
    memset(p, 0, sizeof *p);
}
