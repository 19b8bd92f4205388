#include "measure/interval.h"

#include <stdlib.h>
#include <string.h>

void ttcp_intervals_start(struct ttcp_intervals *iv, int64_t period_ns, int64_t origin_ns)
{
    ttcp_intervals_free(iv);
    iv->period_ns = period_ns;
    iv->origin_ns = origin_ns;
    iv->next_ns = origin_ns + period_ns;
}

struct ttcp_interval *ttcp_intervals_push(struct ttcp_intervals *iv)
{
    if (iv->count == iv->cap) {
        size_t cap = iv->cap ? iv->cap * 2 : 64;
        struct ttcp_interval *grown = realloc(iv->list, cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        iv->list = grown;
        iv->cap = cap;
    }
    memset(&iv->list[iv->count], 0, sizeof iv->list[0]);
    return &iv->list[iv->count++];
}

static size_t close_until(struct ttcp_intervals *iv, int64_t end_ns)
{
    uint64_t total = iv->last_total;
    struct ttcp_interval *in = ttcp_intervals_push(iv);
    if (in == NULL)
        return 0;
    in->start_ns = iv->next_ns - iv->period_ns - iv->origin_ns;
    in->end_ns = end_ns - iv->origin_ns;
    in->bytes = total - iv->bytes_before;
    in->omitted = iv->omit_until_ns != 0 && end_ns <= iv->omit_until_ns;
    iv->bytes_before = total;
    return 1;
}

void ttcp_intervals_omit(struct ttcp_intervals *iv, int64_t until_ns)
{
    iv->omit_until_ns = until_ns;
    iv->omit_passed = 0;
}

/* The omitted part's end is passed: its intervals close (the last one at
 * its end), and the next boundaries count from there. */
static size_t close_omitted(struct ttcp_intervals *iv)
{
    size_t closed = 0;
    iv->omit_passed = 1;
    while (iv->next_ns <= iv->omit_until_ns && close_until(iv, iv->next_ns) == 1) {
        iv->next_ns += iv->period_ns;
        closed++;
    }
    if (iv->omit_until_ns > iv->next_ns - iv->period_ns)
        closed += close_until(iv, iv->omit_until_ns);
    iv->next_ns = iv->omit_until_ns + iv->period_ns;
    return closed;
}

size_t ttcp_intervals_tick(struct ttcp_intervals *iv, int64_t now_ns, uint64_t total_bytes)
{
    size_t closed = 0;
    if (iv->period_ns > 0 && iv->omit_until_ns != 0 && !iv->omit_passed &&
        now_ns >= iv->omit_until_ns)
        closed = close_omitted(iv);
    while (iv->period_ns > 0 && now_ns >= iv->next_ns) {
        if (close_until(iv, iv->next_ns) == 0)
            break;
        iv->next_ns += iv->period_ns;
        closed++;
    }
    iv->last_total = total_bytes; /* counted at now_ns: the open interval's */
    return closed;
}

size_t ttcp_intervals_finish(struct ttcp_intervals *iv, int64_t end_ns, uint64_t total_bytes)
{
    size_t closed = ttcp_intervals_tick(iv, end_ns, total_bytes);
    int64_t last_start = iv->next_ns - iv->period_ns;
    if (iv->period_ns > 0 && end_ns > last_start)
        closed += close_until(iv, end_ns);
    return closed;
}

void ttcp_intervals_udp(struct ttcp_intervals *iv, size_t closed,
                        const struct ttcp_udp_stats *st)
{
    size_t i;
    for (i = iv->count - closed; i < iv->count; i++) {
        struct ttcp_interval *in = &iv->list[i];
        in->udp_valid = 1;
        in->udp_datagrams = st->datagrams - iv->udp_datagrams_before;
        in->udp_expected = st->expected - iv->udp_expected_before;
        in->udp_lost = in->udp_expected > in->udp_datagrams
                           ? in->udp_expected - in->udp_datagrams : 0;
        in->udp_jitter_ns = st->jitter_ns;
        iv->udp_datagrams_before = st->datagrams;
        iv->udp_expected_before = st->expected;
    }
}

void ttcp_intervals_free(struct ttcp_intervals *iv)
{
    free(iv->list);
    memset(iv, 0, sizeof *iv);
}
