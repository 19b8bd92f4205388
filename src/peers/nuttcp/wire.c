/* nuttcp's HELO, parameter line and answer (wire.h): built as 6.1.2
 * builds them, read field by field with every number bounded. */
#include "peers/nuttcp/wire.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"

void ttcp_nuttcp_printable(char *text)
{
    for (; *text != '\0'; text++)
        if ((unsigned char)*text < 0x20 || (unsigned char)*text > 0x7e)
            *text = '?';
}

static size_t fits(int n, size_t len)
{
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

size_t ttcp_nuttcp_helo(const struct ttcp_nuttcp_version *v, char *buf, size_t len)
{
    return fits(snprintf(buf, len, "HELO nuttcp v%u.%u.%u\n", v->major, v->minor, v->delta),
                len);
}

/* "6.1.2" at text (a 'v' before it allowed): 0 and the end in *end, or -1. */
static int read_version(const char *text, struct ttcp_nuttcp_version *v, const char **end)
{
    unsigned part[3];
    int i;
    if (*text == 'v')
        text++;
    for (i = 0; i < 3; i++) {
        unsigned n = 0;
        int digits = 0;
        if (i > 0 && *text++ != '.')
            return -1;
        while (*text >= '0' && *text <= '9' && digits < 4) {
            n = n * 10 + (unsigned)(*text++ - '0');
            digits++;
        }
        if (digits == 0 || n > 999)
            return -1;
        part[i] = n;
    }
    v->major = part[0];
    v->minor = part[1];
    v->delta = part[2];
    *end = text;
    return 0;
}

static int at_line_end(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return *p == '\0';
}

int ttcp_nuttcp_read_helo(const char *line, struct ttcp_nuttcp_version *v, char *why,
                          size_t why_len)
{
    const char *end;
    if (strncmp(line, "HELO nuttcp ", 12) != 0 || read_version(line + 12, v, &end) != 0 ||
        !at_line_end(end)) {
        char shown[64];
        snprintf(shown, sizeof shown, "%.48s", line);
        shown[strcspn(shown, "\r\n")] = '\0';
        ttcp_nuttcp_printable(shown);
        snprintf(why, why_len, "not nuttcp's HELO: \"%s\"", shown);
        return -1;
    }
    return 0;
}

void ttcp_nuttcp_params_init(struct ttcp_nuttcp_params *p)
{
    static const struct ttcp_nuttcp_version spoken = TTCP_NUTTCP_SPOKEN;
    memset(p, 0, sizeof *p);
    p->buflen = 65536;
    p->nbuf = TTCP_NUTTCP_NBUF_FOREVER;
    p->nstream = 1;
    p->rate_kbps = TTCP_NUTTCP_RATE_NONE;
    p->port = 5001;
    p->trans = 1;
    p->timeout_s = 10.0;
    p->vers = spoken;
    p->format = TTCP_NUTTCP_FORMAT_DEFAULT;
}

size_t ttcp_nuttcp_params_line(const struct ttcp_nuttcp_params *p, char *buf, size_t len)
{
    int n = snprintf(buf, len,
                     "buflen = %llu, nbuf = %llu, win = %llu, nstream = %u, rate = %llu, "
                     "port = %u, trans = %d, braindead = %d, timeout = %f, udp = %d, "
                     "vers = %u.%u.%u, interval = %f, reverse = %d, format = %u, "
                     "traceroute = %d, irate = %d, thirdparty = _NULL_ , multicast = %u , "
                     "datamss = %u , tos = %X , nbuf_bytes = %d , rate_pps = %d , "
                     "nodelay = %d\n",
                     (unsigned long long)p->buflen, (unsigned long long)p->nbuf,
                     (unsigned long long)p->win, p->nstream, (unsigned long long)p->rate_kbps,
                     p->port, p->trans, p->braindead, p->timeout_s, p->udp, p->vers.major,
                     p->vers.minor, p->vers.delta, p->interval_s, p->reverse, p->format,
                     p->traceroute, p->irate, p->multicast, p->datamss, p->tos, p->nbuf_bytes,
                     p->rate_pps, p->nodelay);
    return fits(n, len);
}

/* The fields a reader knows: its name, its bounds, where it goes. */
enum kind { K_U64, K_UINT, K_FLAG, K_SECONDS, K_HEX, K_VERSION, K_NAME };
struct field {
    const char *name;
    enum kind kind;
    uint64_t max;
    size_t at; /* offsetof the member */
    int needed;
};

#define AT(m) offsetof(struct ttcp_nuttcp_params, m)
static const struct field fields[] = {
    {"buflen", K_U64, TTCP_NUTTCP_BUFLEN_MAX, AT(buflen), 1},
    {"nbuf", K_U64, UINT64_MAX >> 1, AT(nbuf), 1},
    {"win", K_U64, TTCP_NUTTCP_WIN_MAX, AT(win), 1},
    {"nstream", K_UINT, TTCP_NUTTCP_STREAMS_MAX, AT(nstream), 1},
    {"rate", K_U64, UINT64_MAX, AT(rate_kbps), 1},
    {"port", K_UINT, 65535, AT(port), 1},
    {"trans", K_FLAG, 1, AT(trans), 1},
    {"braindead", K_FLAG, 1, AT(braindead), 1},
    {"timeout", K_SECONDS, 0, AT(timeout_s), 1},
    {"udp", K_FLAG, 1, AT(udp), 1},
    {"vers", K_VERSION, 0, AT(vers), 1},
    {"interval", K_SECONDS, 0, AT(interval_s), 0},
    {"reverse", K_FLAG, 1, AT(reverse), 0},
    {"format", K_UINT, 0x7fffffff, AT(format), 0},
    {"traceroute", K_FLAG, 1, AT(traceroute), 0},
    {"irate", K_FLAG, 1, AT(irate), 0},
    {"thirdparty", K_NAME, 0, AT(thirdparty), 0},
    {"multicast", K_UINT, 255, AT(multicast), 0},
    {"datamss", K_UINT, 65535, AT(datamss), 0},
    {"tos", K_HEX, 255, AT(tos), 0},
    {"nbuf_bytes", K_FLAG, 1, AT(nbuf_bytes), 0},
    {"rate_pps", K_FLAG, 1, AT(rate_pps), 0},
    {"nodelay", K_FLAG, 1, AT(nodelay), 0},
};
#define FIELDS (sizeof fields / sizeof fields[0])

static int read_seconds(const char *text, double *out)
{
    char *end;
    double v;
    if (*text == '\0' || strchr("0123456789.", *text) == NULL)
        return -1;
    v = strtod(text, &end);
    if (*end != '\0' || !isfinite(v) || v < 0 || v > TTCP_NUTTCP_TIMEOUT_MAX)
        return -1;
    *out = v;
    return 0;
}

/* One value into its member: 0, or -1 with a reason in why. */
static int take_value(const struct field *f, const char *value, struct ttcp_nuttcp_params *p,
                      char *why, size_t why_len)
{
    char *base = (char *)p + f->at;
    const char *end;
    uint64_t n;
    switch (f->kind) {
    case K_SECONDS:
        return read_seconds(value, (double *)(void *)base);
    case K_VERSION:
        return read_version(value, (struct ttcp_nuttcp_version *)(void *)base, &end) != 0 ||
                       *end != '\0' ? -1 : 0;
    case K_NAME: /* a third party's host: only whether there is one */
        *(int *)(void *)base = strcmp(value, "_NULL_") != 0;
        return 0;
    case K_HEX:
        if (strlen(value) > 2 || value[0] == '\0' || strspn(value, "0123456789abcdefABCDEF") !=
                                                         strlen(value))
            return -1;
        *(unsigned *)(void *)base = (unsigned)strtoul(value, NULL, 16);
        return 0;
    default:
        if (ttcp_parse_u64(value, TTCP_SUFFIX_NONE, 0, f->max, &n, why, why_len) != 0)
            return -1;
        if (f->kind == K_U64)
            *(uint64_t *)(void *)base = n;
        else if (f->kind == K_UINT)
            *(unsigned *)(void *)base = (unsigned)n;
        else
            *(int *)(void *)base = (int)n;
        return 0;
    }
}

/* Trims spaces at both ends of s, in place. */
static char *trim(char *s)
{
    size_t n;
    while (*s == ' ' || *s == '\t')
        s++;
    n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* "name = value": the field it names (or none) takes it. */
static int take_item(char *item, struct ttcp_nuttcp_params *p, unsigned long *seen, char *why,
                     size_t why_len)
{
    char *eq = strchr(item, '='), *name, *value;
    size_t i;
    if (eq == NULL) {
        snprintf(why, why_len, "a parameter without '='");
        return -1;
    }
    *eq = '\0';
    name = trim(item);
    value = trim(eq + 1);
    for (i = 0; i < FIELDS; i++)
        if (strcmp(name, fields[i].name) == 0)
            break;
    if (i == FIELDS)
        return 0; /* a later version's field */
    if (*seen & (1ul << i) || take_value(&fields[i], value, p, why, why_len) != 0) {
        snprintf(why, why_len, "parameter %s: %s", fields[i].name,
                 *seen & (1ul << i) ? "given twice" : "out of its bounds");
        return -1;
    }
    *seen |= 1ul << i;
    return 0;
}

/* What the fields do not bound alone. */
static int check_params(const struct ttcp_nuttcp_params *p, unsigned long seen, char *why,
                        size_t why_len)
{
    size_t i;
    for (i = 0; i < FIELDS; i++)
        if (fields[i].needed && !(seen & (1ul << i))) {
            snprintf(why, why_len, "parameter %s missing", fields[i].name);
            return -1;
        }
    if (p->buflen == 0 || p->nstream == 0) {
        snprintf(why, why_len, "parameter %s: 0", p->buflen == 0 ? "buflen" : "nstream");
        return -1;
    }
    if (p->port < TTCP_NUTTCP_PORT_MIN || p->port + p->nstream - 1 > 65535) {
        snprintf(why, why_len, "data ports %u to %u: outside %u to 65535", p->port,
                 p->port + p->nstream - 1, TTCP_NUTTCP_PORT_MIN);
        return -1;
    }
    return 0;
}

int ttcp_nuttcp_read_params(const char *line, struct ttcp_nuttcp_params *p, char *why,
                            size_t why_len)
{
    char copy[TTCP_NUTTCP_LINE_MAX], *item, *next;
    unsigned long seen = 0;
    size_t n = strlen(line);
    if (n >= sizeof copy) {
        snprintf(why, why_len, "a parameter line longer than %d bytes", TTCP_NUTTCP_LINE_MAX);
        return -1;
    }
    memcpy(copy, line, n + 1);
    memset(p, 0, sizeof *p);
    p->format = TTCP_NUTTCP_FORMAT_DEFAULT;
    for (item = copy; item != NULL; item = next) {
        next = strchr(item, ',');
        if (next != NULL)
            *next++ = '\0';
        if (*trim(item) == '\0')
            continue;
        if (take_item(item, p, &seen, why, why_len) != 0)
            return -1;
    }
    return check_params(p, seen, why, why_len);
}

size_t ttcp_nuttcp_ok(const struct ttcp_nuttcp_version *v, char *buf, size_t len)
{
    return fits(snprintf(buf, len, "OK v%u.%u.%u\n", v->major, v->minor, v->delta), len);
}

enum ttcp_nuttcp_answer ttcp_nuttcp_read_answer(const char *line, struct ttcp_nuttcp_version *v)
{
    const char *end;
    memset(v, 0, sizeof *v);
    if (strncmp(line, "KO", 2) == 0 && at_line_end(line + 2))
        return TTCP_NUTTCP_ANSWER_KO;
    if (strncmp(line, "OK", 2) != 0)
        return TTCP_NUTTCP_ANSWER_TEXT;
    if (at_line_end(line + 2))
        return TTCP_NUTTCP_ANSWER_OK;
    if (line[2] == ' ' && read_version(line + 3, v, &end) == 0 && at_line_end(end))
        return TTCP_NUTTCP_ANSWER_OK;
    memset(v, 0, sizeof *v);
    return TTCP_NUTTCP_ANSWER_TEXT;
}
