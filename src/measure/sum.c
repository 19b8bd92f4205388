#include "measure/sum.h"

#include <stdlib.h>
#include <string.h>

/* The statistics of a TCP connection, added: counts and windows add up, the
 * RTT is the mean of the connections'. */
static void sum_tcp(struct tt_tcp_info *sum, const struct tt_tcp_info *part, int *valid)
{
    if (*valid == 0)
        sum->mss = part->mss;
    sum->snd_wnd += part->snd_wnd;
    sum->rcv_wnd += part->rcv_wnd;
    sum->cwnd += part->cwnd;
    sum->retransmits += part->retransmits;
    /* a running mean: (mean * k + x) / (k + 1) */
    sum->srtt_us = (uint32_t)(((uint64_t)sum->srtt_us * (uint64_t)*valid + part->srtt_us) /
                              (uint64_t)(*valid + 1));
    sum->rttvar_us = (uint32_t)(((uint64_t)sum->rttvar_us * (uint64_t)*valid +
                                 part->rttvar_us) / (uint64_t)(*valid + 1));
    /* the later fields: times, bytes and rates add up, the baseline RTT is
     * the smallest; each is known only where every connection gave it */
    sum->have = *valid == 0 ? part->have : sum->have & part->have;
    if (*valid == 0 || part->min_rtt_us < sum->min_rtt_us)
        sum->min_rtt_us = part->min_rtt_us;
    sum->delivery_rate += part->delivery_rate;
    sum->busy_us += part->busy_us;
    sum->rwnd_limited_us += part->rwnd_limited_us;
    sum->sndbuf_limited_us += part->sndbuf_limited_us;
    sum->bytes_sent += part->bytes_sent;
    sum->bytes_retrans += part->bytes_retrans;
    (*valid)++;
}

/* --analyze's facts: the streams' time adds up as their limits do (the
 * shares are of the streams' time together), so do the RTT samples and the
 * buffers; the path MTU is the smallest. */
static void sum_analysis(struct ttcp_result *sum, const struct ttcp_result *p)
{
    if (!p->analysis_taken)
        return;
    sum->analysis_taken = 1;
    sum->limits_span_ns += p->limits_span_ns;
    sum->rtt_sum_us += p->rtt_sum_us;
    sum->rtt_samples += p->rtt_samples;
    if (p->path_mtu > 0 && (sum->path_mtu == 0 || p->path_mtu < sum->path_mtu))
        sum->path_mtu = p->path_mtu;
    sum->sndbuf_bytes += p->sndbuf_bytes;
    sum->rcvbuf_bytes += p->rcvbuf_bytes;
}

static void sum_udp(struct ttcp_udp_stats *sum, const struct ttcp_udp_stats *part, int *valid)
{
    sum->datagrams += part->datagrams;
    sum->expected += part->expected;
    sum->duplicates += part->duplicates;
    sum->out_of_order += part->out_of_order;
    sum->jitter_ns = (sum->jitter_ns * *valid + part->jitter_ns) / (*valid + 1);
    (*valid)++;
}

/* What the verifier found: the checked and corrupted bytes added; the
 * pattern and the first bad offset of the first stream that had one. */
static void sum_verify(struct ttcp_verifier *sum, const struct ttcp_verifier *part, int first)
{
    if (first) {
        sum->kind = part->kind;
        sum->classic_len = part->classic_len;
        sum->seed = part->seed;
    }
    if (sum->corrupted == 0 && part->corrupted != 0)
        sum->first_bad = part->first_bad;
    sum->offset += part->offset;
    sum->corrupted += part->corrupted;
    sum->unchecked += part->unchecked;
}

/* The span, from the first start to the last end, of the streams that
 * began. */
static void sum_time(struct ttcp_result *sum, const struct ttcp_result *p)
{
    int64_t end = p->start_ns + p->real_ns;
    if (!sum->started) {
        sum->started = 1;
        sum->start_ns = p->start_ns;
        sum->real_ns = p->real_ns;
        return;
    }
    if (end > sum->start_ns + sum->real_ns)
        sum->real_ns = end - sum->start_ns;
    if (p->start_ns < sum->start_ns) {
        sum->real_ns += sum->start_ns - p->start_ns;
        sum->start_ns = p->start_ns;
    }
}

void ttcp_result_sum(struct ttcp_result *sum, const struct ttcp_result *parts, int n)
{
    int i, tcp = 0, tcp_connect = 0, udp = 0, verify = 0;
    memset(sum, 0, sizeof *sum);
    sum->test_number = 1;
    for (i = 0; i < n; i++) {
        const struct ttcp_result *p = &parts[i];
        if (p->started)
            sum_time(sum, p);
        sum->bytes += p->bytes;
        sum->calls += p->calls;
        sum->interrupted |= p->interrupted;
        sum->idle_timeout |= p->idle_timeout;
        sum->warnings |= p->warnings;
        sum->unsent_tail += p->unsent_tail;
        sum->back_done |= p->back_done;
        if (p->omitted) { /* --omit: each stream's own part, the longest of them */
            sum->omitted = 1;
            sum->omitted_bytes += p->omitted_bytes;
            if (p->omitted_ns > sum->omitted_ns)
                sum->omitted_ns = p->omitted_ns;
        }
        sum->back_bytes += p->back_bytes;
        if (p->back_ns > sum->back_ns)
            sum->back_ns = p->back_ns;
        if (p->peer_valid && !sum->peer_valid) {
            sum->peer = p->peer;
            sum->peer_valid = 1;
        }
        sum->tcp_end_asked |= p->tcp_end_asked;
        sum_analysis(sum, p);
        if (p->tcp_end_valid)
            sum_tcp(&sum->tcp_end, &p->tcp_end, &tcp);
        if (p->tcp_connect_valid)
            sum_tcp(&sum->tcp_connect, &p->tcp_connect, &tcp_connect);
        if (p->udp_stats_valid)
            sum_udp(&sum->udp, &p->udp, &udp);
        if (p->verify_done)
            sum_verify(&sum->verify, &p->verify, verify++ == 0);
        if (p->seed_used && !sum->seed_used) {
            sum->seed = p->seed;
            sum->seed_used = 1;
        }
        if (p->failure.code != 0 && sum->failure.code == 0)
            sum->failure = p->failure;
    }
    sum->tcp_end_valid = tcp > 0;
    sum->tcp_connect_valid = tcp_connect > 0;
    sum->udp_stats_valid = udp > 0;
    sum->verify_done = verify > 0;
}

void ttcp_result_sum_cpu(struct ttcp_result *sum, const struct ttcp_result *parts, int n)
{
    struct tt_cpu *end = &sum->cpu_end;
    int i;
    memset(&sum->cpu_start, 0, sizeof sum->cpu_start);
    memset(end, 0, sizeof *end);
    end->wait_given = 1; /* (only where every stream's is) */
    end->throttle_given = 1;
    for (i = 0; i < n; i++) {
        const struct tt_cpu *a = &parts[i].cpu_start, *b = &parts[i].cpu_end;
        if (!parts[i].started)
            continue;
        end->user_ns += b->user_ns - a->user_ns;
        end->sys_ns += b->sys_ns - a->sys_ns;
        end->nvcsw += b->nvcsw - a->nvcsw;
        end->nivcsw += b->nivcsw - a->nivcsw;
        end->minflt += b->minflt - a->minflt;
        end->majflt += b->majflt - a->majflt;
        end->wait_ns += b->wait_ns - a->wait_ns;
        end->wait_given = end->wait_given && a->wait_given && b->wait_given;
        /* a quota holds the streams' group, not a thread: each stream read
         * the same count, so the longest hold, not the sum */
        if (b->throttled_ns - a->throttled_ns > end->throttled_ns)
            end->throttled_ns = b->throttled_ns - a->throttled_ns;
        end->throttle_given = end->throttle_given && a->throttle_given && b->throttle_given;
        if (b->quota_ppm > 0 && (end->quota_ppm == 0 || b->quota_ppm < end->quota_ppm))
            end->quota_ppm = b->quota_ppm;
        if (b->maxrss_kib > end->maxrss_kib)
            end->maxrss_kib = b->maxrss_kib;
    }
    /* (cpu_start is zero: what was given is given at both ends; nothing
     * where no stream started) */
    for (i = 0; i < n && !parts[i].started; i++)
        continue;
    end->wait_given = sum->cpu_start.wait_given = i < n && end->wait_given;
    end->throttle_given = sum->cpu_start.throttle_given = i < n && end->throttle_given;
}

int ttcp_interval_sum_init(struct ttcp_interval_sum *s, int parts)
{
    memset(s, 0, sizeof *s);
    s->parts = parts;
    s->closed = calloc((size_t)parts, sizeof *s->closed);
    s->ended = calloc((size_t)parts, sizeof *s->ended);
    if (s->closed == NULL || s->ended == NULL) {
        ttcp_interval_sum_free(s);
        return -1;
    }
    return 0;
}

void ttcp_interval_sum_free(struct ttcp_interval_sum *s)
{
    free(s->closed);
    free(s->ended);
    ttcp_intervals_free(&s->total);
    memset(s, 0, sizeof *s);
}

/* The total of interval k, with empty totals (no stream's yet) added up to
 * it when they are not there; NULL when memory ran out. */
static struct ttcp_interval *total_at(struct ttcp_intervals *iv, size_t k)
{
    while (iv->count <= k) {
        struct ttcp_interval *in = ttcp_intervals_push(iv);
        if (in == NULL)
            return NULL;
        in->start_ns = -1; /* no stream's yet */
    }
    return &iv->list[k];
}

void ttcp_interval_sum_add(struct ttcp_interval_sum *s, int part, const struct ttcp_interval *in)
{
    struct ttcp_interval *t = total_at(&s->total, s->closed[part]);
    s->closed[part]++;
    if (t == NULL)
        return; /* out of memory: the total goes without this one */
    if (t->start_ns < 0 || in->start_ns < t->start_ns)
        t->start_ns = in->start_ns;
    if (in->end_ns > t->end_ns)
        t->end_ns = in->end_ns;
    t->bytes += in->bytes;
    t->omitted |= in->omitted;
    if (in->udp_valid) {
        /* counts add up; the jitter is the streams' mean (udp_valid counts them) */
        t->udp_jitter_ns = (t->udp_jitter_ns * t->udp_valid + in->udp_jitter_ns) /
                           (t->udp_valid + 1);
        t->udp_valid++;
        t->udp_datagrams += in->udp_datagrams;
        t->udp_expected += in->udp_expected;
        t->udp_lost += in->udp_lost;
    }
}

void ttcp_interval_sum_end(struct ttcp_interval_sum *s, int part)
{
    s->ended[part] = 1;
}

const struct ttcp_interval *ttcp_interval_sum_next(struct ttcp_interval_sum *s)
{
    size_t k = s->handed_out;
    int i;
    if (k >= s->total.count)
        return NULL;
    for (i = 0; i < s->parts; i++)
        if (!s->ended[i] && s->closed[i] <= k)
            return NULL;
    s->handed_out++;
    return &s->total.list[k];
}
