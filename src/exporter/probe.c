/* One probe through the client code (client/client.c), as ttcp -C runs it,
 * printing nothing (with compression=1 twice, as ttcp -C --compression
 * does); and the table of probes running now. */
#include "exporter/probe.h"

#include <stdio.h>
#include <string.h>

#include "client/client.h"
#include "measure/compression.h"
#include "report/report_server.h"

static void quiet_event(void *ctx, const struct ttcp_options *o, int local,
                        const struct ttcp_event *ev, const struct ttcp_result *res)
{
    (void)ctx, (void)o, (void)local, (void)ev, (void)res;
}

static void quiet_trace(void *ctx, int local, const struct ttcp_trace *t,
                        const struct ttcp_hop *h, int ended)
{
    (void)ctx, (void)local, (void)t, (void)h, (void)ended;
}

/* The way the data went has both ends' figures, and nothing failed. */
static int completed(const struct ttcp_client_outcome *out, const struct ttcp_client_stream *st)
{
    return out->problem == TTCP_CLIENT_OK && st->used && st->rc == 0 && st->theirs_valid &&
           st->mine.started && st->theirs.started && st->theirs.failure.code == 0;
}

/* Why a probe did not complete, on the exporter's standard error (its
 * answer says only ttcp_up 0): the server's words where it gave some. */
static void log_failure(const struct exporter_plan *plan, const struct ttcp_client_outcome *out,
                        const struct ttcp_client_stream *st)
{
    const char *why = out->why[0] != '\0'             ? out->why
                      : out->failure.code != 0         ? ttcp_strerror(out->failure.code)
                      : st->theirs.failure.code != 0   ? ttcp_strerror(st->theirs.failure.code)
                      : st->mine.failure.code != 0     ? ttcp_strerror(st->mine.failure.code)
                                                       : "the test did not complete";
    fprintf(stderr, "ttcp-exporter: probe of %s port %s: %s\n", plan->target, plan->port, why);
}

/* One run of the plan's test with options o, ended by its own limit or
 * the probe's, whichever comes first; 1 when it completed. */
static int run_once(const struct exporter_plan *plan, const struct ttcp_options *o,
                    int64_t probe_end, struct ttcp_client_outcome *out)
{
    struct ttcp_client_observer obs = {quiet_event, NULL, quiet_trace};
    int way = o->transmit ? 0 : 1, ok;
    int64_t end = tt_now_ns() + plan->run_limit_ns;
    ttcp_client_run_until(o, &obs, out, end < probe_end ? end : probe_end);
    ok = completed(out, &out->stream[way]);
    if (!ok)
        log_failure(plan, out, &out->stream[way]);
    return ok;
}

/* compression=1: a completed run's figure, the receiver's, as
 * measure/compression.h takes it; the busier end's CPU beside it. */
static void keep_figure(const struct ttcp_client_outcome *out, int way, int ok,
                        struct ttcp_compression_run *run)
{
    const struct ttcp_client_stream *st = &out->stream[way];
    const struct ttcp_result *rx = way == 0 ? &st->theirs : &st->mine;
    double mine = ttcp_report_cpu_percent(&st->mine), theirs = ttcp_report_cpu_percent(&st->theirs);
    run->complete = ok;
    run->bytes = ok ? rx->bytes : 0;
    run->real_ns = ok ? rx->real_ns : 0;
    run->cpu_percent = !ok ? 0.0 : mine > theirs ? mine : theirs;
}

/* web=1: the server's browser tests, asked on a connection of their own
 * before the test (a -1 server answers it and still runs the test: the
 * question is no test), by the probe's end. A server that cannot say
 * (older, or gone) gives ttcp_web_up 0, its reason on standard error. */
static void ask_web(const struct exporter_plan *plan, int64_t probe_end, struct ttcp_prom_web *w,
                    struct ttcp_web_record kept[TTCP_WEB_KEPT])
{
    struct ttcp_client_outcome out;
    int n = 0;
    memset(w, 0, sizeof *w);
    if (ttcp_client_web_results(&plan->opts, &out, kept, &n, probe_end) != 0) {
        fprintf(stderr, "ttcp-exporter: web results of %s port %s: %s\n", plan->target,
                plan->port, out.why[0] != '\0' ? out.why : ttcp_strerror(out.failure.code));
        return;
    }
    w->answered = 1;
    if (n > 0) {
        w->latest = &kept[n - 1];
        w->tests = kept[n - 1].seq;
    }
}

int exporter_probe_run(struct exporter_plan *plan, char *buf, size_t len, int64_t *ns)
{
    static const struct ttcp_compression_run none;
    struct ttcp_client_outcome out[2];
    struct ttcp_prom_probe p = {plan->target, &plan->opts, NULL, NULL, 0, NULL, NULL, NULL};
    struct ttcp_compression_run runs[2] = {none, none};
    struct ttcp_compression judged;
    struct ttcp_prom_web web;
    struct ttcp_web_record kept[TTCP_WEB_KEPT];
    struct ttcp_options random_run = plan->opts;
    int way = plan->opts.transmit ? 0 : 1, ok, ok2 = 0;
    const struct ttcp_client_stream *st = &out[0].stream[way];
    int64_t start = tt_now_ns();
    if (plan->web) {
        ask_web(plan, start + plan->limit_ns, &web, kept);
        p.web = &web;
    }
    ok = run_once(plan, &plan->opts, start + plan->limit_ns, &out[0]);
    if (ok) {
        p.tx = way == 0 ? &st->mine : &st->theirs;
        p.rx = way == 0 ? &st->theirs : &st->mine;
    }
    if (plan->opts.latency) /* latency=1: the first run's probes */
        p.latency = &out[0].latency;
    if (plan->runs == 2) { /* the same test with the random pattern, if the first completed */
        random_run.pattern = TTCP_PAYLOAD_RANDOM;
        keep_figure(&out[0], way, ok, &runs[0]);
        if (ok && !tt_interrupted()) {
            ok2 = run_once(plan, &random_run, start + plan->limit_ns, &out[1]);
            keep_figure(&out[1], way, ok2, &runs[1]);
            ttcp_client_release(&out[1]);
        }
        ttcp_compression_judge(&judged, &runs[0], &runs[1]);
        p.compression = &judged;
        ok = ok && ok2;
    }
    *ns = p.duration_ns = tt_now_ns() - start;
    ttcp_prometheus_probe(&p, buf, len);
    ttcp_client_release(&out[0]);
    return ok;
}

int exporter_state_init(struct exporter_state *s, int max)
{
    memset(s, 0, sizeof *s);
    s->max = max < 1 ? 1 : max > EXPORTER_PROBES_MAX ? EXPORTER_PROBES_MAX : max;
    return tt_mutex_new(&s->lock);
}

int exporter_begin(struct exporter_state *s, const char *target)
{
    int i, free_slot = -2, running = 0;
    tt_mutex_lock(s->lock);
    for (i = 0; i < EXPORTER_PROBES_MAX; i++) {
        if (!s->used[i]) {
            if (free_slot == -2)
                free_slot = i;
            continue;
        }
        running++;
        if (strcmp(s->running[i], target) == 0)
            free_slot = -1;
    }
    if (free_slot >= 0 && running >= s->max)
        free_slot = -2;
    if (free_slot >= 0) {
        s->used[free_slot] = 1;
        strcpy(s->running[free_slot], target); /* both EXPORTER_TARGET_LEN + 1 */
    } else {
        s->counters.busy++;
    }
    tt_mutex_unlock(s->lock);
    return free_slot;
}

void exporter_end(struct exporter_state *s, int slot, int completed_ok, int64_t ns)
{
    tt_mutex_lock(s->lock);
    s->used[slot] = 0;
    s->counters.probes++;
    s->counters.failures += completed_ok ? 0 : 1;
    s->counters.duration_ns += ns;
    tt_mutex_unlock(s->lock);
}

void exporter_count(struct exporter_state *s, int status)
{
    tt_mutex_lock(s->lock);
    if (status == 403)
        s->counters.refused++;
    else
        s->counters.bad_requests++;
    tt_mutex_unlock(s->lock);
}

size_t exporter_counters_text(struct exporter_state *s, char *buf, size_t len)
{
    struct ttcp_prom_counters c;
    tt_mutex_lock(s->lock);
    c = s->counters;
    tt_mutex_unlock(s->lock);
    return ttcp_prometheus_counters(&c, buf, len);
}
