/* The rules between options, on the final options whatever set them (argv,
 * the dialog, a client's request at the server): one validation for all.
 * Each step is a pure check, one `else if` a rule, then the values the
 * passed rules settle (what -S and -C imply, a multicast transmitter's host,
 * --plot's intervals, UDP's smallest buffer); a later step sees them. */
#include "config/options.h"

#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "base/text.h"
#include "config/optable.h"
#include "config/rules_report.h"
#include "measure/result.h"
#include "ttcp/platform.h"

/* Whether options hold a value for a row: one that only some modes take
 * (its "typed" flag set, or else its field away from the default of zero). */
static int holds_value(const struct ttcp_options *o, const struct ttcp_optdef *d)
{
    const char *field = (const char *)o + d->offset;
    if (d->given != OPT_NO_GIVEN)
        return *(const int *)((const char *)o + d->given);
    switch (d->kind) {
    case OPTK_SET:
        return *(const int *)field == d->value;
    case OPTK_NUMBER:
    case OPTK_RATE:
        return *(const uint64_t *)field != 0;
    case OPTK_SECONDS:
        return *(const int64_t *)field != 0;
    case OPTK_TEXT:
    case OPTK_ALLOW: /* the first of the prefixes */
    case OPTK_TARGETS:
        return *(const char *const *)field != NULL;
    default: /* (no row of these kinds is kept from a mode) */
        return 0;
    }
}

/* The first option, in the table's order, that the run's mode does not
 * take: "--max-time is for a server (-S)". */
static int check_option_modes(const struct ttcp_options *o, char *why, size_t why_len)
{
    size_t count, i;
    const struct ttcp_optdef *t = ttcp_optable(&count);
    char name[32];

    for (i = 0; i < count; i++) {
        unsigned modes = t[i].modes;
        if ((modes & (1u << o->mode)) || !holds_value(o, &t[i]))
            continue;
        snprintf(why, why_len, "%s is for %s%s%s", ttcp_optable_name(&t[i], name, sizeof name),
                 modes & OPTM_SERVER ? "a server (-S)" : "",
                 (modes & OPTM_SERVER) && (modes & OPTM_CLIENT) ? " or " : "",
                 modes & OPTM_CLIENT ? "a client (-C)" : "");
        return -1;
    }
    return 0;
}

/* What a server and a client refuse, and what a client must have. */
static int check_modes(const struct ttcp_options *o, char *why, size_t why_len)
{
    int server = o->mode == TTCP_MODE_SERVER, client = o->mode == TTCP_MODE_CLIENT;
    if (check_option_modes(o, why, why_len) != 0)
        return -1;
    if (server && o->host != NULL)
        snprintf(why, why_len, "unexpected argument '%s': a server (-S) takes no host", o->host);
    else if (server && (o->side_given || o->udp))
        snprintf(why, why_len, "%s: a server (-S) takes TCP and UDP, both ways; the client "
                 "chooses", o->udp ? "-u" : o->transmit ? "-t" : "-r");
    else if (server && o->streams > 1)
        snprintf(why, why_len, "-P: a client chooses its streams (ttcp -C -P n host); a "
                 "server's limit is --max-streams");
    else if (!client && o->target != NULL)
        snprintf(why, why_len, "unexpected argument '%s' (the host is '%s'; a second host is "
                 "-C's, for a third party)", o->target, o->host);
    else if (client && o->host == NULL)
        snprintf(why, why_len, "-C needs the host of a ttcp -S (ttcp -C [options] host)");
    else if (server && o->inetd && (o->daemon || o->pidfile != NULL))
        snprintf(why, why_len, "--inetd does not go with %s: inetd starts a server for each "
                 "connection", o->daemon ? "--daemon" : "--pidfile");
    else if ((server || client) && (o->continuous || o->dialog || o->discard ||
                                     (server && o->half_close)))
        snprintf(why, why_len, "%s does not go with %s", o->continuous ? "-c" : o->dialog ? "-I"
                 : o->discard ? "--discard" : "--half-close", server ? "-S" : "-C");
    else
        return 0;
    return -1;
}

/* What -S and -C imply: sink mode always (the data is the pattern), a
 * client sends unless -r says otherwise, and runs 10 s unless -n or --time
 * says otherwise; --bidir sends (and receives). */
static void settle_mode_defaults(struct ttcp_options *o)
{
    int client = o->mode == TTCP_MODE_CLIENT;
    if (o->mode != TTCP_MODE_CLASSIC) {
        o->sinkmode = 1;
        o->thread_cpu = 1; /* tests run side by side: each counts its own thread */
    }
    if (client && !o->side_given)
        o->transmit = 1;
    if (client && !o->nbuf_given && !o->duration_ns)
        o->duration_ns = TTCP_CLIENT_DEFAULT_NS;
    if (o->bidir)
        o->transmit = 1;
    if (client && !o->port_given && o->far_end == TTCP_FAR_IPERF3)
        o->port = TTCP_IPERF3_PORT; /* each tool's server where it listens by default */
    else if (client && !o->port_given && o->far_end == TTCP_FAR_NUTTCP)
        o->port = TTCP_NUTTCP_PORT;
    /* iperf2's own datagram length, which its server's buffer is when it sends */
    if (client && !o->buflen_given && o->udp && o->far_end == TTCP_FAR_IPERF2)
        o->buflen = TTCP_IPERF2_UDP_BUFLEN;
}

/* -C -r -u -m TTL [-g GROUP]: the server sends to a group the client joins. */
static int check_client_multicast(const struct ttcp_options *o, char *why, size_t why_len)
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
    else
        return 0;
    return -1;
}

/* Any of -m, -g, --source, --interface (or a transmitter's multicast host). */
static int multicast_asked(const struct ttcp_options *o)
{
    return o->group || o->mcast_ttl || o->source || o->interface;
}

/* -C host1 host2[:port], [v6]:port: the target's host and port in their
 * own fields (a bare IPv6 address has no port); 0, or -1 with a reason. */
static int split_target(struct ttcp_options *o, char *why, size_t why_len)
{
    const char *t = o->target, *colon = strrchr(t, ':'), *end;
    char reason[160];
    size_t n = strlen(t);
    o->target_port = o->port;
    if (t[0] == '[' && (end = strchr(t, ']')) != NULL && (end[1] == '\0' || end[1] == ':')) {
        n = (size_t)(end - t - 1);
        colon = end[1] == ':' ? end + 1 : NULL;
        t++;
    } else if (colon != NULL && strchr(t, ':') == colon) {
        n = (size_t)(colon - t);
    } else {
        colon = NULL; /* none, or an IPv6 address's own */
    }
    if (n == 0 || n >= sizeof o->target_host) {
        snprintf(why, why_len, "-C %.64s: the second host is empty or too long", o->target);
        return -1;
    }
    memcpy(o->target_host, t, n);
    o->target_host[n] = '\0';
    if (!ttcp_options_target_ok(o->target_host)) {
        snprintf(why, why_len, "-C %.64s: not a host name or a numeric address", o->target);
        return -1;
    }
    if (colon != NULL && ttcp_parse_u64(colon + 1, TTCP_SUFFIX_NONE, 1, 65535, &o->target_port,
                                        reason, sizeof reason) != 0) {
        snprintf(why, why_len, "-C %.64s: port %s", o->target, reason);
        return -1;
    }
    return 0;
}

/* -C host1 host2: what goes through a third party, and the target's parts. */
static int check_target(struct ttcp_options *o, char *why, size_t why_len)
{
    if (o->target == NULL)
        return 0;
    if (o->far_end != TTCP_FAR_TTCP)
        snprintf(why, why_len, "a third party (-C host1 host2) is ttcp's own: host1 runs "
                 "ttcp -S");
    else if (o->traceroute)
        snprintf(why, why_len, "--traceroute does not go through a third party (-C host1 "
                 "host2): trace from host1");
    else if (multicast_asked(o))
        snprintf(why, why_len, "multicast does not go through a third party (-C host1 host2)");
    else
        return split_target(o, why, why_len);
    return -1;
}

/* ttcp -t -u 239.1.2.3: a transmitter's multicast host is its group. */
static void take_multicast_host_as_group(struct ttcp_options *o)
{
    if (o->mode == TTCP_MODE_CLASSIC && o->transmit && o->group == NULL && o->udp && o->host &&
        ttcp_options_multicast(o->host))
        o->group = o->host;
}

/* -m, -g, --source, --interface. */
static int check_multicast(const struct ttcp_options *o, char *why, size_t why_len)
{
    unsigned char ip[16];
    int family;
    if (!multicast_asked(o))
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
    else
        return 0;
    return -1;
}

/* A client without -g joins the default group; a transmitter given -g
 * alone sends to it. */
static void settle_multicast_group(struct ttcp_options *o)
{
    if (!multicast_asked(o))
        return;
    if (o->mode == TTCP_MODE_CLIENT && o->group == NULL)
        o->group = TTCP_CLIENT_DEFAULT_GROUP;
    else if (o->mode == TTCP_MODE_CLASSIC && o->transmit && o->host == NULL)
        o->host = o->group;
}

/* --traceroute: before a transmitter's test, or alone with a host. */
static int check_traceroute(const struct ttcp_options *o, char *why, size_t why_len)
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
    else
        return 0;
    return -1;
}

/* --pmtu: before a transmitter's or a client's test, or alone with a host;
 * --dont-fragment: a server's tests take it from their clients. */
static int check_pmtu(const struct ttcp_options *o, char *why, size_t why_len)
{
    int alone = o->mode == TTCP_MODE_CLASSIC && !o->side_given;
    if (o->dont_fragment && o->mode == TTCP_MODE_SERVER)
        snprintf(why, why_len, "--dont-fragment is a client's to ask for (ttcp -C "
                 "--dont-fragment host): both ends of its test set it then");
    else if (!o->pmtu)
        return 0;
    else if (o->mode == TTCP_MODE_SERVER)
        snprintf(why, why_len, "--pmtu is a client's to ask for (ttcp -C --pmtu host): it "
                 "probes the path to the server");
    else if (o->host == NULL)
        snprintf(why, why_len, "--pmtu needs the host to probe the path to");
    else if (o->mode == TTCP_MODE_CLASSIC && o->side_given && !o->transmit)
        snprintf(why, why_len, "--pmtu is for the transmitter (-t), or alone with a host");
    else if (o->group != NULL)
        snprintf(why, why_len, "--pmtu: a multicast group has no one path");
    else if (alone && o->json)
        snprintf(why, why_len, "--json: --pmtu alone prints one line; add -t for a test "
                 "whose JSON holds the path MTU");
    else if (alone && o->plot != NULL)
        snprintf(why, why_len, "--plot draws a test: --pmtu alone runs none (add -t)");
    else
        return 0;
    return -1;
}

/* --traceroute or --pmtu alone makes a transmitter: its lines are ttcp-t:'s,
 * and the rules after it hold for it. */
static void settle_traceroute_side(struct ttcp_options *o)
{
    if ((o->traceroute || o->pmtu) && o->mode == TTCP_MODE_CLASSIC)
        o->transmit = 1;
}

/* The host, the buffers' sizes and places, what works with TCP alone. */
static int check_host_and_buffers(const struct ttcp_options *o, char *why, size_t why_len)
{
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
    else if (o->udp && (o->half_close || o->rcvwnd || o->no_delayed_ack || o->tcp_info ||
                        o->mss || o->analyze))
        snprintf(why, why_len, "%s works with TCP only, not with -u",
                 o->half_close ? "--half-close" : o->rcvwnd ? "--rcvwnd"
                 : o->no_delayed_ack ? "--no-delayed-ack" : o->mss ? "--mss"
                 : o->analyze ? "--analyze" : "--tcp-info");
    else
        return 0;
    return -1;
}

/* Whether name is one of the space-separated words of list. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    const char *p = list;
    while ((p = strstr(p, name)) != NULL) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
        p += n;
    }
    return 0;
}

/* --congestion: a name the kernel lets a program choose (the test's own
 * kernel: at a server, the server's). */
static int check_congestion(const struct ttcp_options *o, char *why, size_t why_len)
{
    char allowed[256];
    size_t i, n = strlen(o->congestion);
    for (i = 0; i < n; i++)
        if (!((o->congestion[i] >= 'a' && o->congestion[i] <= 'z') ||
              (o->congestion[i] >= '0' && o->congestion[i] <= '9') || o->congestion[i] == '_'))
            break;
    if (n == 0 || n > TTCP_CONGESTION_MAX || i < n)
        snprintf(why, why_len, "--congestion %.40s: not an algorithm's name (lower-case letters, "
                 "digits, _; at most %d)", o->congestion, TTCP_CONGESTION_MAX);
    else if (o->udp)
        snprintf(why, why_len, "--congestion works with TCP only, not with -u");
    else if (tt_congestion_allowed(allowed, sizeof allowed) != 0)
        snprintf(why, why_len, "--congestion: this system does not let a program choose its "
                 "congestion control (Linux does)");
    else if (!listed(allowed, o->congestion))
        snprintf(why, why_len, "--congestion %s: not allowed here; this kernel allows: %s",
                 o->congestion, allowed[0] ? allowed : "(none)");
    else
        return 0;
    return -1;
}

/* The family a numeric address is written in (4, 6), or 0: a name. */
static int written_family(const char *text)
{
    unsigned char ip[16];
    int len = tt_ip_parse(text, ip); /* 4 or 16 bytes; 0: not an address */
    return len == 16 ? 6 : len;
}

/* --bind and --cport: the local end, of the host's family; the data's
 * ports all below 65536. */
static int check_local(const struct ttcp_options *o, char *why, size_t why_len)
{
    int bound = o->bind ? written_family(o->bind) : 0;
    int host = o->host && o->mode != TTCP_MODE_SERVER ? written_family(o->host) : 0;
    uint64_t conns = o->streams * (o->bidir ? 2u : 1u);
    if (bound && ((bound == 4 && o->family == TT_FAMILY_V6) ||
                  (bound == 6 && o->family == TT_FAMILY_V4)))
        snprintf(why, why_len, "--bind %s is an IPv%d address, and %s asks for IPv%d", o->bind,
                 bound, bound == 4 ? "-6" : "-4", bound == 4 ? 6 : 4);
    else if (bound && host && bound != host)
        snprintf(why, why_len, "--bind %s is an IPv%d address, the host %s IPv%d", o->bind,
                 bound, o->host, host);
    else if (o->bind && o->group && !o->transmit && o->mode == TTCP_MODE_CLASSIC)
        snprintf(why, why_len, "--bind does not go with -r -g: a member takes the group's port "
                 "on any address (--interface picks the interface)");
    else if (o->cport && (o->mode == TTCP_MODE_SERVER ||
                          (o->mode == TTCP_MODE_CLASSIC && !o->transmit)))
        snprintf(why, why_len, "--cport is the sending end's port (-t, -C); a receiver "
                 "listens on -p");
    else if (o->cport && o->cport + conns - 1 > 65535)
        snprintf(why, why_len, "--cport %llu: %llu data sockets would reach port %llu",
                 (unsigned long long)o->cport, (unsigned long long)conns,
                 (unsigned long long)(o->cport + conns - 1));
    else
        return 0;
    return -1;
}

/* What the data is and what the receiver does with it. */
static int check_data(const struct ttcp_options *o, char *why, size_t why_len)
{
    if (o->json && !o->transmit && !o->sinkmode)
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
    else
        return 0;
    return -1;
}

/* How long, how many streams, how much. */
static int check_amounts(const struct ttcp_options *o, char *why, size_t why_len)
{
    if (o->duration_ns && o->continuous)
        snprintf(why, why_len, "--time and -c do not go together");
    else if (o->fq_rate_bps && !tt_kernel_pacing())
        snprintf(why, why_len, "--fq-rate: this system has no kernel pacing a program can ask "
                 "for (Linux's SO_MAX_PACING_RATE); -R paces in ttcp itself");
    else if (o->omit_ns && o->duration_ns && o->omit_ns >= o->duration_ns)
        snprintf(why, why_len, "--omit %.2f leaves nothing of a test of %.2f s (--time%s)",
                 (double)o->omit_ns / 1e9, (double)o->duration_ns / 1e9,
                 o->mode == TTCP_MODE_CLIENT ? ", 10 s for -C without -n" : "");
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
    else
        return 0;
    return -1;
}

/* 1.12: "send more than the sentinel size". */
static void raise_udp_buflen_to_sentinel(struct ttcp_options *o)
{
    if (o->udp && o->buflen < TTCP_UDP_MIN_BUFLEN)
        o->buflen = TTCP_UDP_MIN_BUFLEN;
}

/* The steps in order: each settles what the next reads. */
static int check_and_settle(struct ttcp_options *o, char *why, size_t why_len)
{
    if (check_modes(o, why, why_len) != 0)
        return -1;
    settle_mode_defaults(o);
    if (o->action != TTCP_ACTION_RUN)
        return 0;
    if (check_target(o, why, why_len) != 0)
        return -1;
    take_multicast_host_as_group(o);
    if (check_multicast(o, why, why_len) != 0)
        return -1;
    settle_multicast_group(o);
    if (check_traceroute(o, why, why_len) != 0 || check_pmtu(o, why, why_len) != 0)
        return -1;
    settle_traceroute_side(o);
    if (ttcp_rules_check_plot(o, why, why_len) != 0)
        return -1;
    ttcp_rules_settle_plot_interval(o);
    if (ttcp_rules_check_output(o, why, why_len) != 0 || ttcp_rules_check_analysis(o, why, why_len) != 0)
        return -1;
    ttcp_rules_settle_output(o);
    ttcp_rules_settle_framing(o);
    if (check_host_and_buffers(o, why, why_len) != 0 || check_data(o, why, why_len) != 0 ||
        check_amounts(o, why, why_len) != 0 || check_local(o, why, why_len) != 0 ||
        ttcp_rules_check_compression(o, why, why_len) != 0 ||
        ttcp_rules_check_latency(o, why, why_len) != 0 ||
        ttcp_rules_check_web(o, why, why_len) != 0 ||
        (o->congestion != NULL && check_congestion(o, why, why_len) != 0))
        return -1;
    ttcp_rules_settle_latency(o);
    raise_udp_buflen_to_sentinel(o);
    return 0;
}

int ttcp_options_validate(struct ttcp_options *o, char *why, size_t why_len)
{
    int rc = check_and_settle(o, why, why_len);
    if (rc != 0)
        ttcp_text_printable(why);
    return rc;
}
