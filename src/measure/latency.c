/* --latency's arithmetic (latency.h): nearest-rank quantiles of the
 * answered round trips, the increase under load, the grade, the bins. */
#include "measure/latency.h"

#include <stdlib.h>
#include <string.h>

int ttcp_latency_push(struct ttcp_latency *l, int64_t at_ns, int64_t rtt_ns, int phase)
{
    if (l->count >= l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 64;
        struct ttcp_latency_sample *grown;
        if (cap > TTCP_LATENCY_SAMPLES_MAX)
            cap = TTCP_LATENCY_SAMPLES_MAX;
        grown = l->count < cap ? realloc(l->list, (size_t)cap * sizeof *grown) : NULL;
        if (grown == NULL) {
            l->not_kept++;
            return -1;
        }
        l->list = grown;
        l->cap = cap;
    }
    l->list[l->count].at_ns = at_ns;
    l->list[l->count].rtt_ns = rtt_ns;
    l->list[l->count].phase = phase;
    l->count++;
    return 0;
}

void ttcp_latency_free(struct ttcp_latency *l)
{
    free(l->list);
    l->list = NULL;
    l->count = l->cap = 0;
}

enum ttcp_latency_grade ttcp_latency_grade(double increase_ms)
{
    static const double below[] = {5, 30, 60, 200, 400};
    int g = 0;
    while (g < 5 && !(increase_ms < below[g]))
        g++;
    return (enum ttcp_latency_grade)g;
}

static int by_value(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least q of the n at or below it. */
static double rank_ms(const int64_t *sorted, uint32_t n, double q)
{
    uint32_t k = (uint32_t)(q * n + 0.999999999);
    if (k < 1)
        k = 1;
    if (k > n)
        k = n;
    return (double)sorted[k - 1] / 1e6;
}

/* The quantiles of rtts[n] (sorted here). */
static void quantiles(int64_t *rtts, uint32_t n, struct ttcp_latency_quantiles *q)
{
    q->answered = n;
    q->valid = n > 0;
    if (n == 0)
        return;
    qsort(rtts, n, sizeof *rtts, by_value);
    q->median_ms = rank_ms(rtts, n, 0.5);
    q->p90_ms = rank_ms(rtts, n, 0.9);
    q->p99_ms = rank_ms(rtts, n, 0.99);
}

/* The answered round trips of one phase into scratch; the probes counted. */
static uint32_t gather(const struct ttcp_latency *l, int phase, int64_t *scratch,
                       uint32_t *probes)
{
    uint32_t i, n = 0;
    *probes = 0;
    for (i = 0; i < l->count; i++) {
        if (l->list[i].phase != phase)
            continue;
        (*probes)++;
        if (l->list[i].rtt_ns >= 0)
            scratch[n++] = l->list[i].rtt_ns;
    }
    return n;
}

void ttcp_latency_summarise(const struct ttcp_latency *l, struct ttcp_latency_summary *out)
{
    int64_t *scratch = l->count ? malloc((size_t)l->count * sizeof *scratch) : NULL;
    uint32_t n;
    memset(out, 0, sizeof *out);
    if (scratch == NULL)
        return;
    n = gather(l, TTCP_LATENCY_IDLE, scratch, &out->idle.probes);
    quantiles(scratch, n, &out->idle);
    n = gather(l, TTCP_LATENCY_LOADED, scratch, &out->loaded.probes);
    quantiles(scratch, n, &out->loaded);
    free(scratch);
    if (out->idle.valid && out->loaded.answered >= TTCP_LATENCY_GRADE_LOADED) {
        out->increase_valid = 1;
        out->increase_ms = out->loaded.median_ms - out->idle.median_ms;
        out->grade = ttcp_latency_grade(out->increase_ms < 0 ? 0 : out->increase_ms);
    }
}

/* floor(at / width), for idle's negative times too */
static int64_t bin_of(int64_t at_ns, int64_t width_ns)
{
    int64_t k = at_ns / width_ns;
    return (at_ns % width_ns != 0 && at_ns < 0) ? k - 1 : k;
}

static void close_bin(struct ttcp_latency_bin *b, int64_t *rtts, uint32_t n,
                      void (*each)(void *, const struct ttcp_latency_bin *), void *ctx)
{
    struct ttcp_latency_quantiles q;
    memset(&q, 0, sizeof q);
    quantiles(rtts, n, &q);
    b->answered = n;
    b->median_ms = q.valid ? q.median_ms : 0;
    b->max_ms = q.valid ? (double)rtts[n - 1] / 1e6 : 0;
    each(ctx, b);
}

void ttcp_latency_bins(const struct ttcp_latency *l, int64_t width_ns,
                       void (*each)(void *ctx, const struct ttcp_latency_bin *b), void *ctx)
{
    int64_t *rtts = l->count ? malloc((size_t)l->count * sizeof *rtts) : NULL;
    struct ttcp_latency_bin b;
    uint32_t i, n = 0;
    int open = 0;
    if (rtts == NULL || width_ns <= 0) {
        free(rtts);
        return;
    }
    for (i = 0; i < l->count; i++) {
        const struct ttcp_latency_sample *s = &l->list[i];
        int64_t k = bin_of(s->at_ns, width_ns);
        if (open && (s->phase != b.phase || k * width_ns != b.start_ns)) {
            close_bin(&b, rtts, n, each, ctx);
            open = 0;
        }
        if (!open) {
            memset(&b, 0, sizeof b);
            b.start_ns = k * width_ns;
            b.end_ns = b.start_ns + width_ns;
            b.phase = s->phase;
            n = 0;
            open = 1;
        }
        b.probes++;
        if (s->rtt_ns >= 0)
            rtts[n++] = s->rtt_ns;
    }
    if (open)
        close_bin(&b, rtts, n, each, ctx);
    free(rtts);
}
