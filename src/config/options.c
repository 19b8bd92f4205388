/* Option parsing: the table, a getopt-like walk over argv (clustered flags,
 * attached or separate arguments, options after the host as glibc allows),
 * then the cross-option rules, one per line. */
#include "config/options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "config/optable.h"
#include "ttcp/platform.h"

#define FIELD(name) offsetof(struct ttcp_options, name)
#define SECONDS(n) ((uint64_t)(n) * 1000000000ull)

/* Bounds: sizes up to 256 MiB per buffer, counts up to 2^48 buffers. */
#define MAX_BUFLEN (256u << 20)
#define MAX_NBUF (1ull << 48)

static const struct ttcp_optdef table[] = {
    {'t', NULL, OPTK_SET, FIELD(transmit), 1, 0, 0, 0, OPTS_HIDDEN, "-t", "transmit"},
    {'r', NULL, OPTK_SET, FIELD(transmit), 0, 0, 0, 0, OPTS_HIDDEN, "-r", "receive"},
    {'l', NULL, OPTK_NUMBER, FIELD(buflen), 0, TTCP_SUFFIX_BINARY, 1, MAX_BUFLEN,
     OPTS_COMMON, "-l ##", "length of bufs read from or written to network (default 8192)"},
    {'u', NULL, OPTK_SET, FIELD(udp), 1, 0, 0, 0, OPTS_COMMON, "-u", "use UDP instead of TCP"},
    {'p', NULL, OPTK_NUMBER, FIELD(port), 0, TTCP_SUFFIX_NONE, 1, 65535,
     OPTS_COMMON, "-p ##", "port number to send to or listen at (default 5001)"},
    {'s', NULL, OPTK_TOGGLE, FIELD(sinkmode), 0, 0, 0, 0, OPTS_COMMON, "-s",
     "-t: source a pattern to network\n\t\t-r: sink (discard) all data from network"},
    {'A', NULL, OPTK_NUMBER, FIELD(bufalign), 0, TTCP_SUFFIX_BINARY, 0, 16u << 20,
     OPTS_COMMON, "-A", "align the start of buffers to this modulus (default 16384)"},
    {'O', NULL, OPTK_NUMBER, FIELD(bufoffset), 0, TTCP_SUFFIX_BINARY, 0, 16u << 20,
     OPTS_COMMON, "-O", "start buffers at this offset from the modulus (default 0)"},
    {'v', NULL, OPTK_SET, FIELD(verbose), 1, 0, 0, 0, OPTS_COMMON, "-v",
     "verbose: print more statistics"},
    {'d', NULL, OPTK_SET, FIELD(sodebug), 1, 0, 0, 0, OPTS_COMMON, "-d",
     "set SO_DEBUG socket option"},
    {'b', NULL, OPTK_NUMBER, FIELD(sockbufsize), 0, TTCP_SUFFIX_BINARY, 1, 1u << 30,
     OPTS_COMMON, "-b ##", "set socket buffer size (if supported)"},
    {'f', NULL, OPTK_UNIT, FIELD(unit), 0, 0, 0, 0, OPTS_COMMON, "-f X",
     "format for rate: k,K = kilo{bit,byte}; m,M = mega; g,G = giga;\n\t\t"
     "bps, kbps, Mbps, Gbps = decimal bits per second"},
    {'n', NULL, OPTK_NUMBER, FIELD(nbuf), 0, TTCP_SUFFIX_NONE, 1, MAX_NBUF,
     OPTS_TRANSMIT, "-n##", "number of source bufs written to network (default 2048)"},
    {'D', NULL, OPTK_SET, FIELD(nodelay), 1, 0, 0, 0, OPTS_TRANSMIT, "-D",
     "don't buffer TCP writes (sets TCP_NODELAY socket option)"},
    {'B', NULL, OPTK_SET, FIELD(fullblocks), 1, 0, 0, 0, OPTS_RECEIVE, "-B",
     "for -s, only output full blocks as specified by -l (for TAR)"},
    {'T', NULL, OPTK_SET, FIELD(touch), 1, 0, 0, 0, OPTS_RECEIVE, "-T",
     "\"touch\": access each byte as it's read"},
    {'4', NULL, OPTK_SET, FIELD(family), TT_FAMILY_V4, 0, 0, 0, OPTS_EXTRA, "-4",
     "use IPv4 only"},
    {'6', NULL, OPTK_SET, FIELD(family), TT_FAMILY_V6, 0, 0, 0, OPTS_EXTRA, "-6",
     "use IPv6 only (default: the receiver takes both)"},
    {'c', NULL, OPTK_SET, FIELD(continuous), 1, 0, 0, 0, OPTS_EXTRA, "-c",
     "-t: send until interrupted or the receiver closes\n\t\t"
     "-r: take test after test until interrupted (PCATTCP's -c)"},
    {'I', NULL, OPTK_SET, FIELD(dialog), 1, 0, 0, 0, OPTS_EXTRA, "-I",
     "ask for the settings as Cisco IOS's ttcp does (answers from stdin)"},
    {0, "half-close", OPTK_SET, FIELD(half_close), 1, 0, 0, 0, OPTS_EXTRA, "--half-close",
     "-t: after sending, read what the receiver sends back\n\t\t"
     "-r: at the end, send -n buffers back (IOS's tcp half close)"},
    {0, "rcvwnd", OPTK_NUMBER, FIELD(rcvwnd), 0, TTCP_SUFFIX_BINARY, 1, 1u << 30, OPTS_EXTRA,
     "--rcvwnd ##", "TCP receive window (socket buffer) before connecting"},
    {0, "no-delayed-ack", OPTK_SET, FIELD(no_delayed_ack), 1, 0, 0, 0, OPTS_EXTRA,
     "--no-delayed-ack", "acknowledge every segment at once (where the OS allows)"},
    {0, "tcp-info", OPTK_SET, FIELD(tcp_info), 1, 0, 0, 0, OPTS_EXTRA, "--tcp-info",
     "print the connection's TCP statistics at the end"},
    {'i', NULL, OPTK_SECONDS, FIELD(interval_ns), 0, 0, SECONDS(1) / 100, SECONDS(86400),
     OPTS_EXTRA, "-i s", "report every s seconds (fractions allowed, e.g. 0.5)"},
    {0, "time", OPTK_SECONDS, FIELD(duration_ns), 0, 0, SECONDS(1) / 100, SECONDS(1000000),
     OPTS_EXTRA, "--time s", "-t: send for s seconds instead of -n buffers"},
    {'R', NULL, OPTK_PACE, FIELD(pace_bps), 0, 0, 100, 1000000000000ull, OPTS_EXTRA,
     "-R rate[/n]", "-t: pace to rate bits/s (56k, 100m, 1g), at most n buffers\n\t\t"
     "back to back"},
    {0, "link-rate", OPTK_RATE, FIELD(link_bps), 0, 0, 1, 1000000000000ull, OPTS_EXTRA,
     "--link-rate rate", "the link's nominal bit rate: print the efficiency"},
    {0, "pattern", OPTK_PATTERN, FIELD(pattern), 0, 0, 0, 0, OPTS_EXTRA,
     "--pattern p", "-t: payload: classic (default), random (incompressible), zeros"},
    {0, "verify", OPTK_SET, FIELD(verify), 1, 0, 0, 0, OPTS_EXTRA, "--verify",
     "-r: check the received bytes against the sender's pattern\n\t\t"
     "(-C: at whichever end receives)"},
    {0, "seed", OPTK_NUMBER, FIELD(seed), 0, TTCP_SUFFIX_NONE, 0, UINT64_MAX, OPTS_EXTRA,
     "--seed n", "the random pattern's seed (default: from the clock)"},
    {0, "json", OPTK_SET, FIELD(json), 1, 0, 0, 0, OPTS_EXTRA, "--json",
     "one JSON document with every figure on stdout at the end"},
    {0, "plot", OPTK_TEXT, FIELD(plot), 0, 0, 0, 0, OPTS_EXTRA, "--plot file",
     "draw the test over time into file (SVG); without -i it takes\n\t\t"
     "intervals of 1 s (or --time / 20) and prints none"},
    {0, "no-udp-stats", OPTK_SET, FIELD(no_udp_stats), 1, 0, 0, 0, OPTS_EXTRA,
     "--no-udp-stats", "-t -u: plain 1.12 datagrams, without ttcp's sequence header"},
    {0, "discard", OPTK_SET, FIELD(discard), 1, 0, 0, 0, OPTS_EXTRA, "--discard",
     "-r -s: drop TCP data in the kernel without copying it (Linux)"},
    {0, "idle-timeout", OPTK_SECONDS, FIELD(idle_timeout_ns), 0, 0,
     SECONDS(1) / 100, SECONDS(86400), OPTS_EXTRA, "--idle-timeout s",
     "end a stalled UDP test, or stop waiting for the\n\t\t"
     "TCP receiver's close, after s seconds without progress (default 30)"},
    {'S', NULL, OPTK_SET, FIELD(mode), TTCP_MODE_SERVER, 0, 0, 0, OPTS_SERVER, "-S",
     "server: serve tests (and classic transmitters) until stopped"},
    {'C', NULL, OPTK_SET, FIELD(mode), TTCP_MODE_CLIENT, 0, 0, 0, OPTS_SERVER, "-C",
     "client: run a test against a ttcp -S on host (-t: send, the default;\n\t\t"
     "-r: receive); without -n or --time it runs 10 s"},
    {0, "bidir", OPTK_SET, FIELD(bidir), 1, 0, 0, 0, OPTS_SERVER, "--bidir",
     "-C: send and receive at once"},
    {'1', NULL, OPTK_SET, FIELD(once), 1, 0, 0, 0, OPTS_SERVER, "-1",
     "-S: serve one test, then exit"},
    {0, "max-clients", OPTK_NUMBER, FIELD(max_clients), 0, TTCP_SUFFIX_NONE, 1, 256,
     OPTS_SERVER, "--max-clients n", "-S: client tests at once, and classic ones apart (default 4)"},
    {0, "max-streams", OPTK_NUMBER, FIELD(max_streams), 0, TTCP_SUFFIX_NONE, 1,
     TTCP_STREAMS_MAX, OPTS_SERVER, "--max-streams n",
     "-S: streams a test may ask for each way (-C -P; default 128)"},
    {0, "max-ttl", OPTK_NUMBER, FIELD(max_ttl), 0, TTCP_SUFFIX_NONE, 1, 255, OPTS_SERVER,
     "--max-ttl n", "-S: the highest multicast hop limit a client may ask for (default 1)"},
    {0, "max-time", OPTK_SECONDS, FIELD(max_time_ns), 0, 0, SECONDS(1) / 10, SECONDS(86400),
     OPTS_SERVER, "--max-time s", "-S: end any test after s seconds"},
    {0, "max-rate", OPTK_RATE, FIELD(max_rate_bps), 0, 0, 100, 1000000000000ull,
     OPTS_SERVER, "--max-rate rate", "-S: no test faster than rate bits/s"},
    {0, "allow", OPTK_ALLOW, FIELD(allow), 0, 0, 0, 0, OPTS_SERVER, "--allow prefix",
     "-S: take connections only from prefix (10.0.0.0/8, ::1);\n\t\trepeatable"},
    {'m', NULL, OPTK_NUMBER, FIELD(mcast_ttl), 0, TTCP_SUFFIX_NONE, 1, 255, OPTS_EXTRA, "-m ttl",
     "-t -u: multicast, with ttl hops (the host is the group, or -g)"},
    {'g', NULL, OPTK_TEXT, FIELD(group), 0, 0, 0, 0, OPTS_EXTRA, "-g group",
     "-u: the multicast group: -r joins it, -t sends to it"},
    {0, "source", OPTK_TEXT, FIELD(source), 0, 0, 0, 0, OPTS_EXTRA, "--source addr",
     "-r -g: take the group's datagrams from addr only (source-specific)"},
    {0, "interface", OPTK_TEXT, FIELD(interface), 0, 0, 0, 0, OPTS_EXTRA, "--interface if",
     "multicast: send or join on interface if (a name, index or IPv4 address)"},
    {0, "traceroute", OPTK_SET, FIELD(traceroute), 1, 0, 0, 0, OPTS_EXTRA, "--traceroute",
     "-t: the path to the host first, hop by hop; alone with a host:\n\t\tonly the path"},
    {'P', NULL, OPTK_NUMBER, FIELD(streams), 0, TTCP_SUFFIX_NONE, 1, TTCP_STREAMS_MAX,
     OPTS_EXTRA, "-P n", "n streams side by side, each with its own connection;\n\t\t"
     "-n, --time and -l are per stream, -R is the total"},
    {0, "cpu", OPTK_CPUS, FIELD(cpus), 0, 0, 0, TTCP_CPU_HIGHEST, OPTS_EXTRA, "--cpu list",
     "-P: run stream i on the i-th CPU of list (0,2 or 0-3), in turn"},
    {0, "key-file", OPTK_TEXT, FIELD(key_file), 0, 0, 0, 0, OPTS_SERVER, "--key-file f",
     "-S, -C: authenticate with the key in f (openssl rand -hex 32)"},
    {'h', "help", OPTK_SET, FIELD(action), TTCP_ACTION_HELP, 0, 0, 0, OPTS_EXTRA,
     "-h, --help", "print this text"},
    {0, "version", OPTK_SET, FIELD(action), TTCP_ACTION_VERSION, 0, 0, 0, OPTS_EXTRA,
     "--version", "print the version and build details"},
    {0, "check", OPTK_SET, FIELD(check_only), 1, 0, 0, 0, OPTS_EXTRA, "--check",
     "check the options and exit (0, or 2 with the reason): no test is run"},
};

const struct ttcp_optdef *ttcp_optable(size_t *count)
{
    *count = sizeof table / sizeof table[0];
    return table;
}

int ttcp_options_extended(const struct ttcp_options *o)
{
    /* (intervals taken for --plot alone leave the classic lines as they are) */
    return (o->interval_ns && !o->quiet_intervals) || o->duration_ns || o->pace_bps || o->link_bps || o->verify ||
           o->json || o->pattern != TTCP_PAYLOAD_CLASSIC ||
           o->unit >= TTCP_UNIT_BPS;
}

uint64_t ttcp_options_back_buflen(const struct ttcp_options *opts)
{
    return opts->back_buflen != 0 ? opts->back_buflen : opts->buflen;
}

const char *ttcp_options_side(const struct ttcp_options *opts)
{
    if (opts->stream_number > 0)
        return opts->stream_side;
    if (opts->mode == TTCP_MODE_SERVER) /* the server's own lines (its tests run as -r, -t) */
        return "-S";
    return opts->transmit ? "-t" : "-r";
}

void ttcp_options_stream(struct ttcp_options *opts, int number)
{
    opts->stream_number = number;
    snprintf(opts->stream_side, sizeof opts->stream_side, "%s[%d]",
             opts->transmit ? "-t" : "-r", number);
}

static void set_defaults(struct ttcp_options *o)
{
    memset(o, 0, sizeof *o);
    o->action = TTCP_ACTION_RUN;
    o->buflen = TTCP_DEFAULT_BUFLEN;
    o->nbuf = TTCP_DEFAULT_NBUF;
    o->port = TTCP_DEFAULT_PORT;
    o->bufalign = TTCP_DEFAULT_ALIGN;
    o->unit = TTCP_UNIT_KBYTE;
    o->family = TT_FAMILY_ANY;
    o->idle_timeout_ns = TTCP_DEFAULT_IDLE_NS;
    o->streams = 1;
}

enum ttcp_direction ttcp_options_direction(const struct ttcp_options *o)
{
    if (o->bidir)
        return TTCP_DIR_BIDIR;
    return o->transmit ? TTCP_DIR_SEND : TTCP_DIR_RECEIVE;
}

const struct ttcp_optdef *ttcp_optable_letter(char c)
{
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].letter == c)
            return &table[i];
    return NULL;
}

const struct ttcp_optdef *ttcp_optable_long(const char *name, size_t len)
{
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].long_name && strlen(table[i].long_name) == len &&
            strncmp(table[i].long_name, name, len) == 0)
            return &table[i];
    return NULL;
}

static int takes_argument(const struct ttcp_optdef *d)
{
    return d->kind != OPTK_SET && d->kind != OPTK_TOGGLE;
}

/* --cpu 0,2,4-7: CPU numbers, in the order the streams take them. */
static int parse_cpus(struct ttcp_options *o, const struct ttcp_optdef *d, const char *arg,
                      char *reason, size_t len)
{
    char item[32];
    o->cpu_count = 0;
    while (*arg != '\0') {
        const char *comma = strchr(arg, ','), *dash;
        size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
        uint64_t lo, hi;
        if (n == 0 || n >= sizeof item) {
            snprintf(reason, len, "'%s': CPU numbers separated by commas, as 0,2 or 0-3", arg);
            return -1;
        }
        snprintf(item, sizeof item, "%.*s", (int)n, arg);
        dash = strchr(item, '-');
        if (dash != NULL)
            item[dash - item] = '\0';
        if (ttcp_parse_u64(item, TTCP_SUFFIX_NONE, d->min, d->max, &lo, reason, len) != 0 ||
            ttcp_parse_u64(dash ? dash + 1 : item, TTCP_SUFFIX_NONE, lo, d->max, &hi, reason,
                           len) != 0)
            return -1;
        for (; lo <= hi; lo++) {
            if (o->cpu_count >= TTCP_CPU_MAX) {
                snprintf(reason, len, "at most %d CPUs", TTCP_CPU_MAX);
                return -1;
            }
            o->cpus[o->cpu_count++] = (int)lo;
        }
        arg += n + (comma != NULL);
    }
    if (o->cpu_count == 0) {
        snprintf(reason, len, "no CPU given");
        return -1;
    }
    return 0;
}

/* -R RATE[/BURST] */
static int parse_pace(struct ttcp_options *o, const struct ttcp_optdef *d, const char *arg,
                      char *reason, size_t len)
{
    char rate[64];
    const char *slash = strchr(arg, '/');
    size_t n = slash ? (size_t)(slash - arg) : strlen(arg);
    snprintf(rate, sizeof rate, "%.*s", (int)(n < sizeof rate ? n : sizeof rate - 1), arg);
    if (ttcp_parse_rate(rate, d->min, d->max, &o->pace_bps, reason, len) != 0)
        return -1;
    o->pace_burst = 0;
    return slash ? ttcp_parse_u64(slash + 1, TTCP_SUFFIX_NONE, 1, 1000000, &o->pace_burst,
                                  reason, len)
                 : 0;
}

/* Applies one option; arg is NULL for those without an argument. */
static int apply(struct ttcp_options *o, const struct ttcp_optdef *d,
                 const char *name, const char *arg, char *why, size_t why_len)
{
    char *field = (char *)o + d->offset;
    char reason[160];
    int rc = 0;

    switch (d->kind) {
    case OPTK_SET:
        *(int *)field = d->value;
        break;
    case OPTK_TOGGLE:
        *(int *)field = !*(int *)field;
        break;
    case OPTK_NUMBER:
        rc = ttcp_parse_u64(arg, d->suffix, d->min, d->max, (uint64_t *)field,
                            reason, sizeof reason);
        break;
    case OPTK_UNIT:
        rc = ttcp_unit_parse(arg);
        if (rc >= 0)
            *(enum ttcp_unit *)field = (enum ttcp_unit)rc;
        else
            snprintf(reason, sizeof reason, "'%s' is not a unit: use one of " TTCP_UNIT_NAMES,
                     arg);
        rc = rc < 0 ? -1 : 0;
        break;
    case OPTK_SECONDS:
        rc = ttcp_parse_seconds(arg, (int64_t)d->min, (int64_t)d->max,
                                (int64_t *)field, reason, sizeof reason);
        break;
    case OPTK_RATE:
        rc = ttcp_parse_rate(arg, d->min, d->max, (uint64_t *)field, reason, sizeof reason);
        break;
    case OPTK_PACE:
        rc = parse_pace(o, d, arg, reason, sizeof reason);
        break;
    case OPTK_TEXT:
        *(const char **)field = arg;
        break;
    case OPTK_CPUS:
        rc = parse_cpus(o, d, arg, reason, sizeof reason);
        break;
    case OPTK_ALLOW:
        if (o->allow_count >= TTCP_ALLOW_MAX) {
            snprintf(reason, sizeof reason, "at most %d prefixes", TTCP_ALLOW_MAX);
            rc = -1;
        } else {
            o->allow[o->allow_count++] = arg;
        }
        break;
    case OPTK_PATTERN:
        rc = ttcp_payload_parse(arg);
        if (rc >= 0)
            *(enum ttcp_payload *)field = (enum ttcp_payload)rc;
        else
            snprintf(reason, sizeof reason, "'%s' is not a pattern (classic, random, zeros)", arg);
        rc = rc < 0 ? -1 : 0;
        break;
    }
    if (rc == 0 && d->offset == FIELD(seed))
        o->seed_given = 1;
    if (rc == 0 && d->offset == FIELD(transmit))
        o->side_given = 1;
    if (rc == 0 && d->offset == FIELD(nbuf))
        o->nbuf_given = 1;
    if (rc == 0 && d->offset == FIELD(unit))
        o->unit_given = 1;
    if (rc != 0)
        snprintf(why, why_len, "%s: %s", name, reason);
    return rc;
}

/* One argv word that starts with "--". */
static int parse_long(struct ttcp_options *o, int argc, char **argv, int *i,
                      char *why, size_t why_len)
{
    const char *name = argv[*i] + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const struct ttcp_optdef *d = ttcp_optable_long(name, len);
    const char *arg = eq ? eq + 1 : NULL;
    char label[48];

    if (d == NULL) {
        snprintf(why, why_len, "unknown option --%.*s (ttcp -h lists them)", (int)len, name);
        return -1;
    }
    if (!takes_argument(d) && arg != NULL) {
        snprintf(why, why_len, "--%s takes no value", d->long_name);
        return -1;
    }
    if (takes_argument(d) && arg == NULL) {
        if (*i + 1 >= argc) {
            snprintf(why, why_len, "--%s needs a value", d->long_name);
            return -1;
        }
        arg = argv[++*i];
    }
    snprintf(label, sizeof label, "--%s", d->long_name);
    return apply(o, d, label, arg, why, why_len);
}

/* One argv word of clustered short options, e.g. "-tsn100" or "-l". */
static int parse_cluster(struct ttcp_options *o, int argc, char **argv, int *i,
                         char *why, size_t why_len)
{
    const char *p = argv[*i] + 1;
    for (; *p != '\0'; p++) {
        const struct ttcp_optdef *d = ttcp_optable_letter(*p);
        char name[3] = {'-', *p, '\0'};
        const char *arg = NULL;

        if (d == NULL) {
            snprintf(why, why_len, "unknown option -%c (ttcp -h lists them)", *p);
            return -1;
        }
        if (takes_argument(d)) {
            if (p[1] != '\0') {
                arg = p + 1;
            } else if (*i + 1 < argc) {
                arg = argv[++*i];
            } else {
                snprintf(why, why_len, "-%c needs a value", *p);
                return -1;
            }
        }
        if (apply(o, d, name, arg, why, why_len) != 0)
            return -1;
        if (arg != NULL)
            return 0;
    }
    return 0;
}

static int take_host(struct ttcp_options *o, const char *word, char *why, size_t why_len)
{
    if (o->host != NULL) {
        snprintf(why, why_len, "unexpected argument '%s' (the host is '%s')", word, o->host);
        return -1;
    }
    o->host = word;
    return 0;
}

/* The console habits for help: /? everywhere, as before; -help; and where
 * slash switches are the habit (Windows) /h and /help. */
static int asks_for_help(const char *w, unsigned flags)
{
    if (strcmp(w, "/?") == 0 || strcmp(w, "-help") == 0)
        return 1;
    return (flags & TTCP_PARSE_SLASH_SWITCHES) &&
           (strcmp(w, "/h") == 0 || strcmp(w, "/help") == 0 || strcmp(w, "/H") == 0 ||
            strcmp(w, "/HELP") == 0);
}

/* A word that is not an option: the transmitter's host, or a mistake. */
static int take_word(struct ttcp_options *o, const char *w, unsigned flags, char *why,
                     size_t why_len)
{
    if (asks_for_help(w, flags)) {
        o->action = TTCP_ACTION_HELP;
        return 0;
    }
    if ((flags & TTCP_PARSE_SLASH_SWITCHES) && w[0] == '/' && w[1] != '\0') {
        snprintf(why, why_len, "unknown argument '%s': options start with - (for example -%s)",
                 w, w + 1);
        return -1;
    }
    return take_host(o, w, why, why_len);
}

/* The options only a server or only a client takes, and what -S and -C
 * imply: sink mode always (the data is the pattern), a client sends unless
 * -r says otherwise, and runs 10 s unless -n or --time says otherwise. */
static int check_modes(struct ttcp_options *o, char *why, size_t why_len)
{
    int server = o->mode == TTCP_MODE_SERVER, client = o->mode == TTCP_MODE_CLIENT;
    int server_only = o->once || o->max_time_ns || o->max_rate_bps || o->allow_count ||
                      o->max_clients != 0 || o->max_streams != 0 || o->max_ttl != 0;
    if (!server && server_only)
        snprintf(why, why_len, "%s is for a server (-S)",
                 o->once ? "-1" : o->max_time_ns ? "--max-time" : o->max_rate_bps ? "--max-rate"
                 : o->allow_count ? "--allow" : o->max_clients ? "--max-clients"
                 : o->max_streams ? "--max-streams" : "--max-ttl");
    else if (!client && o->bidir)
        snprintf(why, why_len, "--bidir is for a client (-C)");
    else if (!server && !client && o->key_file)
        snprintf(why, why_len, "--key-file is for a server (-S) or a client (-C)");
    else if (server && o->host != NULL)
        snprintf(why, why_len, "unexpected argument '%s': a server (-S) takes no host", o->host);
    else if (server && (o->side_given || o->udp))
        snprintf(why, why_len, "%s: a server (-S) takes TCP and UDP, both ways; the client "
                 "chooses", o->udp ? "-u" : o->transmit ? "-t" : "-r");
    else if (server && o->streams > 1)
        snprintf(why, why_len, "-P: a client chooses its streams (ttcp -C -P n host); a "
                 "server's limit is --max-streams");
    else if (client && o->host == NULL)
        snprintf(why, why_len, "-C needs the host of a ttcp -S (ttcp -C [options] host)");
    else if ((server || client) && (o->continuous || o->dialog || o->discard ||
                                     (server && o->half_close)))
        snprintf(why, why_len, "%s does not go with %s", o->continuous ? "-c" : o->dialog ? "-I"
                 : o->discard ? "--discard" : "--half-close", server ? "-S" : "-C");
    else {
        if (server || client) {
            o->sinkmode = 1;
            o->thread_cpu = 1; /* tests run side by side: each counts its own thread */
        }
        if (client && !o->side_given)
            o->transmit = 1;
        if (client && !o->nbuf_given && !o->duration_ns)
            o->duration_ns = TTCP_CLIENT_DEFAULT_NS;
        if (o->bidir)
            o->transmit = 1;
        return 0;
    }
    return -1;
}

/* The address family of a numeric multicast address (4 or 16 bytes), or 0
 * when text is not one. */
int ttcp_options_multicast(const char *text)
{
    unsigned char ip[16];
    int len = tt_ip_parse(text, ip);
    if ((len == 4 && ip[0] >= 224 && ip[0] <= 239) || (len == 16 && ip[0] == 0xff))
        return len;
    return 0;
}

/* -C -r -u -m TTL [-g GROUP]: the server sends to a group the client joins. */
static int check_client_multicast(struct ttcp_options *o, char *why, size_t why_len)
{
    if (o->transmit || o->bidir)
        snprintf(why, why_len, "multicast through a server goes from the server to the group "
                 "this client joins: use -C -r");
    else if (o->source != NULL)
        snprintf(why, why_len, "--source: through a server, the source is the server");
    else if (o->group != NULL && ttcp_options_multicast(o->group) == 0)
        snprintf(why, why_len, "-g %s: not a multicast address (224.0.0.0/4 or ff00::/8)",
                 o->group);
    else if (o->streams > 1)
        snprintf(why, why_len, "multicast does not go with -P");
    else {
        if (o->group == NULL)
            o->group = TTCP_CLIENT_DEFAULT_GROUP;
        return 0;
    }
    return -1;
}

/* -m, -g, --source, --interface; a transmitter's multicast host is its group. */
static int check_multicast(struct ttcp_options *o, char *why, size_t why_len)
{
    unsigned char ip[16];
    int any = o->group || o->mcast_ttl || o->source || o->interface, family;
    if (o->mode == TTCP_MODE_CLASSIC && o->transmit && o->group == NULL && o->udp && o->host &&
        ttcp_options_multicast(o->host))
        o->group = o->host; /* ttcp -t -u 239.1.2.3 */
    if (!any && o->group == NULL)
        return 0;
    if (o->mode == TTCP_MODE_SERVER)
        snprintf(why, why_len, "multicast is a client's to ask for (ttcp -C -r -u -m ttl host); "
                 "a server's limit is --max-ttl");
    else if (!o->udp)
        snprintf(why, why_len, "%s: multicast is UDP: add -u", o->group ? "-g" : o->mcast_ttl ?
                 "-m" : o->source ? "--source" : "--interface");
    else if (o->mode == TTCP_MODE_CLIENT)
        return check_client_multicast(o, why, why_len);
    else if (o->group == NULL)
        snprintf(why, why_len, "%s: give the group (-g, or a multicast host with -t)",
                 o->mcast_ttl ? "-m" : o->source ? "--source" : "--interface");
    else if ((family = ttcp_options_multicast(o->group)) == 0)
        snprintf(why, why_len, "-g %s: not a multicast address (224.0.0.0/4 or ff00::/8)",
                 o->group);
    else if (o->transmit && o->host != NULL && strcmp(o->host, o->group) != 0)
        snprintf(why, why_len, "-g %s: -t sends to its group; give it once (as -g or as the host)",
                 o->group);
    else if (!o->transmit && o->mcast_ttl)
        snprintf(why, why_len, "-m: the hop limit is the transmitter's (-t)");
    else if (o->source && o->transmit)
        snprintf(why, why_len, "--source is for the receiver (-r -g)");
    else if (o->source && tt_ip_parse(o->source, ip) != family)
        snprintf(why, why_len, "--source %s: %s", o->source, tt_ip_parse(o->source, ip) == 0
                 ? "not a numeric address" : "not of the group's family (IPv4 or IPv6)");
    else if (o->streams > 1)
        snprintf(why, why_len, "multicast does not go with -P");
    else {
        if (o->transmit && o->host == NULL)
            o->host = o->group;
        return 0;
    }
    return -1;
}

/* --traceroute: before a transmitter's test, or alone with a host. */
static int check_traceroute(struct ttcp_options *o, char *why, size_t why_len)
{
    if (!o->traceroute)
        return 0;
    if (o->mode == TTCP_MODE_SERVER)
        snprintf(why, why_len, "--traceroute is a client's to ask for (ttcp -C --traceroute "
                 "host): the server traces back then");
    else if (o->host == NULL)
        snprintf(why, why_len, "--traceroute needs the host to trace to");
    else if (o->mode == TTCP_MODE_CLASSIC && o->side_given && !o->transmit)
        snprintf(why, why_len, "--traceroute is for the transmitter (-t), or alone with a host");
    else if (o->json)
        snprintf(why, why_len, "--traceroute does not go with --json yet");
    else if (o->group != NULL)
        snprintf(why, why_len, "--traceroute: a multicast group has no one path");
    else {
        if (o->mode == TTCP_MODE_CLASSIC)
            o->transmit = 1; /* its lines are the transmitter's, ttcp-t: */
        return 0;
    }
    return -1;
}

/* --plot's intervals without -i: 1 s, or a twentieth of a --time shorter
 * than 20 s (at least -i's shortest), so that a short test has a shape. */
static int64_t plot_period(const struct ttcp_options *o)
{
    int64_t share = o->duration_ns / TTCP_PLOT_POINTS;
    if (o->duration_ns == 0 || share >= TTCP_PLOT_PERIOD_NS)
        return TTCP_PLOT_PERIOD_NS;
    return share < (int64_t)(SECONDS(1) / 100) ? (int64_t)(SECONDS(1) / 100) : share;
}

/* --plot FILE: one test drawn, into a file the command line names. */
static int check_plot(struct ttcp_options *o, char *why, size_t why_len)
{
    if (o->plot == NULL)
        return 0;
    if (o->plot[0] == '\0' || strlen(o->plot) > TTCP_PLOT_PATH_MAX)
        snprintf(why, why_len, "--plot: give a file name of 1 to %d characters",
                 TTCP_PLOT_PATH_MAX);
    else if (o->mode == TTCP_MODE_SERVER)
        snprintf(why, why_len, "--plot draws a test: a server (-S) serves many; plot at the "
                 "client (ttcp -C --plot file host)");
    else if (o->continuous && !o->transmit)
        snprintf(why, why_len, "--plot draws one test: a receiver with -c takes test after test");
    else if (o->traceroute && !o->side_given && o->mode == TTCP_MODE_CLASSIC)
        snprintf(why, why_len, "--plot draws a test: --traceroute alone runs none (add -t)");
    else {
        if (o->interval_ns == 0) {
            o->interval_ns = plot_period(o);
            o->quiet_intervals = 1;
        }
        return 0;
    }
    return -1;
}

/* Rules between options, checked on the final options. */
static int check_rules(struct ttcp_options *o, char *why, size_t why_len)
{
    if (o->action != TTCP_ACTION_RUN)
        return 0;
    /* (--traceroute alone makes a transmitter: the rules below hold for it too) */
    if (check_multicast(o, why, why_len) != 0 || check_traceroute(o, why, why_len) != 0 ||
        check_plot(o, why, why_len) != 0)
        return -1;
    if (o->transmit && o->host == NULL)
        snprintf(why, why_len, "-t needs the host to send to (ttcp -t [options] host)");
    else if (!o->transmit && o->host != NULL && o->mode != TTCP_MODE_CLIENT)
        snprintf(why, why_len, "unexpected argument '%s': a receiver (-r) takes no host "
                 "(ttcp -h lists the options)", o->host);
    else if (o->udp && o->buflen > TTCP_UDP_MAX_BUFLEN)
        snprintf(why, why_len, "-l: %llu bytes is more than a UDP datagram can carry (%u)",
                 (unsigned long long)o->buflen, TTCP_UDP_MAX_BUFLEN);
    else if (o->bufalign != 0 && o->bufoffset >= o->bufalign)
        snprintf(why, why_len, "-O: offset %llu must be less than the alignment -A %llu",
                 (unsigned long long)o->bufoffset, (unsigned long long)o->bufalign);
    else if (o->bufalign == 0 && o->bufoffset != 0)
        snprintf(why, why_len, "-O: an offset needs an alignment (-A)");
    else if (o->udp && (o->half_close || o->rcvwnd || o->no_delayed_ack || o->tcp_info))
        snprintf(why, why_len, "%s works with TCP only, not with -u",
                 o->half_close ? "--half-close" : o->rcvwnd ? "--rcvwnd"
                 : o->no_delayed_ack ? "--no-delayed-ack" : "--tcp-info");
    else if (o->json && !o->transmit && !o->sinkmode)
        snprintf(why, why_len, "--json needs -s on a receiver: its stdout carries the data");
    else if (o->verify && o->transmit && o->mode != TTCP_MODE_CLIENT)
        /* (a client passes it to whichever end receives: the server when it sends) */
        snprintf(why, why_len, "--verify is for the receiver (-r)");
    else if (o->udp && o->verify && !o->sinkmode)
        snprintf(why, why_len, "--verify with -u needs -s");
    else if (o->pattern != TTCP_PAYLOAD_CLASSIC && o->transmit && !o->sinkmode)
        snprintf(why, why_len, "--pattern needs -s: without it the data comes from stdin");
    else if (o->discard && (o->transmit || !o->sinkmode || o->udp || o->verify || o->touch ||
                            o->fullblocks))
        snprintf(why, why_len, "--discard is for a TCP receiver in sink mode (-r -s), "
                 "without --verify, -T or -B: the bytes are never seen");
    else if (o->duration_ns && o->continuous)
        snprintf(why, why_len, "--time and -c do not go together");
    else if (o->streams > 1 && (!o->sinkmode || o->continuous))
        snprintf(why, why_len, "-P needs -s and does not go with -c: each stream sends the "
                 "pattern, one test");
    else if (o->cpu_count && o->streams < 2)
        snprintf(why, why_len, "--cpu places the streams of -P: give -P n too");
    else if (o->mode == TTCP_MODE_CLASSIC && o->port + o->streams - 1 > 65535)
        snprintf(why, why_len, "-P: stream %llu would use port %llu (a stream i uses port "
                 "-p + i - 1)", (unsigned long long)o->streams,
                 (unsigned long long)(o->port + o->streams - 1));
    else if (o->nbuf > (1ull << 62) / o->buflen)
        snprintf(why, why_len, "-n: %llu buffers of %llu bytes is too much data",
                 (unsigned long long)o->nbuf, (unsigned long long)o->buflen);
    else {
        /* 1.12: "send more than the sentinel size" */
        if (o->udp && o->buflen < TTCP_UDP_MIN_BUFLEN)
            o->buflen = TTCP_UDP_MIN_BUFLEN;
        return 0;
    }
    return -1;
}

int ttcp_options_validate(struct ttcp_options *o, char *why, size_t why_len)
{
    int rc = check_modes(o, why, why_len);
    if (rc == 0)
        rc = check_rules(o, why, why_len);
    if (rc != 0)
        ttcp_text_printable(why);
    return rc;
}

int ttcp_options_parse(struct ttcp_options *o, int argc, char **argv, unsigned flags,
                       char *why, size_t why_len)
{
    int i, only_words = 0, rc = 0;

    set_defaults(o);
    for (i = 1; i < argc && rc == 0; i++) {
        const char *w = argv[i];
        if (only_words || w[0] != '-' || w[1] == '\0' || strcmp(w, "-help") == 0) {
            rc = take_word(o, w, flags, why, why_len);
        } else if (strcmp(w, "--") == 0) {
            only_words = 1;
        } else if (w[1] == '-') {
            rc = parse_long(o, argc, argv, &i, why, why_len);
        } else {
            rc = parse_cluster(o, argc, argv, &i, why, why_len);
        }
    }
    if (rc != 0) {
        ttcp_text_printable(why);
        return -1;
    }
    /* -I's answers change the options: the rules wait for them (a server or a
     * client has no dialog: refused now, before any question) */
    return o->dialog && o->mode == TTCP_MODE_CLASSIC ? 0 : ttcp_options_validate(o, why, why_len);
}
