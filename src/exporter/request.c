/* A /probe request into a ttcp -C test: every number bounded (base/parse.c),
 * the target allowed before anything is sent, and the test's options made
 * by the same parser and validation as ttcp's command line. */
#include "exporter/request.h"

#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "base/text.h"

/* A host name or a numeric address: letters, digits, '.', ':', '-', '_',
 * not starting with '-' (it becomes a word of an argument vector). */
static int target_ok(const char *t)
{
    size_t n = strlen(t), i;
    if (n == 0 || n > EXPORTER_TARGET_LEN || t[0] == '-')
        return 0;
    for (i = 0; i < n; i++) {
        char c = t[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == ':' || c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

/* 1 when the owner allows target: a name of the list, or a numeric address
 * inside a prefix (names are never looked up here: no DNS answer decides).
 * host: the host the probe is of, one text per host for a numeric address
 * however it was written ("0::1" is "::1", "::ffff:10.0.0.1" "10.0.0.1"),
 * so that one probe per target at a time cannot be dodged by spelling. */
static int allowed(const struct exporter_policy *pol, const char *target, char *host,
                   size_t host_len)
{
    struct tt_addr_list list;
    unsigned char ip[16];
    int i, numeric = tt_ip_parse(target, ip) != 0 &&
                     tt_resolve(target, 0, TT_FAMILY_ANY, 0, &list) == 0 && list.count > 0;
    snprintf(host, host_len, "%s", target);
    if (numeric)
        tt_addr_text(&list.addr[0], host, host_len);
    for (i = 0; i < pol->target_count; i++)
        if (strcmp(pol->targets[i], target) == 0)
            return 1;
    return pol->allow.count > 0 && numeric && ttcp_allow_match(&pol->allow, &list.addr[0]);
}

static int bad(char *why, size_t why_len, const char *name, const char *reason)
{
    snprintf(why, why_len, "%s: %s", name, reason);
    ttcp_text_printable(why);
    return 400;
}

/* A 0/1 flag; 0 when absent. */
static int flag(const char *text, const char *name, int *out, char *why, size_t why_len)
{
    char reason[128];
    uint64_t v = 0;
    if (text != NULL && ttcp_parse_u64(text, TTCP_SUFFIX_NONE, 0, 1, &v, reason, sizeof reason))
        return bad(why, why_len, name, reason);
    *out = (int)v;
    return 0;
}

/* The test's length: time, else the scrape timeout less a margin, else the
 * default; and the whole probe's: the scrape timeout (Prometheus has gone
 * after it), else the test's and a slack, whichever ends first. Two runs
 * (compression=1) share the scrape timeout: each gets its half. */
/* idle_ns: latency=1's probing before the data, which each run spends on
 * top of its test. */
static int length(const struct exporter_query *q, int udp, int64_t idle_ns,
                  struct exporter_plan *p, int64_t *ns, char *why, size_t why_len)
{
    char reason[128];
    int64_t scrape = 0;
    *ns = EXPORTER_DEFAULT_NS;
    if (q->scrape_timeout != NULL &&
        ttcp_parse_seconds(q->scrape_timeout, 1, 3600ll * 1000000000ll, &scrape, reason,
                           sizeof reason) != 0)
        scrape = 0; /* not Prometheus' own: ignored, as before */
    if (q->time != NULL) {
        if (ttcp_parse_seconds(q->time, EXPORTER_MIN_NS, EXPORTER_MAX_NS, ns, reason,
                               sizeof reason) != 0)
            return bad(why, why_len, "time", reason);
    } else if (scrape != 0) {
        int64_t t = scrape / p->runs - (udp ? EXPORTER_UDP_MARGIN_NS : EXPORTER_MARGIN_NS) -
                    idle_ns;
        *ns = t < EXPORTER_MIN_NS ? EXPORTER_MIN_NS : t > EXPORTER_MAX_NS ? EXPORTER_MAX_NS : t;
    }
    p->run_limit_ns = *ns + idle_ns + EXPORTER_SLACK_NS;
    p->limit_ns = p->run_limit_ns * p->runs;
    if (scrape != 0 && scrape < p->limit_ns)
        p->limit_ns = scrape;
    return 0;
}

/* "S.NNNNNNNNN": seconds as ttcp's parser takes them back, exactly. */
static void seconds_text(char *buf, size_t len, int64_t ns)
{
    snprintf(buf, len, "%lld.%09lld", (long long)(ns / 1000000000ll),
             (long long)(ns % 1000000000ll));
}

/* latency=1's spacing and idle time, bounded as ttcp's own options; the
 * idle seconds the run spends before its test (ttcp's default when not
 * given; 0 without latency=1, whose options the parser then refuses). */
static int latency_numbers(const struct exporter_query *q, int latency, struct exporter_plan *p,
                           int64_t *idle_ns, char *why, size_t why_len)
{
    char reason[128];
    int64_t ns;
    *idle_ns = latency ? TTCP_LATENCY_IDLE_NS : 0;
    if (q->latency_interval != NULL) {
        if (ttcp_parse_seconds(q->latency_interval, EXPORTER_LATENCY_INTERVAL_MIN_NS,
                               EXPORTER_LATENCY_INTERVAL_MAX_NS, &ns, reason, sizeof reason))
            return bad(why, why_len, "latency_interval", reason);
        seconds_text(p->latency_interval, sizeof p->latency_interval, ns);
    }
    if (q->latency_idle != NULL) {
        if (ttcp_parse_seconds(q->latency_idle, 0, EXPORTER_LATENCY_IDLE_MAX_NS, &ns, reason,
                               sizeof reason))
            return bad(why, why_len, "latency_idle", reason);
        seconds_text(p->latency_idle, sizeof p->latency_idle, ns);
        *idle_ns = latency ? ns : 0;
    }
    return 0;
}

static int numbers(const struct exporter_query *q, int udp, int latency,
                   struct exporter_plan *p, char *why, size_t why_len)
{
    char reason[128];
    uint64_t port = TTCP_DEFAULT_PORT, rate = 0, streams = 1;
    int64_t ns, idle_ns;
    if (q->port && ttcp_parse_u64(q->port, TTCP_SUFFIX_NONE, 1, 65535, &port, reason,
                                  sizeof reason))
        return bad(why, why_len, "port", reason);
    if (q->rate && ttcp_parse_rate(q->rate, 1000, 100000000000ull, &rate, reason,
                                   sizeof reason))
        return bad(why, why_len, "rate", reason);
    if (q->streams && ttcp_parse_u64(q->streams, TTCP_SUFFIX_NONE, 1, EXPORTER_STREAMS_MAX,
                                     &streams, reason, sizeof reason))
        return bad(why, why_len, "streams", reason);
    if (latency_numbers(q, latency, p, &idle_ns, why, why_len) != 0 ||
        length(q, udp, idle_ns, p, &ns, why, why_len) != 0)
        return 400;
    snprintf(p->port, sizeof p->port, "%llu", (unsigned long long)port);
    snprintf(p->rate, sizeof p->rate, "%llu", (unsigned long long)rate);
    snprintf(p->streams, sizeof p->streams, "%llu", (unsigned long long)streams);
    snprintf(p->time, sizeof p->time, "%lld.%03lld", (long long)(ns / 1000000000ll),
             (long long)(ns % 1000000000ll / 1000000ll));
    return 0;
}

/* A request's 0/1 parameters. */
struct probe_flags {
    int reverse, udp, analyze, compression, latency;
};

/* --latency [--latency-interval S] [--latency-idle S] as the request gave
 * them (without latency=1 the two are still passed: ttcp's parser refuses
 * them in its own words); n: the next word of argv. */
static int latency_options(struct exporter_plan *p, const struct probe_flags *f, int n)
{
    if (f->latency)
        p->argv[n++] = "--latency";
    if (p->latency_interval[0] != '\0') {
        p->argv[n++] = "--latency-interval";
        p->argv[n++] = p->latency_interval;
    }
    if (p->latency_idle[0] != '\0') {
        p->argv[n++] = "--latency-idle";
        p->argv[n++] = p->latency_idle;
    }
    return n;
}

/* ttcp -C -p PORT --time S [-r] [-u] [-R RATE] [-P N] [--analyze] [--compression]
 * [--latency [--latency-interval S] [--latency-idle S]] [--key-file F] TARGET,
 * through ttcp's parser (which refuses --analyze and --compression with -u,
 * in its own words). */

static int options(struct exporter_plan *p, const char *key_file, const struct probe_flags *f,
                   char *why, size_t why_len)
{
    int n = 0;
    char reason[200];
    p->argv[n++] = "ttcp";
    p->argv[n++] = "-C";
    p->argv[n++] = "-p";
    p->argv[n++] = p->port;
    p->argv[n++] = "--time";
    p->argv[n++] = p->time;
    if (f->reverse)
        p->argv[n++] = "-r";
    if (f->udp)
        p->argv[n++] = "-u";
    if (strcmp(p->rate, "0") != 0) {
        p->argv[n++] = "-R";
        p->argv[n++] = p->rate;
    }
    p->argv[n++] = "-P";
    p->argv[n++] = p->streams;
    if (f->analyze)
        p->argv[n++] = "--analyze";
    if (f->compression)
        p->argv[n++] = "--compression";
    n = latency_options(p, f, n);
    if (key_file != NULL) {
        p->argv[n++] = "--key-file";
        p->argv[n++] = (char *)key_file;
    }
    p->argv[n++] = p->target;
    p->argv[n] = NULL;
    if (ttcp_options_parse(&p->opts, n, p->argv, 0, reason, sizeof reason) != 0)
        return bad(why, why_len, "the test", reason);
    return 0;
}

int exporter_plan_make(const struct exporter_policy *pol, const struct exporter_query *q,
                       struct exporter_plan *plan, char *why, size_t why_len)
{
    struct probe_flags f;
    int rc;
    memset(plan, 0, sizeof *plan);
    if (q->target == NULL)
        return bad(why, why_len, "target", "missing (/probe?target=HOST)");
    if (!target_ok(q->target))
        return bad(why, why_len, "target", "not a host name or a numeric address");
    if ((rc = flag(q->reverse, "reverse", &f.reverse, why, why_len)) != 0 ||
        (rc = flag(q->udp, "udp", &f.udp, why, why_len)) != 0 ||
        (rc = flag(q->analyze, "analyze", &f.analyze, why, why_len)) != 0 ||
        (rc = flag(q->compression, "compression", &f.compression, why, why_len)) != 0 ||
        (rc = flag(q->latency, "latency", &f.latency, why, why_len)) != 0 ||
        (rc = flag(q->web, "web", &plan->web, why, why_len)) != 0)
        return rc;
    plan->runs = f.compression ? 2 : 1;
    if (numbers(q, f.udp, f.latency, plan, why, why_len) != 0)
        return 400;
    if (!allowed(pol, q->target, plan->host, sizeof plan->host)) {
        snprintf(why, why_len, "target %s: not allowed (--allow, --target)", q->target);
        return 403;
    }
    snprintf(plan->target, sizeof plan->target, "%s", q->target);
    return options(plan, pol->key_file, &f, why, why_len);
}
