/* What a test against iperf3 -s carries (ttcp_iperf3_check: the rest is
 * refused in one line), and the parameters it sends (ttcp_iperf3_plan).
 * docs/COMPAT.md, "Against an iperf3 server", lists both. */
#include <stdio.h>
#include <string.h>

#include "base/version.h"
#include "peers/iperf3/internal.h"

#define NS 1000000000ll
#define UDP_DEFAULT_BPS 1000000ull /* iperf3 -u without -b: 1 Mbit/s */

/* Options iperf3 has no field for (or that need ttcp at the far end). */
static const char *not_carried(const struct ttcp_options *o)
{
    if (o->key_file)
        return "--key-file: iperf3's authentication is its own (RSA), not ttcp's key";
    if (o->group || o->mcast_ttl || o->source || o->interface)
        return "multicast: iperf3 does not test to a group";
    if (o->verify)
        return "--verify: iperf3's payload is not a pattern ttcp can check";
    if (o->half_close)
        return "--half-close: iperf3 has no data back after the end";
    if (o->traceroute || o->pmtu)
        return "--traceroute and --pmtu need a ttcp -S at the far end";
    if (o->continuous)
        return "-c: an iperf3 test ends, one at a time";
    if (o->dont_fragment)
        return "--dont-fragment: not carried to iperf3 (yet)";
    if (o->fq_rate_bps)
        return "--fq-rate: not carried to iperf3 (use -R)";
    if (o->udp && o->no_udp_stats)
        return "--no-udp-stats: iperf3's datagrams carry its header always";
    return NULL;
}

/* Numbers past iperf3's limits (iperf.h). */
static const char *out_of_bounds(const struct ttcp_options *o)
{
    if (o->udp && (o->buflen < TTCP_IPERF3_UDP_MIN_BLOCK || o->buflen > TTCP_IPERF3_UDP_MAX_BLOCK))
        return "-l: iperf3 takes UDP datagrams of 16 to 65507 bytes";
    if (!o->udp && o->buflen > TTCP_IPERF3_MAX_BLOCK)
        return "-l: iperf3 takes blocks of at most 1 MiB";
    if (o->streams > TTCP_IPERF3_MAX_STREAMS)
        return "-P: iperf3 takes at most 128 streams";
    if (o->bidir && o->streams > TTCP_IPERF3_MAX_STREAMS / 2) /* a results message holds 128 */
        return "-P: with --bidir iperf3 takes at most 64 streams each way";
    if (o->duration_ns > (int64_t)TTCP_IPERF3_MAX_TIME * NS)
        return "--time: iperf3 takes at most 86400 s";
    if (o->omit_ns % NS != 0 || o->omit_ns > (int64_t)TTCP_IPERF3_MAX_OMIT * NS)
        return "--omit: iperf3 takes whole seconds, at most 600";
    if (o->nbuf_given && !o->duration_ns &&
        (o->buflen == 0 || o->nbuf > TTCP_IPERF3_MAX_NUM / o->buflen / (o->streams ? o->streams : 1)))
        return "-n: more bytes than iperf3 counts exactly";
    if (o->sockbufsize > TTCP_IPERF3_MAX_WINDOW)
        return "-b: iperf3 takes a window of at most 1 GiB";
    return NULL;
}

int ttcp_iperf3_check(const struct ttcp_options *o, char *why, size_t why_len)
{
    const char *no = not_carried(o);
    if (no == NULL)
        no = out_of_bounds(o);
    if (no == NULL)
        return 0;
    snprintf(why, why_len, "--iperf3: %s", no);
    return -1;
}

/* The parameters message of the test as the options ask for it. */
static void make_params(struct i3 *c)
{
    const struct ttcp_options *o = c->opts;
    struct ttcp_iperf3_params *p = &c->params;
    enum ttcp_direction d = ttcp_options_direction(o);
    memset(p, 0, sizeof *p);
    p->udp = o->udp;
    p->parallel = (uint32_t)c->n;
    p->reverse = d == TTCP_DIR_RECEIVE;
    p->bidirectional = d == TTCP_DIR_BIDIR;
    p->len = (uint32_t)o->buflen;
    if (o->duration_ns) /* whole seconds: ours ends the test, theirs is a bound */
        p->time_s = (uint32_t)((o->duration_ns - o->omit_ns + NS - 1) / NS);
    else
        p->num = o->nbuf * o->buflen * (uint64_t)c->n;
    p->omit_s = (uint32_t)(o->omit_ns / NS);
    p->bandwidth = c->local.pace_bps; /* iperf3's is per stream */
    p->window = (uint32_t)o->sockbufsize;
    p->mss = (uint32_t)o->mss;
    p->nodelay = o->nodelay;
    p->tos = o->tos_given ? (uint32_t)o->tos : 0;
    if (o->congestion)
        snprintf(p->congestion, sizeof p->congestion, "%s", o->congestion);
    p->udp_counters_64bit = o->udp;
    snprintf(p->client_version, sizeof p->client_version, "ttcp %s", ttcp_version());
    if (o->title)
        snprintf(p->title, sizeof p->title, "%s", o->title);
}

void ttcp_iperf3_plan(struct i3 *c)
{
    const struct ttcp_options *o = c->opts;
    enum ttcp_direction d = ttcp_options_direction(o);
    c->n = o->streams ? (int)o->streams : 1;
    c->ways = (d != TTCP_DIR_RECEIVE ? 1u : 0u) | (d != TTCP_DIR_SEND ? 2u : 0u);
    c->local = *o;
    /* -R is the test's total in ttcp, a stream's in iperf3; UDP without
     * -R goes at iperf3's default both ways */
    if (o->udp && !o->pace_bps)
        c->local.pace_bps = UDP_DEFAULT_BPS * (uint64_t)c->n;
    if (c->local.pace_bps)
        c->local.pace_bps = c->local.pace_bps / (uint64_t)c->n ? c->local.pace_bps / (uint64_t)c->n
                                                                : 1;
    c->local.udp_iperf3 = o->udp ? TTCP_UDP_IPERF3_64 : 0; /* udp_counters_64bit */
    make_params(c);
    c->local.pace_bps = c->local.pace_bps * (uint64_t)c->n; /* the runner splits it again */
}
