/* The results exchange's figures: ours, from each stream's run, for the
 * server; the server's, from its message, into the outcome's `theirs`
 * (bytes, the seconds from start_time and end_time, the CPU share from
 * cpu_util_*, UDP's datagrams, losses and jitter). */
#include <stdlib.h>
#include <string.h>

#include "peers/iperf3/internal.h"
#include "peers/iperf3/run_figures.h"

#define NS 1e9

/* Our stream i of way: way 0 we sent. */
static void our_stream(const struct i3 *c, int way, int i, struct ttcp_iperf3_stream_result *s)
{
    ttcp_iperf3_stream_figures(&c->out->stream[way].part_mine[i], c->ids[way][i], way == 0,
                               c->opts->udp, c->local.buflen, s);
}

/* Every run of ours, for the CPU share. */
static void our_cpu(const struct i3 *c, struct ttcp_iperf3_results *r)
{
    const struct ttcp_result *runs[2 * TTCP_IPERF3_MAX_STREAMS];
    int way, i, n = 0;
    for (way = 0; way < 2; way++)
        for (i = 0; c->out->stream[way].used && i < c->n; i++)
            runs[n++] = &c->out->stream[way].part_mine[i];
    ttcp_iperf3_cpu_share(runs, n, r);
}

int ttcp_iperf3_our_results(struct i3 *c, char *buf, size_t cap, size_t *len)
{
    static const struct ttcp_iperf3_results zero;
    struct ttcp_iperf3_results *r = malloc(sizeof *r);
    int way, i, rc, tcp_info = 1;
    if (r == NULL)
        return -1;
    *r = zero;
    for (way = 0; way < 2; way++)
        for (i = 0; c->out->stream[way].used && i < c->n; i++) {
            our_stream(c, way, i, &r->streams[r->n++]);
            tcp_info &= way != 0 || c->out->stream[0].part_mine[i].tcp_end_valid;
        }
    r->sender_has_retransmits = !(c->ways & 1u) ? -1 : !c->opts->udp && tcp_info;
    our_cpu(c, r);
    rc = ttcp_iperf3_results_build(r, buf, cap, len);
    free(r);
    return rc;
}

/* One stream of the server's into the figures of our stream's far end. */
static void their_stream(const struct i3 *c, int udp_receiver,
                         const struct ttcp_iperf3_stream_result *s, struct ttcp_result *r)
{
    const struct ttcp_iperf3_results *t = &c->theirs;
    double secs = s->end_time > s->start_time ? s->end_time - s->start_time : 0;
    memset(r, 0, sizeof *r);
    r->started = 1;
    r->bytes = s->bytes;
    r->real_ns = (int64_t)(secs * NS);
    r->cpu_end.user_ns = (int64_t)(t->cpu_user / 100.0 * secs * NS);
    r->cpu_end.sys_ns = (int64_t)(t->cpu_system / 100.0 * secs * NS);
    if (udp_receiver) {
        r->udp_stats_valid = 1;
        r->udp.expected = s->packets;
        r->udp.datagrams = s->packets > s->errors ? s->packets - s->errors : 0;
        r->udp.jitter_ns = s->jitter_s * NS;
    }
}

void ttcp_iperf3_take_theirs(struct i3 *c)
{
    int way, i;
    for (way = 0; way < 2; way++) {
        struct ttcp_client_stream *st = &c->out->stream[way];
        for (i = 0; st->used && i < c->n; i++) {
            const struct ttcp_iperf3_stream_result *s =
                ttcp_iperf3_results_stream(&c->theirs, c->ids[way][i]);
            if (s == NULL)
                continue; /* not valid: the summary leaves it out */
            their_stream(c, c->opts->udp && way == 0, s, &st->part_theirs[i]);
            st->part_theirs_valid[i] = 1;
        }
    }
}
