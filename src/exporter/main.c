/* ttcp-exporter: a Prometheus probe exporter (the blackbox-exporter model)
 * in front of ttcp -S servers. A program of its own so that ttcp stays one
 * static file without libmicrohttpd (docs/guide.md, "Prometheus"). */
#include <microhttpd.h>
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "base/version.h"
#include "exporter/probe.h"
#include "remote/auth.h"

#define LISTEN_DEFAULT "127.0.0.1:9777"
#define REPLY_MAX 32768 /* a probe's whole exposition: analyze=1, latency=1, web=1 and a
                          * target of EXPORTER_TARGET_LEN repeated in each sample's label */
#define PARAM_MAX 256 /* a parameter's value, in bytes */
#define BODY_MAX 65536 /* a request's body (there should be none), in bytes */

static const char usage[] =
    "usage: ttcp-exporter [--listen [ADDRESS:]PORT] [--allow PREFIX]... [--target HOST]...\n"
    "                     [--max-probes N] [--key-file FILE]\n"
    "  --listen      where to answer (default " LISTEN_DEFAULT ")\n"
    "  --allow       numeric targets inside this IPv4 or IPv6 prefix may be probed\n"
    "  --target      this target (a name or an address, exactly as asked) may be probed\n"
    "  --max-probes  probes at once, 1-16 (default 4); one per target at a time\n"
    "  --key-file    the pre-shared key of servers started with --key-file (read at each probe)\n"
    "Without --allow or --target every probe is refused.\n"
    "GET /probe?target=HOST[&port=N][&reverse=1][&udp=1][&time=S][&rate=R][&streams=N]\n"
    "           [&analyze=1][&compression=1][&latency=1[&latency_interval=S][&latency_idle=S]]\n"
    "           [&web=1]\n"
    "GET /metrics: the exporter's own counters\n";

struct exporter {
    struct exporter_policy policy;
    struct exporter_state state;
};

/* One request's parameters as they came; bad: a reason already found. */
struct query_walk {
    struct exporter_query q;
    const char *bad;
};

static enum MHD_Result take_param(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value)
{
    static const char *const names[] = {
        "target",  "port",        "reverse", "udp",           "time",        "rate",
        "streams", "analyze",     "compression", "latency", "latency_interval", "latency_idle", "web"};
    struct query_walk *w = cls;
    const char **slots[] = {&w->q.target,      &w->q.port,        &w->q.reverse,
                            &w->q.udp,         &w->q.time,        &w->q.rate,
                            &w->q.streams,     &w->q.analyze,     &w->q.compression,
                            &w->q.latency,     &w->q.latency_interval, &w->q.latency_idle,
                            &w->q.web};
    size_t i;
    (void)kind;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(key, names[i]) == 0) {
            if (*slots[i] != NULL)
                w->bad = "a parameter is given twice";
            else if (value == NULL || strlen(value) > PARAM_MAX)
                w->bad = "a parameter's value is missing or too long";
            *slots[i] = value;
            return MHD_YES;
        }
    w->bad = "unknown parameter (target, port, reverse, udp, time, rate, streams, analyze, "
             "compression, latency, latency_interval, latency_idle, web)";
    return MHD_YES;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
                             const char *text, size_t len)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, (void *)text, MHD_RESPMEM_MUST_COPY);
    enum MHD_Result ok;
    if (r == NULL)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result reply_line(struct MHD_Connection *c, unsigned status, const char *line)
{
    char text[400];
    int n = snprintf(text, sizeof text, "%s\n", line);
    return reply(c, status, "text/plain; charset=utf-8", text,
                 n > 0 && (size_t)n < sizeof text ? (size_t)n : strlen(text));
}

static const char exposition[] = "text/plain; version=0.0.4; charset=utf-8";

static enum MHD_Result probe(struct exporter *e, struct MHD_Connection *c)
{
    struct query_walk w;
    struct exporter_plan plan;
    char why[300], text[REPLY_MAX];
    int status, slot, ok;
    int64_t ns;
    memset(&w, 0, sizeof w);
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, take_param, &w);
    w.q.scrape_timeout = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                     "X-Prometheus-Scrape-Timeout-Seconds");
    if (w.bad != NULL) {
        exporter_count(&e->state, 400);
        return reply_line(c, MHD_HTTP_BAD_REQUEST, w.bad);
    }
    status = exporter_plan_make(&e->policy, &w.q, &plan, why, sizeof why);
    if (status != 0) {
        exporter_count(&e->state, status);
        return reply_line(c, (unsigned)status, why);
    }
    slot = exporter_begin(&e->state, plan.host);
    if (slot < 0)
        return reply_line(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                          slot == -1 ? "busy: this target is being probed now"
                                     : "busy: as many probes as --max-probes run now");
    ok = exporter_probe_run(&plan, text, sizeof text, &ns);
    exporter_end(&e->state, slot, ok, ns);
    if (strlen(text) + 1 >= sizeof text) /* cut: half a line would spoil the whole scrape */
        return reply_line(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
                          "the probe's figures did not fit the answer's buffer");
    return reply(c, MHD_HTTP_OK, exposition, text, strlen(text));
}

/* 1 when a request's body, if it has one, is of a length told beforehand
 * and at most BODY_MAX: read to its end and refused then. A longer or an
 * endless (chunked) one would hold a connection for as long as it came. */
static int body_bounded(struct MHD_Connection *c)
{
    const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                  MHD_HTTP_HEADER_CONTENT_LENGTH);
    uint64_t n = 0;
    char why[128];
    if (MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING))
        return 0;
    return len == NULL ||
           ttcp_parse_u64(len, TTCP_SUFFIX_NONE, 0, BODY_MAX, &n, why, sizeof why) == 0;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
    static char with_body; /* *con_cls once a piece of a body came */
    struct exporter *e = cls;
    char text[REPLY_MAX];
    (void)version, (void)upload;
    if (*con_cls == NULL) { /* the headers: answer once the request is whole */
        if (!body_bounded(c))
            return MHD_NO; /* closed at once: no answer to wait for */
        *con_cls = e;
        return MHD_YES;
    }
    if (*upload_size != 0) { /* a body: dropped as it comes, answered at its end */
        *upload_size = 0;
        *con_cls = &with_body;
        return MHD_YES;
    }
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0)
        return reply_line(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET");
    if (*con_cls == &with_body) {
        exporter_count(&e->state, 400);
        return reply_line(c, MHD_HTTP_BAD_REQUEST, "a GET without a body");
    }
    if (strcmp(url, "/probe") == 0)
        return probe(e, c);
    if (strcmp(url, "/metrics") == 0)
        return reply(c, MHD_HTTP_OK, exposition, text,
                     exporter_counters_text(&e->state, text, sizeof text));
    return reply_line(c, MHD_HTTP_NOT_FOUND, "not found: /probe?target=HOST or /metrics");
}

/* "[ADDRESS:]PORT" ("[::1]:9777" for IPv6) into a listening socket. */
static int listen_on(const char *text, tt_socket *out, char *why, size_t why_len)
{
    char host[128] = "127.0.0.1", reason[128];
    const char *colon = strrchr(text, ':'), *port_text = colon ? colon + 1 : text;
    size_t n = colon ? (size_t)(colon - text) : 0;
    struct tt_addr_list list;
    uint64_t port;
    if (ttcp_parse_u64(port_text, TTCP_SUFFIX_NONE, 1, 65535, &port, reason, sizeof reason)) {
        snprintf(why, why_len, "--listen: port %s", reason);
        return -1;
    }
    if (colon && n >= 2 && text[0] == '[' && text[n - 1] == ']')
        text++, n -= 2;
    if (colon && (n == 0 || n >= sizeof host)) {
        snprintf(why, why_len, "--listen: '%.64s' is not [ADDRESS:]PORT", text);
        return -1;
    }
    if (colon)
        memcpy(host, text, n), host[n] = '\0';
    if (tt_resolve(host, (uint16_t)port, TT_FAMILY_ANY, 0, &list) != 0 || list.count == 0 ||
        tt_socket_open(list.addr[0].family, 0, out) != 0) {
        snprintf(why, why_len, "--listen: cannot use the address %.64s", host);
        return -1;
    }
    tt_setopt(*out, TT_OPT_REUSEADDR, 1);
    if (tt_bind(*out, &list.addr[0]) != 0 || tt_listen(*out, 64) != 0) {
        snprintf(why, why_len, "--listen: cannot listen on %.64s port %llu (in use?)", host,
                 (unsigned long long)port);
        tt_close(*out);
        return -1;
    }
    return 0;
}

/* The key file as ttcp -C will read it at each probe: refused here at once
 * rather than at every scrape (a key that others may read, not hex). */
static int key_usable(const char *path, char *why, size_t why_len)
{
    struct ttcp_key key;
    int rc = ttcp_key_load(path, &key, why, why_len); /* its reason names --key-file */
    ttcp_key_wipe(&key);
    return rc;
}

/* argv into the policy; 0, 1 for --help or --version (printed), -1 with a reason. */
static int parse_args(int argc, char **argv, struct exporter *e, const char **listen,
                      int *max, char *why, size_t why_len)
{
    struct exporter_policy *pol = &e->policy;
    uint64_t v;
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return fputs(usage, stdout), 1;
        if (strcmp(a, "--version") == 0)
            return printf("ttcp-exporter %s\n", ttcp_version()), 1;
        if (val == NULL) {
            snprintf(why, why_len, "%.40s: unknown, or its value is missing", a);
            return -1;
        }
        i++;
        if (strcmp(a, "--listen") == 0) {
            *listen = val;
        } else if (strcmp(a, "--allow") == 0) {
            if (pol->allow.count == TTCP_ALLOW_MAX)
                return snprintf(why, why_len, "--allow: at most %d", TTCP_ALLOW_MAX), -1;
            if (ttcp_prefix_parse(val, &pol->allow.prefix[pol->allow.count++], why, why_len))
                return -1;
        } else if (strcmp(a, "--target") == 0) {
            if (pol->target_count == EXPORTER_TARGETS_MAX)
                return snprintf(why, why_len, "--target: at most %d", EXPORTER_TARGETS_MAX), -1;
            pol->targets[pol->target_count++] = val;
        } else if (strcmp(a, "--key-file") == 0) {
            if (key_usable(val, why, why_len) != 0)
                return -1;
            pol->key_file = val;
        } else if (strcmp(a, "--max-probes") == 0) {
            char reason[200];
            if (ttcp_parse_u64(val, TTCP_SUFFIX_NONE, 1, EXPORTER_PROBES_MAX, &v, reason,
                               sizeof reason))
                return snprintf(why, why_len, "--max-probes: %s", reason), -1;
            *max = (int)v;
        } else {
            snprintf(why, why_len, "%.40s: unknown option (--help)", a);
            return -1;
        }
    }
    return 0;
}

static int serve(struct exporter *e, tt_socket s)
{
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL, NULL, answer,
        e, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)s, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)(EXPORTER_PROBES_MAX * 2), MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
        MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
    if (d == NULL) {
        fputs("ttcp-exporter: the HTTP server could not start\n", stderr);
        return 1;
    }
    while (!tt_interrupted())
        tt_sleep_ns(100000000ll);
    MHD_stop_daemon(d);
    return 0;
}

int main(int argc, char **argv)
{
    static struct exporter e; /* its threads share it until main returns */
    const char *listen = LISTEN_DEFAULT;
    char why[300];
    int max = 4, rc;
    tt_socket s;
    rc = parse_args(argc, argv, &e, &listen, &max, why, sizeof why);
    if (rc != 0) {
        if (rc < 0)
            fprintf(stderr, "ttcp-exporter: %s\n", why);
        return rc < 0 ? 2 : 0;
    }
    if (tt_init() != 0 || exporter_state_init(&e.state, max) != 0) {
        fputs("ttcp-exporter: cannot start\n", stderr);
        return 1;
    }
    if (listen_on(listen, &s, why, sizeof why) != 0) {
        fprintf(stderr, "ttcp-exporter: %s\n", why);
        return 1;
    }
    if (e.policy.allow.count == 0 && e.policy.target_count == 0)
        fputs("ttcp-exporter: no --allow and no --target: every probe is refused\n", stderr);
    fprintf(stderr, "ttcp-exporter: listening on %s\n", listen);
    rc = serve(&e, s);
    tt_cleanup();
    return rc;
}
