/* A result and an interval <-> frames: the facts both ends print, never
 * text. Numbers read back are bounded; what is absent stays 0. */
#include <string.h>

#include "remote/wire.h"

#define MAX_NS (1ull << 62)

struct u64_field {
    const char *key;
    size_t offset; /* in struct ttcp_result */
    int is_signed; /* an int64_t field: read within [0, 2^62] */
};

#define R(name) offsetof(struct ttcp_result, name)
static const struct u64_field fields[] = {
    {"bytes", R(bytes), 0},
    {"calls", R(calls), 0},
    {"real_ns", R(real_ns), 1},
    {"cpu_user_ns", R(cpu_end.user_ns), 1},
    {"cpu_sys_ns", R(cpu_end.sys_ns), 1},
    {"maxrss_kib", R(cpu_end.maxrss_kib), 1},
    {"minflt", R(cpu_end.minflt), 1},
    {"majflt", R(cpu_end.majflt), 1},
    {"nvcsw", R(cpu_end.nvcsw), 1},
    {"nivcsw", R(cpu_end.nivcsw), 1},
    {"retransmits", R(tcp_end.retransmits), 0},
    {"verify_offset", R(verify.offset), 0},
    {"verify_corrupted", R(verify.corrupted), 0},
    {"verify_first_bad", R(verify.first_bad), 0},
    {"seed", R(seed), 0},
    {"udp_datagrams", R(udp.datagrams), 0},
    {"udp_expected", R(udp.expected), 0},
    {"udp_duplicates", R(udp.duplicates), 0},
    {"udp_out_of_order", R(udp.out_of_order), 0},
    {"back_bytes", R(back_bytes), 0},
    {"back_ns", R(back_ns), 1},
    {"omitted_ns", R(omitted_ns), 1},
    {"omitted_bytes", R(omitted_bytes), 0},
};
#undef R

/* The small fields: int or uint32_t, each bounded. */
static void put_small(struct ttcp_frame *f, const struct ttcp_result *r)
{
    ttcp_frame_add_u64(f, "started", (uint64_t)r->started);
    ttcp_frame_add_u64(f, "interrupted", (uint64_t)r->interrupted);
    ttcp_frame_add_u64(f, "idle_timeout", (uint64_t)r->idle_timeout);
    ttcp_frame_add_u64(f, "warnings", r->warnings);
    ttcp_frame_add_u64(f, "failure", (uint64_t)-r->failure.code);
    ttcp_frame_add_u64(f, "failure_op", (uint64_t)r->failure.op);
    ttcp_frame_add_u64(f, "tcp_end_asked", (uint64_t)r->tcp_end_asked);
    ttcp_frame_add_u64(f, "tcp_end_valid", (uint64_t)r->tcp_end_valid);
    ttcp_frame_add_u64(f, "mss", r->tcp_end.mss);
    ttcp_frame_add_u64(f, "snd_wnd", r->tcp_end.snd_wnd);
    ttcp_frame_add_u64(f, "rcv_wnd", r->tcp_end.rcv_wnd);
    ttcp_frame_add_u64(f, "cwnd", r->tcp_end.cwnd);
    ttcp_frame_add_u64(f, "srtt_us", r->tcp_end.srtt_us);
    ttcp_frame_add_u64(f, "rttvar_us", r->tcp_end.rttvar_us);
    ttcp_frame_add_u64(f, "verify_done", (uint64_t)r->verify_done);
    ttcp_frame_add_u64(f, "verify_kind", (uint64_t)(r->verify.kind + 1)); /* 0: not yet known */
    ttcp_frame_add_u64(f, "seed_used", (uint64_t)r->seed_used);
    ttcp_frame_add_u64(f, "udp_stats_valid", (uint64_t)r->udp_stats_valid);
    ttcp_frame_add_u64(f, "back_done", (uint64_t)r->back_done);
    /* jitter in whole nanoseconds: a double needs no more on the wire */
    ttcp_frame_add_u64(f, "udp_jitter_ns",
                       r->udp.jitter_ns > 0 && r->udp.jitter_ns < 1e18 ? (uint64_t)r->udp.jitter_ns : 0);
}

/* The marks the far end's socket read back, and its congestion control. */
static void put_marks(struct ttcp_frame *f, const struct ttcp_result *r)
{
    if (r->marks_asked)
        ttcp_frame_add_u64(f, "marks_asked", r->marks_asked);
    if (r->tos_valid)
        ttcp_frame_add_u64(f, "tos", (uint64_t)r->tos);
    if (r->congestion_valid)
        ttcp_frame_add(f, "congestion", r->congestion);
    if (r->fq_rate_valid)
        ttcp_frame_add_u64(f, "fq_rate_bps", r->fq_rate_bps);
    if (r->failure.path_mtu > 0) /* --dont-fragment: what its system learnt */
        ttcp_frame_add_u64(f, "failure_mtu", (uint64_t)r->failure.path_mtu);
}

/* --analyze's facts, when that end took them: "analysis" is 1 + the bits
 * of the TCP statistics its OS gave; the rest only when not 0 (a frame
 * holds 64 fields). */
static const struct {
    const char *key;
    size_t offset;
    size_t size;
    uint64_t max;
} analysis_fields[] = {
#define A(key, field, max) {key, offsetof(struct ttcp_result, field), \
                            sizeof(((struct ttcp_result *)0)->field), max}
    A("min_rtt_us", tcp_end.min_rtt_us, UINT32_MAX),
    A("delivery_rate", tcp_end.delivery_rate, UINT64_MAX / 16),
    A("busy_us", tcp_end.busy_us, MAX_NS / 1000),
    A("rwnd_limited_us", tcp_end.rwnd_limited_us, MAX_NS / 1000),
    A("sndbuf_limited_us", tcp_end.sndbuf_limited_us, MAX_NS / 1000),
    A("bytes_sent", tcp_end.bytes_sent, UINT64_MAX / 2),
    A("bytes_retrans", tcp_end.bytes_retrans, UINT64_MAX / 2),
    A("rtt_sum_us", rtt_sum_us, UINT64_MAX / 2),
    A("rtt_samples", rtt_samples, UINT32_MAX),
    A("path_mtu", path_mtu, 65535),
    A("sndbuf", sndbuf_bytes, INT32_MAX),
    A("rcvbuf", rcvbuf_bytes, INT32_MAX),
#undef A
};

/* A field of 4 or 8 bytes, unsigned or a non-negative int, as a number. */
static uint64_t field_value(const void *p, size_t size)
{
    uint32_t v32;
    uint64_t v64;
    if (size == sizeof v64) {
        memcpy(&v64, p, sizeof v64);
        return v64;
    }
    memcpy(&v32, p, sizeof v32);
    return v32;
}

static void put_analysis(struct ttcp_frame *f, const struct ttcp_result *r)
{
    size_t i;
    if (!r->analysis_taken)
        return;
    ttcp_frame_add_u64(f, "analysis", 1u + (r->tcp_end.have & TT_TCPI_ALL));
    for (i = 0; i < sizeof analysis_fields / sizeof analysis_fields[0]; i++) {
        uint64_t v = field_value((const char *)r + analysis_fields[i].offset,
                                 analysis_fields[i].size);
        if (v != 0)
            ttcp_frame_add_u64(f, analysis_fields[i].key, v);
    }
}

void ttcp_wire_result(struct ttcp_frame *f, int stream, const struct ttcp_result *r)
{
    struct ttcp_result delta = *r;
    size_t i;
    /* the CPU time of the test alone, as the far end counted it */
    delta.cpu_end.user_ns = r->cpu_end.user_ns - r->cpu_start.user_ns;
    delta.cpu_end.sys_ns = r->cpu_end.sys_ns - r->cpu_start.sys_ns;
    ttcp_frame_begin(f, "result");
    ttcp_frame_add_u64(f, "stream", (uint64_t)stream);
    for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *p = (const char *)&delta + fields[i].offset;
        uint64_t v;
        if (fields[i].is_signed) {
            int64_t sv;
            memcpy(&sv, p, sizeof sv);
            v = sv < 0 ? 0 : (uint64_t)sv;
        } else {
            memcpy(&v, p, sizeof v);
        }
        ttcp_frame_add_u64(f, fields[i].key, v);
    }
    put_small(f, r);
    put_marks(f, r);
    put_analysis(f, r);
    ttcp_frame_end(f);
}

/* Reads one optional bounded number; absent is 0. */
static int get(const struct ttcp_message *m, const char *key, uint64_t max, uint64_t *out,
               char *why, size_t why_len)
{
    *out = 0;
    if (ttcp_proto_get(m, key) == NULL)
        return 0;
    return ttcp_proto_get_u64(m, key, 0, max, out, why, why_len);
}

static int read_small(const struct ttcp_message *m, struct ttcp_result *r, char *why,
                      size_t why_len)
{
    uint64_t v[20];
    static const struct { const char *key; uint64_t max; } small[20] = {
        {"started", 1}, {"interrupted", 1}, {"idle_timeout", 1},
        {"warnings", UINT32_MAX}, {"failure", 1000}, {"failure_op", 100},
        {"tcp_end_asked", 1}, {"tcp_end_valid", 1}, {"mss", UINT32_MAX},
        {"snd_wnd", UINT32_MAX}, {"rcv_wnd", UINT32_MAX}, {"cwnd", UINT32_MAX},
        {"srtt_us", UINT32_MAX}, {"rttvar_us", UINT32_MAX}, {"verify_done", 1},
        {"verify_kind", TTCP_PAYLOAD_ZEROS + 1}, {"seed_used", 1}, {"udp_stats_valid", 1},
        {"udp_jitter_ns", 1000000000000000000ull}, {"back_done", 1},
    };
    int i;
    for (i = 0; i < 20; i++)
        if (get(m, small[i].key, small[i].max, &v[i], why, why_len) != 0)
            return -1;
    r->started = (int)v[0];
    r->interrupted = (int)v[1];
    r->idle_timeout = (int)v[2];
    r->warnings = (uint32_t)v[3] & ((1u << TTCP_WARN_COUNT) - 1); /* a later peer's: not ours to name */
    r->failure.code = -(int)v[4];
    r->failure.op = (enum ttcp_op)v[5];
    r->tcp_end_asked = (int)v[6];
    r->tcp_end_valid = (int)v[7];
    r->tcp_end.mss = (uint32_t)v[8];
    r->tcp_end.snd_wnd = (uint32_t)v[9];
    r->tcp_end.rcv_wnd = (uint32_t)v[10];
    r->tcp_end.cwnd = (uint32_t)v[11];
    r->tcp_end.srtt_us = (uint32_t)v[12];
    r->tcp_end.rttvar_us = (uint32_t)v[13];
    r->verify_done = (int)v[14];
    r->verify.kind = (int)v[15] - 1;
    r->seed_used = (int)v[16];
    r->udp_stats_valid = (int)v[17];
    r->udp.jitter_ns = (double)v[18];
    r->back_done = (int)v[19];
    return 0;
}

static int read_marks(const struct ttcp_message *m, struct ttcp_result *r, char *why,
                      size_t why_len)
{
    const char *congestion = ttcp_proto_get(m, "congestion");
    uint64_t asked, tos, mtu = 0;
    if (get(m, "marks_asked", TTCP_MARK_TOS | TTCP_MARK_CONGESTION | TTCP_MARK_FQ_RATE, &asked,
            why, why_len) != 0 ||
        get(m, "tos", 255, &tos, why, why_len) != 0 ||
        get(m, "fq_rate_bps", UINT64_MAX / 2, &r->fq_rate_bps, why, why_len) != 0 ||
        get(m, "failure_mtu", 65535, &mtu, why, why_len) != 0)
        return -1;
    r->fq_rate_valid = ttcp_proto_get(m, "fq_rate_bps") != NULL;
    r->failure.path_mtu = (int)mtu;
    r->marks_asked = (unsigned)asked;
    r->tos_valid = ttcp_proto_get(m, "tos") != NULL;
    r->tos = (int)tos;
    r->congestion_valid = congestion != NULL && strlen(congestion) <= TTCP_CONGESTION_MAX;
    if (r->congestion_valid)
        memcpy(r->congestion, congestion, strlen(congestion) + 1);
    return 0;
}

static int read_analysis(const struct ttcp_message *m, struct ttcp_result *r, char *why,
                         size_t why_len)
{
    uint64_t taken, v;
    size_t i;
    if (get(m, "analysis", 1u + TT_TCPI_ALL, &taken, why, why_len) != 0)
        return -1;
    if (taken == 0)
        return 0;
    r->analysis_taken = 1;
    r->tcp_end.have = (unsigned)(taken - 1);
    r->limits_span_ns = r->real_ns + r->omitted_ns; /* as the far end counted it */
    for (i = 0; i < sizeof analysis_fields / sizeof analysis_fields[0]; i++) {
        char *p = (char *)r + analysis_fields[i].offset;
        if (get(m, analysis_fields[i].key, analysis_fields[i].max, &v, why, why_len) != 0)
            return -1;
        if (analysis_fields[i].size == sizeof v) {
            memcpy(p, &v, sizeof v);
        } else {
            uint32_t v32 = (uint32_t)v;
            memcpy(p, &v32, sizeof v32);
        }
    }
    return 0;
}

int ttcp_wire_read_result(const struct ttcp_message *m, int *stream, struct ttcp_result *r,
                          char *why, size_t why_len)
{
    uint64_t s;
    size_t i;
    memset(r, 0, sizeof *r);
    if (ttcp_proto_get_u64(m, "stream", 0, TTCP_STREAM_IDS - 1, &s, why, why_len) != 0)
        return -1;
    *stream = (int)s;
    for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        uint64_t v;
        char *p = (char *)r + fields[i].offset;
        if (get(m, fields[i].key, fields[i].is_signed ? MAX_NS : UINT64_MAX, &v, why,
                why_len) != 0)
            return -1;
        if (fields[i].is_signed) {
            int64_t sv = (int64_t)v;
            memcpy(p, &sv, sizeof sv);
        } else {
            memcpy(p, &v, sizeof v);
        }
    }
    r->omitted = r->omitted_ns > 0;
    if (read_small(m, r, why, why_len) != 0 || read_marks(m, r, why, why_len) != 0)
        return -1;
    return read_analysis(m, r, why, why_len);
}

void ttcp_wire_interval(struct ttcp_frame *f, int stream, const struct ttcp_interval *in)
{
    ttcp_frame_begin(f, "interval");
    ttcp_frame_add_u64(f, "stream", (uint64_t)stream);
    ttcp_frame_add_u64(f, "start_ns", (uint64_t)in->start_ns);
    ttcp_frame_add_u64(f, "end_ns", (uint64_t)in->end_ns);
    ttcp_frame_add_u64(f, "bytes", in->bytes);
    if (in->omitted)
        ttcp_frame_add_u64(f, "omitted", 1);
    if (in->tcp_valid) {
        ttcp_frame_add_u64(f, "srtt_us", in->tcp.srtt_us);
        ttcp_frame_add_u64(f, "cwnd", in->tcp.cwnd);
        ttcp_frame_add_u64(f, "retransmits", in->tcp.retransmits);
    }
    if (in->udp_valid) {
        ttcp_frame_add_u64(f, "udp_datagrams", in->udp_datagrams);
        ttcp_frame_add_u64(f, "udp_expected", in->udp_expected);
        ttcp_frame_add_u64(f, "udp_lost", in->udp_lost);
        ttcp_frame_add_u64(f, "udp_jitter_ns", in->udp_jitter_ns > 0 && in->udp_jitter_ns < 1e18
                                                   ? (uint64_t)in->udp_jitter_ns : 0);
    }
    ttcp_frame_end(f);
}

/* The UDP figures of an interval, when the frame has them. */
static int read_interval_udp(const struct ttcp_message *m, struct ttcp_interval *in, char *why,
                             size_t why_len)
{
    uint64_t jitter;
    if (get(m, "udp_datagrams", UINT64_MAX, &in->udp_datagrams, why, why_len) != 0 ||
        get(m, "udp_expected", UINT64_MAX, &in->udp_expected, why, why_len) != 0 ||
        get(m, "udp_lost", in->udp_expected, &in->udp_lost, why, why_len) != 0 ||
        get(m, "udp_jitter_ns", MAX_NS, &jitter, why, why_len) != 0)
        return -1;
    in->udp_valid = ttcp_proto_get(m, "udp_expected") != NULL;
    in->udp_jitter_ns = (double)jitter;
    return 0;
}

int ttcp_wire_read_interval(const struct ttcp_message *m, int *stream,
                            struct ttcp_interval *in, char *why, size_t why_len)
{
    uint64_t s, a, b, srtt, cwnd, omitted;
    memset(in, 0, sizeof *in);
    if (ttcp_proto_get_u64(m, "stream", 0, TTCP_STREAM_IDS - 1, &s, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "start_ns", 0, MAX_NS, &a, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "end_ns", a, MAX_NS, &b, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "bytes", 0, UINT64_MAX, &in->bytes, why, why_len) != 0 ||
        get(m, "srtt_us", UINT32_MAX, &srtt, why, why_len) != 0 ||
        get(m, "cwnd", UINT32_MAX, &cwnd, why, why_len) != 0 ||
        get(m, "retransmits", UINT64_MAX, &in->tcp.retransmits, why, why_len) != 0 ||
        get(m, "omitted", 1, &omitted, why, why_len) != 0 ||
        read_interval_udp(m, in, why, why_len) != 0)
        return -1;
    *stream = (int)s;
    in->omitted = (int)omitted;
    in->start_ns = (int64_t)a;
    in->end_ns = (int64_t)b;
    in->tcp_valid = ttcp_proto_get(m, "srtt_us") != NULL;
    in->tcp.srtt_us = (uint32_t)srtt;
    in->tcp.cwnd = (uint32_t)cwnd;
    return 0;
}
