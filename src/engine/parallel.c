/* -P in the classic pair: each stream a whole test (ttcp_run) on its own
 * port, run side by side by the stream runner (engine/streams.h), whose
 * group lock serialises the streams' events and their intervals' totals. */
#include "engine/parallel.h"

#include <stdlib.h>
#include <string.h>

#include "engine/pmtu.h"
#include "engine/run.h"
#include "engine/streams.h"

struct group {
    const struct ttcp_options *whole;
    const struct ttcp_observer *obs; /* the caller's */
    struct ttcp_parallel *out;
};

static void stream_event(void *ctx, int way, int i, enum ttcp_stream_end end,
                         const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct group *g = ctx;
    (void)way;
    (void)i;
    (void)end;
    g->obs->event(g->obs->ctx, ev, res);
}

static void total_interval(void *ctx, int way, enum ttcp_stream_end end,
                           const struct ttcp_interval *in)
{
    struct group *g = ctx;
    struct ttcp_event ev;
    (void)way;
    (void)end;
    memset(&ev, 0, sizeof ev);
    ev.kind = TTCP_EV_INTERVAL;
    ev.warning = TTCP_WARN_COUNT;
    ev.interval = in;
    ev.opts = g->whole;
    g->obs->event(g->obs->ctx, &ev, &g->out->total);
}

static int group_stop(void *ctx)
{
    const struct group *g = ctx;
    return g->obs->stop(g->obs->ctx);
}

/* Stream i: the whole test on its port (way 0 alone: the classic pair has
 * one direction). */
static void run_stream(void *ctx, int way, int i, const struct ttcp_observer *obs)
{
    struct group *g = ctx;
    (void)way;
    g->out->rc[i] = ttcp_run(&g->out->opts[i], obs, &g->out->results[i]);
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

static int outcome(const struct ttcp_parallel *p)
{
    int i;
    for (i = 0; i < p->n; i++)
        if (p->rc[i] != 0)
            return p->rc[i];
    return 0;
}

/* The total, and its FIGURES: the CPU is the process's over the whole test
 * (the classic pair's streams are all this process does); with --omit the
 * streams' own, which left out what they omitted. */
static void total_figures(struct ttcp_streams *run, struct group *g, const struct tt_cpu *cpu)
{
    struct ttcp_parallel *out = g->out;
    struct ttcp_pmtu path = out->total.pmtu; /* found before the streams */
    ttcp_streams_total(run, 0, TTCP_END_LOCAL, out->results, &out->total);
    out->total.pmtu = path;
    if (out->total.omitted) /* --omit: the streams' threads over their measured parts */
        ttcp_result_sum_cpu(&out->total, out->results, out->n);
    else {
        out->total.cpu_start = cpu[0];
        out->total.cpu_end = cpu[1];
    }
    if (out->total.started) {
        struct ttcp_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = TTCP_EV_FIGURES;
        ev.warning = TTCP_WARN_COUNT;
        ev.opts = g->whole;
        g->obs->event(g->obs->ctx, &ev, &out->total);
    }
}

/* --pmtu: the path MTU once, before the streams, into the total: 0, or
 * the failure's code (Ctrl+C during it: no test). */
static int probe_path(struct group *g)
{
    struct ttcp_result *total = &g->out->total;
    struct ttcp_event ev;
    if (ttcp_pmtu_find(g->whole, &total->pmtu, &total->failure) != 0)
        return -1;
    memset(&ev, 0, sizeof ev);
    ev.kind = TTCP_EV_PMTU;
    ev.warning = TTCP_WARN_COUNT;
    ev.opts = g->whole;
    g->obs->event(g->obs->ctx, &ev, total);
    if (!total->pmtu.interrupted)
        return 0;
    total->failure.code = TT_E_INTR;
    total->failure.op = TTCP_OP_PMTU;
    return -1;
}

int ttcp_run_parallel(const struct ttcp_options *opts, const struct ttcp_observer *obs,
                      struct ttcp_parallel *out)
{
    struct group g = {opts, obs, out};
    struct ttcp_streams_observer sobs = {stream_event, total_interval, NULL, NULL, &g};
    struct ttcp_streams run;
    struct tt_cpu cpu[2];
    int n = (int)opts->streams, i;

    sobs.stop = obs->stop != NULL ? group_stop : NULL;
    if (allocate(out, n) != 0 || ttcp_streams_init(&run, n, 1u, &sobs) != 0) {
        out->total.failure.code = TT_E_NOMEM;
        out->total.failure.op = TTCP_OP_MALLOC;
        return TT_E_NOMEM;
    }
    if (opts->pmtu && probe_path(&g) != 0) {
        ttcp_streams_free(&run);
        return out->total.failure.code;
    }
    for (i = 0; i < n; i++) {
        ttcp_stream_options(opts, i, n, &out->opts[i]);
        out->opts[i].port = opts->port + (uint64_t)i;
        if (opts->cport)
            out->opts[i].cport = opts->cport + (uint64_t)i;
    }
    tt_cpu_times(&cpu[0]);
    ttcp_streams_run(&run, run_stream, &g, NULL, NULL);
    tt_cpu_times(&cpu[1]);
    total_figures(&run, &g, cpu);
    ttcp_streams_free(&run);
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
