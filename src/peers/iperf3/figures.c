/* The results exchange's figures: ours, from each stream's run, for the
 * server; the server's, from its message, into the outcome's `theirs`
 * (bytes, the seconds from start_time and end_time, the CPU share from
 * cpu_util_*, UDP's datagrams, losses and jitter). */
#include <stdlib.h>
#include <string.h>

#include "peers/iperf3/internal.h"

#define NS 1e9

/* Our stream k (0-based, in the order the connections were made). */
static void our_stream(const struct i3 *c, int way, int i, struct ttcp_iperf3_stream_result *s)
{
    const struct ttcp_client_stream *st = &c->out->stream[way];
    const struct ttcp_result *r = &st->part_mine[i];
    memset(s, 0, sizeof *s);
    s->id = c->ids[way][i];
    s->bytes = r->bytes;
    s->retransmits = way == 0 && r->tcp_end_valid ? (int64_t)r->tcp_end.retransmits : -1;
    s->end_time = (double)r->real_ns / NS;
    if (!c->opts->udp)
        return;
    if (way == 0) {
        s->packets = c->local.buflen ? r->bytes / c->local.buflen : 0;
    } else if (r->udp_stats_valid) {
        s->packets = r->udp.expected;
        s->errors = ttcp_udp_stats_lost(&r->udp);
        s->jitter_s = r->udp.jitter_ns / NS;
    }
}

/* The CPU share of our streams, in percent, as iperf3 reports its own. */
static void our_cpu(const struct i3 *c, struct ttcp_iperf3_results *r)
{
    int64_t user = 0, sys = 0, real = 0;
    int way, i;
    for (way = 0; way < 2; way++)
        for (i = 0; c->out->stream[way].used && i < c->n; i++) {
            const struct ttcp_result *m = &c->out->stream[way].part_mine[i];
            user += m->cpu_end.user_ns - m->cpu_start.user_ns;
            sys += m->cpu_end.sys_ns - m->cpu_start.sys_ns;
            if (m->real_ns > real)
                real = m->real_ns;
        }
    if (real <= 0)
        return;
    r->cpu_user = 100.0 * (double)user / (double)real;
    r->cpu_system = 100.0 * (double)sys / (double)real;
    r->cpu_total = r->cpu_user + r->cpu_system;
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
