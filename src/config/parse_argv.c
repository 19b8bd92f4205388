/* The argv parser: a getopt-like walk over argv (clustered flags, attached
 * or separate arguments, options after the host as glibc allows), each
 * option applied as its row in the table (optable.c) says; then the rules
 * (rules.c). */
#include "config/options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "config/optable.h"
#include "ttcp/platform.h"

static void set_defaults(struct ttcp_options *o)
{
    memset(o, 0, sizeof *o);
    o->action = TTCP_ACTION_RUN;
    o->buflen = TTCP_DEFAULT_BUFLEN;
    o->nbuf = TTCP_DEFAULT_NBUF;
    o->port = TTCP_DEFAULT_PORT;
    o->iperf3_port = TTCP_IPERF3_PORT;
    o->nuttcp_port = TTCP_NUTTCP_PORT;
    o->bufalign = TTCP_DEFAULT_ALIGN;
    o->unit = TTCP_UNIT_KBYTE;
    o->family = TT_FAMILY_ANY;
    o->idle_timeout_ns = TTCP_DEFAULT_IDLE_NS;
    o->streams = 1;
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

/* --allow PREFIX: one more, kept as typed (the server reads them). */
static int add_allow(struct ttcp_options *o, const char *arg, char *reason, size_t len)
{
    if (o->allow_count >= TTCP_ALLOW_MAX) {
        snprintf(reason, len, "at most %d prefixes", TTCP_ALLOW_MAX);
        return -1;
    }
    o->allow[o->allow_count++] = arg;
    return 0;
}

/* --third-party PREFIX: one more target prefix, kept as typed (the server
 * reads them). */
static int add_target_prefix(struct ttcp_options *o, const char *arg, char *reason, size_t len)
{
    if (o->third_party_count >= TTCP_ALLOW_MAX) {
        snprintf(reason, len, "at most %d prefixes", TTCP_ALLOW_MAX);
        return -1;
    }
    o->third_party[o->third_party_count++] = arg;
    return 0;
}

/* -f X and --pattern P: a name from a short list. */
static int parse_name(const struct ttcp_optdef *d, const char *arg, void *field, char *reason,
                      size_t len)
{
    int rc;
    if (d->kind == OPTK_UNIT) {
        rc = ttcp_unit_parse(arg);
        if (rc >= 0)
            *(enum ttcp_unit *)field = (enum ttcp_unit)rc;
        else
            snprintf(reason, len, "'%s' is not a unit: use one of " TTCP_UNIT_NAMES, arg);
    } else {
        rc = ttcp_payload_parse(arg);
        if (rc >= 0)
            *(enum ttcp_payload *)field = (enum ttcp_payload)rc;
        else
            snprintf(reason, len, "'%s' is not a pattern (classic, random, zeros)", arg);
    }
    return rc < 0 ? -1 : 0;
}

/* An option's argument into its field, as the row's kind says. */
static int take_argument(struct ttcp_options *o, const struct ttcp_optdef *d, const char *arg,
                         char *reason, size_t len)
{
    char *field = (char *)o + d->offset;

    switch (d->kind) {
    case OPTK_NUMBER:
        return ttcp_parse_u64(arg, d->suffix, d->min, d->max, (uint64_t *)field, reason, len);
    case OPTK_SECONDS:
        return ttcp_parse_seconds(arg, (int64_t)d->min, (int64_t)d->max, (int64_t *)field,
                                  reason, len);
    case OPTK_RATE:
        return ttcp_parse_rate(arg, d->min, d->max, (uint64_t *)field, reason, len);
    case OPTK_UNIT:
    case OPTK_PATTERN:
        return parse_name(d, arg, field, reason, len);
    case OPTK_PACE:
        return parse_pace(o, d, arg, reason, len);
    case OPTK_CPUS:
        return parse_cpus(o, d, arg, reason, len);
    case OPTK_ALLOW:
        return add_allow(o, arg, reason, len);
    case OPTK_TARGETS:
        return add_target_prefix(o, arg, reason, len);
    case OPTK_DSCP:
        return ttcp_parse_dscp(arg, (uint64_t *)field, reason, len);
    case OPTK_TOS:
        return ttcp_parse_tos(arg, (uint64_t *)field, reason, len);
    case OPTK_TEXT:
        *(const char **)field = arg;
        return 0;
    case OPTK_SET:
    case OPTK_TOGGLE:
        break;
    }
    return 0;
}

/* Applies one option; arg is NULL for those without an argument. A row
 * with a "typed" flag (d->given) sets it once the option is taken. */
static int apply(struct ttcp_options *o, const struct ttcp_optdef *d,
                 const char *name, const char *arg, char *why, size_t why_len)
{
    int *field = (int *)((char *)o + d->offset);
    char reason[160];

    if (d->kind == OPTK_SET) {
        *field = d->value;
    } else if (d->kind == OPTK_TOGGLE) {
        *field = !*field;
    } else if (take_argument(o, d, arg, reason, sizeof reason) != 0) {
        snprintf(why, why_len, "%s: %s", name, reason);
        return -1;
    }
    if (d->given != OPT_NO_GIVEN)
        *(int *)((char *)o + d->given) = 1;
    return 0;
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

/* The host word; a second one is a third party's target (-C host1 host2:
 * the rules refuse it in the other modes). */
static int take_host(struct ttcp_options *o, const char *word, char *why, size_t why_len)
{
    if (o->host != NULL && o->target == NULL) {
        o->target = word;
        return 0;
    }
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
