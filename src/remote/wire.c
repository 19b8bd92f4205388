/* The conversation's messages <-> options and results. Every number read
 * from the far end is bounded here, as the command line bounds its own. */
#include "remote/wire.h"

#include <stdio.h>
#include <string.h>

#define NS_PER_S 1000000000ull
#define MAX_BUFLEN (256ull << 20)
#define MAX_NBUF (1ull << 48)
#define MAX_RATE 1000000000000ull
#define MAX_NS (1ull << 62)

static const char *const direction_names[] = {"send", "receive", "bidir"};

void ttcp_wire_test(struct ttcp_frame *f, const struct ttcp_options *o)
{
    /* a third party's request is a message of its own: a server of before
     * it answers "expected test", never runs a test of its own instead */
    ttcp_frame_begin(f, o->target != NULL ? "third_party" : "test");
    if (o->target != NULL) {
        ttcp_frame_add(f, "target", o->target_host);
        ttcp_frame_add_u64(f, "target_port", o->target_port);
    }
    ttcp_frame_add(f, "direction", direction_names[ttcp_options_direction(o)]);
    ttcp_frame_add(f, "protocol", o->udp ? "udp" : "tcp");
    ttcp_frame_add_u64(f, "buflen", o->buflen);
    if (o->duration_ns)
        ttcp_frame_add_u64(f, "time_ns", (uint64_t)o->duration_ns);
    else
        ttcp_frame_add_u64(f, "nbuf", o->nbuf);
    ttcp_frame_add_u64(f, "pace_bps", o->pace_bps);
    ttcp_frame_add_u64(f, "pace_burst", o->pace_burst);
    ttcp_frame_add(f, "pattern", ttcp_payload_name(o->pattern));
    if (o->seed_given)
        ttcp_frame_add_u64(f, "seed", o->seed);
    ttcp_frame_add_u64(f, "interval_ns", (uint64_t)o->interval_ns);
    ttcp_frame_add_u64(f, "sockbufsize", o->sockbufsize);
    ttcp_frame_add_u64(f, "nodelay", (uint64_t)o->nodelay);
    ttcp_frame_add_u64(f, "verify", (uint64_t)o->verify);
    ttcp_frame_add_u64(f, "tcp_info", (uint64_t)o->tcp_info);
    ttcp_frame_add_u64(f, "half_close", (uint64_t)o->half_close);
    ttcp_frame_add_u64(f, "idle_timeout_ns", (uint64_t)o->idle_timeout_ns);
    if (o->streams > 1)
        ttcp_frame_add_u64(f, "streams", o->streams);
    if (o->traceroute)
        ttcp_frame_add_u64(f, "traceroute", 1);
    if (o->group != NULL) {
        ttcp_frame_add(f, "group", o->group);
        ttcp_frame_add_u64(f, "ttl", o->mcast_ttl ? o->mcast_ttl : 1);
    }
    if (o->mss)
        ttcp_frame_add_u64(f, "mss", o->mss);
    if (o->tos_given) /* the server marks its end's packets the same */
        ttcp_frame_add_u64(f, "tos", o->tos);
    if (o->congestion != NULL)
        ttcp_frame_add(f, "congestion", o->congestion);
    if (o->omit_ns)
        ttcp_frame_add_u64(f, "omit_ns", (uint64_t)o->omit_ns);
    if (o->fq_rate_bps)
        ttcp_frame_add_u64(f, "fq_rate_bps", o->fq_rate_bps);
    if (o->dont_fragment) /* the server's end sends with DF too */
        ttcp_frame_add_u64(f, "dont_fragment", 1);
    if (o->analyze) /* the server's end takes the analysis's facts (a sender: its RTT) */
        ttcp_frame_add_u64(f, "analyze", 1);
    if (o->latency) { /* the server echoes the probes, idle first */
        ttcp_frame_add_u64(f, "latency", 1);
        ttcp_frame_add_u64(f, "latency_idle_ns", (uint64_t)o->latency_idle_ns);
    }
    ttcp_frame_end(f);
}

/* An optional number: def when absent. */
static int get_opt(const struct ttcp_message *m, const char *key, uint64_t min, uint64_t max,
                   uint64_t def, uint64_t *out, char *why, size_t why_len)
{
    if (ttcp_proto_get(m, key) == NULL) {
        *out = def;
        return 0;
    }
    return ttcp_proto_get_u64(m, key, min, max, out, why, why_len);
}

static int read_choice(const struct ttcp_message *m, const char *key, const char *const *names,
                       int count, int *out, char *why, size_t why_len)
{
    const char *v = ttcp_proto_get(m, key);
    int i;
    for (i = 0; v != NULL && i < count; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return 0;
        }
    snprintf(why, why_len, "%s: %s", key, v ? "not a value this server knows" : "missing");
    return -1;
}

/* The request's yes/no fields, each 0 or 1 (half_close: the receiving end
 * sends -n buffers back after the FIN). */
static int read_flags(const struct ttcp_message *m, struct ttcp_options *o, char *why,
                      size_t why_len)
{
    static const char *const keys[] = {"nodelay", "verify", "tcp_info", "half_close",
                                       "dont_fragment", "analyze"};
    int *fields[] = {&o->nodelay, &o->verify, &o->tcp_info, &o->half_close, &o->dont_fragment,
                     &o->analyze};
    uint64_t v;
    size_t i;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (get_opt(m, keys[i], 0, 1, 0, &v, why, why_len) != 0)
            return -1;
        *fields[i] = (int)v;
    }
    return 0;
}

/* The request's fields into options, each within its range. */
static int read_fields(const struct ttcp_message *m, struct ttcp_options *o, int *direction,
                       char *why, size_t why_len)
{
    static const char *const protocols[] = {"tcp", "udp"};
    uint64_t time_ns = 0, interval = 0, idle = 0, seed = 0, streams = 1;
    const char *pattern = ttcp_proto_get(m, "pattern");
    int rc = read_choice(m, "direction", direction_names, 3, direction, why, why_len);

    if (rc == 0)
        rc = read_choice(m, "protocol", protocols, 2, &o->udp, why, why_len);
    if (rc == 0)
        rc = ttcp_proto_get_u64(m, "buflen", 1, MAX_BUFLEN, &o->buflen, why, why_len);
    if (rc == 0)
        rc = get_opt(m, "time_ns", NS_PER_S / 100, 1000000 * NS_PER_S, 0, &time_ns, why, why_len);
    o->nbuf = TTCP_DEFAULT_NBUF; /* shown in the header of a timed test, as -n's default */
    if (rc == 0 && time_ns == 0)
        rc = ttcp_proto_get_u64(m, "nbuf", 1, MAX_NBUF, &o->nbuf, why, why_len);
    if (rc == 0)
        rc = get_opt(m, "pace_bps", 0, MAX_RATE, 0, &o->pace_bps, why, why_len);
    if (rc == 0)
        rc = get_opt(m, "pace_burst", 0, 1000000, 0, &o->pace_burst, why, why_len);
    if (rc == 0 && ttcp_proto_get(m, "seed") != NULL) {
        rc = ttcp_proto_get_u64(m, "seed", 0, UINT64_MAX, &seed, why, why_len);
        o->seed = seed;
        o->seed_given = 1;
    }
    if (rc == 0)
        rc = get_opt(m, "interval_ns", 0, 86400 * NS_PER_S, 0, &interval, why, why_len);
    if (rc == 0)
        rc = get_opt(m, "sockbufsize", 0, 1u << 30, 0, &o->sockbufsize, why, why_len);
    if (rc == 0)
        rc = read_flags(m, o, why, why_len);
    if (rc == 0)
        rc = get_opt(m, "idle_timeout_ns", NS_PER_S / 100, 86400 * NS_PER_S,
                     (uint64_t)TTCP_DEFAULT_IDLE_NS, &idle, why, why_len);
    if (rc == 0)
        rc = get_opt(m, "streams", 1, TTCP_STREAMS_MAX, 1, &streams, why, why_len);
    if (rc == 0 && pattern != NULL && ttcp_payload_parse(pattern) < 0) {
        snprintf(why, why_len, "pattern: not a value this server knows");
        rc = -1;
    }
    if (rc != 0)
        return -1;
    if (o->pace_bps != 0 && o->pace_bps < 100)
        o->pace_bps = 100;
    o->pattern = pattern ? (enum ttcp_payload)ttcp_payload_parse(pattern) : TTCP_PAYLOAD_CLASSIC;
    o->duration_ns = (int64_t)time_ns;
    o->interval_ns = (int64_t)interval;
    if (interval != 0 && interval < NS_PER_S / 100)
        o->interval_ns = (int64_t)(NS_PER_S / 100);
    o->idle_timeout_ns = (int64_t)idle;
    o->streams = streams;
    return 0;
}

/* --mss, --tos / --dscp and --congestion for the server's end too: the
 * segment size within TCP's, the mark within a byte, the algorithm's name
 * within its length (the one validation then asks the server's own kernel
 * whether it may be chosen). */
static int read_marks(const struct ttcp_message *m, struct ttcp_grant *out, char *why,
                      size_t why_len)
{
    const char *congestion = ttcp_proto_get(m, "congestion");
    if (get_opt(m, "mss", 88, 65535, 0, &out->opts.mss, why, why_len) != 0)
        return -1;
    if (ttcp_proto_get(m, "tos") != NULL) {
        if (ttcp_proto_get_u64(m, "tos", 0, 255, &out->opts.tos, why, why_len) != 0)
            return -1;
        out->opts.tos_given = 1;
    }
    if (congestion == NULL)
        return 0;
    if (strlen(congestion) > TTCP_CONGESTION_MAX) {
        snprintf(why, why_len, "congestion: a name of at most %d characters",
                 TTCP_CONGESTION_MAX);
        return -1;
    }
    memcpy(out->congestion, congestion, strlen(congestion) + 1);
    out->opts.congestion = out->congestion;
    return 0;
}

/* --omit and --fq-rate for the server's end too, within the command line's
 * bounds (the one validation then holds --omit below --time, and asks the
 * server's own kernel whether it paces). */
static int read_tuning(const struct ttcp_message *m, struct ttcp_options *o, char *why,
                       size_t why_len)
{
    uint64_t omit;
    if (get_opt(m, "omit_ns", NS_PER_S / 100, 3600 * NS_PER_S, 0, &omit, why, why_len) != 0 ||
        get_opt(m, "fq_rate_bps", 8000, 32000000000ull, 0, &o->fq_rate_bps, why, why_len) != 0)
        return -1;
    o->omit_ns = (int64_t)omit;
    return 0;
}

/* -C -r -m: a group to send to, of the family the server listens on, the
 * hop limit within the server's --max-ttl. */
static int read_group(const struct ttcp_message *m, const struct ttcp_options *server,
                      struct ttcp_grant *out, char *why, size_t why_len)
{
    const char *group = ttcp_proto_get(m, "group");
    uint64_t most = server->max_ttl ? server->max_ttl : 1, ttl = 1;
    out->group[0] = '\0';
    if (group == NULL)
        return 0;
    if (strlen(group) >= sizeof out->group || ttcp_options_multicast(group) == 0) {
        snprintf(why, why_len, "group: not a multicast address");
        return -1;
    }
    if (!out->opts.udp || out->direction != TTCP_DIR_RECEIVE) {
        snprintf(why, why_len, "group: multicast goes from the server, over UDP (-C -r -u)");
        return -1;
    }
    if (get_opt(m, "ttl", 1, 255, 1, &ttl, why, why_len) != 0)
        return -1;
    if (ttl > most) {
        snprintf(why, why_len, "ttl: at most %llu on this server (--max-ttl)",
                 (unsigned long long)most);
        return -1;
    }
    memcpy(out->group, group, strlen(group) + 1);
    out->ttl = (int)ttl;
    return 0;
}

/* third_party: the host (a name or a numeric address, no more) and port
 * to test to; the server checks what it resolves to (server/third.c). A
 * `test` has none. */
static int read_target(const struct ttcp_message *m, struct ttcp_grant *out, char *why,
                       size_t why_len)
{
    const char *target = ttcp_proto_get(m, "target");
    int third = strcmp(ttcp_proto_type(m), "third_party") == 0;
    out->target[0] = '\0';
    out->target_port = 0;
    if (!third && target == NULL)
        return 0;
    if (!third)
        snprintf(why, why_len, "target: only in a third_party request");
    else if (target == NULL || !ttcp_options_target_ok(target))
        snprintf(why, why_len, "target: %s", target == NULL ? "missing"
                 : "not a host name or a numeric address");
    else if (out->group[0] != '\0' || out->traceroute)
        snprintf(why, why_len, "target: a third party's test takes no %s",
                 out->traceroute ? "traceroute" : "multicast group");
    else if (ttcp_proto_get_u64(m, "target_port", 1, 65535, &out->target_port, why,
                                why_len) == 0) {
        memcpy(out->target, target, strlen(target) + 1);
        return 0;
    }
    return -1;
}

void ttcp_wire_server_base(const struct ttcp_options *server, struct ttcp_options *o)
{
    memset(o, 0, sizeof *o);
    o->action = TTCP_ACTION_RUN;
    o->sinkmode = 1;
    o->thread_cpu = 1;
    o->family = server->family;
    o->unit = server->unit;
    o->verbose = server->verbose;
    o->json = server->json; /* -S --json: a document per test on stdout, text on stderr */
    o->json_stream = server->json_stream; /* and how the server's lines go out */
    o->timestamps = server->timestamps;
    o->title = server->title;
    o->bufalign = server->bufalign;
    o->bufoffset = server->bufoffset;
    o->idle_timeout_ns = server->idle_timeout_ns;
    o->analyze = server->analyze; /* -S --analyze: its own findings of every TCP test */
    o->link_bps = server->link_bps; /* --analyze's, for the server's own lines */
    o->mtu = server->mtu;
    o->framing_bytes = server->framing_bytes;
}

/* --latency: the probes to echo, and the idle part before the data
 * (bounded as the command line's --latency-idle, and by --max-time: the
 * idle probing holds a slot as the data does). */
static int read_latency(const struct ttcp_message *m, const struct ttcp_options *server,
                        struct ttcp_grant *out, char *why, size_t why_len)
{
    uint64_t asked, idle;
    if (get_opt(m, "latency", 0, 1, 0, &asked, why, why_len) != 0 ||
        get_opt(m, "latency_idle_ns", 0, 60 * NS_PER_S, 0, &idle, why, why_len) != 0)
        return -1;
    if (asked && server->max_time_ns && idle > (uint64_t)server->max_time_ns) {
        snprintf(why, why_len, "latency_idle_ns: at most %.3g s on this server (--max-time)",
                 (double)server->max_time_ns / 1e9);
        return -1;
    }
    out->latency = (int)asked;
    out->latency_idle_ns = asked ? (int64_t)idle : 0;
    return 0;
}

int ttcp_wire_read_test(const struct ttcp_message *m, const struct ttcp_options *server,
                        struct ttcp_grant *out, char *why, size_t why_len)
{
    struct ttcp_options *o = &out->opts, probe;
    uint64_t most_streams = server->max_streams ? server->max_streams : TTCP_STREAMS_MAX, trace;
    int direction = 0;

    ttcp_wire_server_base(server, o);
    o->port = server->port;
    if (read_fields(m, o, &direction, why, why_len) != 0)
        return -1;
    o->analyze = (o->analyze || server->analyze) && !o->udp; /* the client's ask, or -S's */
    out->direction = (enum ttcp_direction)direction;
    if (o->streams > most_streams) {
        snprintf(why, why_len, "streams: at most %llu each way on this server (--max-streams)",
                 (unsigned long long)most_streams);
        return -1;
    }
    if (o->streams * (out->direction == TTCP_DIR_BIDIR ? 2u : 1u) * o->buflen >
        TTCP_SERVER_TEST_MEMORY) {
        snprintf(why, why_len, "streams x buflen: at most %llu MiB of buffers a test on this "
                 "server", (unsigned long long)(TTCP_SERVER_TEST_MEMORY >> 20));
        return -1;
    }
    if (o->idle_timeout_ns > server->idle_timeout_ns)
        o->idle_timeout_ns = server->idle_timeout_ns; /* how long a stalled peer holds a slot */
    if (o->sockbufsize > TTCP_SERVER_MAX_SOCKBUF)
        o->sockbufsize = TTCP_SERVER_MAX_SOCKBUF;
    if (server->max_time_ns)
        o->limit_ns = server->max_time_ns;
    if (server->max_rate_bps && (o->pace_bps == 0 || o->pace_bps > server->max_rate_bps))
        o->pace_bps = server->max_rate_bps;
    if (read_group(m, server, out, why, why_len) != 0 || read_marks(m, out, why, why_len) != 0 ||
        read_tuning(m, o, why, why_len) != 0 ||
        get_opt(m, "traceroute", 0, 1, 0, &trace, why, why_len) != 0 ||
        read_latency(m, server, out, why, why_len) != 0)
        return -1;
    out->traceroute = (int)trace;
    if (read_target(m, out, why, why_len) != 0)
        return -1;
    /* each side the server may take passes the one validation */
    ttcp_wire_side(out, 1, &probe);
    if (ttcp_options_validate(&probe, why, why_len) != 0)
        return -1;
    ttcp_wire_side(out, 0, &probe);
    return ttcp_options_validate(&probe, why, why_len);
}

void ttcp_wire_side(const struct ttcp_grant *g, int transmit, struct ttcp_options *out)
{
    *out = g->opts;
    out->transmit = transmit;
    out->side_given = 1;
    out->host = transmit ? "client" : NULL;
    if (out->udp)
        out->start_timeout_ns = out->idle_timeout_ns;
    if (transmit) {
        out->verify = 0; /* checking is the receiver's part */
    } else {
        out->duration_ns = 0, out->nbuf_given = 0;
        /* the transmitter stops at the limit; the receiver enforces it against
         * one that does not, after a grace, so an honest one is never cut */
        if (out->limit_ns)
            out->limit_ns += TTCP_LIMIT_GRACE_NS;
    }
}

void ttcp_wire_ready(struct ttcp_frame *f, const struct ttcp_grant *g, const char *token)
{
    ttcp_frame_begin(f, "ready");
    ttcp_frame_add(f, "token", token);
    ttcp_frame_add_u64(f, "limit_ns", (uint64_t)g->opts.limit_ns);
    ttcp_frame_add_u64(f, "pace_bps", g->opts.pace_bps);
    /* what a client asked for beyond one plain stream, granted: a server of
     * before them would leave them out, and its client would know */
    if (g->opts.streams > 1)
        ttcp_frame_add_u64(f, "streams", g->opts.streams);
    if (g->group[0] != '\0')
        ttcp_frame_add(f, "group", g->group);
    if (g->traceroute)
        ttcp_frame_add_u64(f, "traceroute", 1);
    if (g->latency)
        ttcp_frame_add_u64(f, "latency", 1);
    ttcp_frame_end(f);
}

/* The client checks that the server granted what it asked for beyond one
 * plain stream: an older server ignores what it does not know. */
static int granted(const struct ttcp_message *m, const struct ttcp_options *o, char *why,
                   size_t why_len)
{
    uint64_t streams = 1, trace = 0, latency = 0;
    const char *group = ttcp_proto_get(m, "group");
    if (get_opt(m, "streams", 1, TTCP_STREAMS_MAX, 1, &streams, why, why_len) != 0 ||
        get_opt(m, "traceroute", 0, 1, 0, &trace, why, why_len) != 0 ||
        get_opt(m, "latency", 0, 1, 0, &latency, why, why_len) != 0)
        return -1;
    if (streams != o->streams)
        snprintf(why, why_len, "it did not grant -P %llu (an older ttcp -S?): upgrade it, or "
                 "leave -P out", (unsigned long long)o->streams);
    else if (o->group != NULL && (group == NULL || strcmp(group, o->group) != 0))
        snprintf(why, why_len, "it does not send to multicast groups (an older ttcp -S?): "
                 "upgrade it, or leave -m out");
    else if (o->traceroute && !trace)
        snprintf(why, why_len, "it does not trace back (an older ttcp -S?): upgrade it, or "
                 "leave --traceroute out");
    else if (o->latency && !latency)
        snprintf(why, why_len, "it does not echo latency probes (an older ttcp -S?): upgrade "
                 "it, or leave --latency out");
    else
        return 0;
    return -1;
}

int ttcp_wire_read_ready(const struct ttcp_message *m, struct ttcp_options *o, char *token,
                         char *why, size_t why_len)
{
    const char *t = ttcp_proto_get(m, "token");
    uint64_t limit = 0, pace = 0;
    if (t == NULL || !ttcp_wire_token_ok(t)) {
        snprintf(why, why_len, "token: missing or not %d hex digits", TTCP_TOKEN_HEX);
        return -1;
    }
    if (get_opt(m, "limit_ns", 0, MAX_NS, 0, &limit, why, why_len) != 0 ||
        get_opt(m, "pace_bps", 0, MAX_RATE, 0, &pace, why, why_len) != 0 ||
        granted(m, o, why, why_len) != 0)
        return -1;
    memcpy(token, t, TTCP_TOKEN_HEX + 1);
    /* a limit of the client's own (a third party's test: its server's
     * --max-time) stays when the far end's is longer, or none */
    if (o->limit_ns == 0 || (limit != 0 && (int64_t)limit < o->limit_ns))
        o->limit_ns = (int64_t)limit;
    if (pace != 0 && (o->pace_bps == 0 || pace < o->pace_bps))
        o->pace_bps = pace;
    return 0;
}

int ttcp_wire_token_ok(const char *t)
{
    size_t i;
    for (i = 0; i < TTCP_TOKEN_HEX; i++)
        if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'f')))
            return 0;
    return t[i] == '\0';
}
