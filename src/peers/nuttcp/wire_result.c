/* The lines a nuttcp server sends after the data (wire.h): read into a
 * report, and built as 6.1.2 prints them, for ttcp -S's nuttcp end. */
#include "peers/nuttcp/wire.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define MB_MAX 1e12   /* MiB: an exbibyte */
#define SECONDS_MAX 1e8
#define COUNT_MAX 1e15

static const char *skip(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* A number at p (spaces before it skipped) within [0, max]: the text after
 * it, or NULL (as for p NULL: a chain of reads stops at its first miss). */
static const char *number(const char *p, double max, double *out)
{
    char *end;
    double v;
    if (p == NULL)
        return NULL;
    p = skip(p);
    if (*p < '0' || *p > '9')
        return NULL;
    v = strtod(p, &end);
    if (end == p || !isfinite(v) || v < 0 || v > max)
        return NULL;
    *out = v;
    return end;
}

/* The literal word at p (spaces before it skipped): the text after it, or NULL. */
static const char *word(const char *p, const char *w)
{
    size_t n = strlen(w);
    if (p == NULL)
        return NULL;
    p = skip(p);
    return strncmp(p, w, n) == 0 ? p + n : NULL;
}

/* "162.0000 MB in 1.00 real seconds = ..." after the tag. */
static enum ttcp_nuttcp_line read_amount(const char *p, struct ttcp_nuttcp_report *r, char side)
{
    double mb, s;
    const char *q = number(p, MB_MAX, &mb);
    q = word(word(q, "MB"), "in");
    if (q == NULL || (q = number(q, SECONDS_MAX, &s)) == NULL)
        return TTCP_NUTTCP_LINE_OTHER;
    if (word(q, "real seconds") != NULL) {
        r->side = side;
        r->megabytes = mb;
        r->real_s = s;
        return TTCP_NUTTCP_LINE_TOTAL;
    }
    if (word(q, "CPU seconds") != NULL) {
        r->cpu_s = s;
        return TTCP_NUTTCP_LINE_CPU;
    }
    return TTCP_NUTTCP_LINE_OTHER;
}

/* "0.0user 0.0sys 0:01real 8% ..." after the tag. */
static enum ttcp_nuttcp_line read_rusage(const char *p, struct ttcp_nuttcp_report *r)
{
    double user, sys, pct;
    const char *q = word(number(p, SECONDS_MAX, &user), "user");
    q = q != NULL ? word(number(q, SECONDS_MAX, &sys), "sys") : NULL;
    if (q == NULL)
        return TTCP_NUTTCP_LINE_OTHER;
    q = strstr(q, "real");
    if (q == NULL || (q = number(q + 4, 100000, &pct)) == NULL || *q != '%')
        return TTCP_NUTTCP_LINE_OTHER;
    r->user_s = user;
    r->sys_s = sys;
    r->cpu_pct = (unsigned)pct;
    return TTCP_NUTTCP_LINE_RUSAGE;
}

/* A line tagged "nuttcp-t:" or "nuttcp-r:" (an -I identifier after the
 * side allowed: "nuttcp-r-id:"). */
static enum ttcp_nuttcp_line read_tagged(const char *line, struct ttcp_nuttcp_report *r)
{
    char side = line[7];
    const char *p = strchr(line, ':');
    double n;
    enum ttcp_nuttcp_line kind;
    if ((side != 't' && side != 'r') || p == NULL || p - line > 64)
        return TTCP_NUTTCP_LINE_OTHER;
    p++;
    if (word(p, "Error") != NULL) {
        snprintf(r->error, sizeof r->error, "%s", skip(p));
        r->error[strcspn(r->error, "\r\n")] = '\0';
        ttcp_nuttcp_printable(r->error);
        return TTCP_NUTTCP_LINE_ERROR;
    }
    if (word(p, "retrans =") != NULL) {
        if (number(word(p, "retrans ="), COUNT_MAX, &n) == NULL)
            return TTCP_NUTTCP_LINE_OTHER;
        r->retrans = (uint64_t)n;
        return TTCP_NUTTCP_LINE_RETRANS;
    }
    kind = read_amount(p, r, side);
    return kind != TTCP_NUTTCP_LINE_OTHER ? kind : read_rusage(p, r);
}

/* "  93.7500 MB /   0.50 sec = 1572.2351 Mbps     0 retrans", or UDP's
 * "... Mbps    60 /  1553 ~drop/pkt  3.86 ~%loss". */
static enum ttcp_nuttcp_line read_interval(const char *line, struct ttcp_nuttcp_report *r)
{
    double mb, s, mbps, a, b;
    const char *q = word(number(line, MB_MAX, &mb), "MB /");
    q = q != NULL ? word(word(number(q, SECONDS_MAX, &s), "sec"), "=") : NULL;
    q = q != NULL ? word(number(q, 1e12, &mbps), "Mbps") : NULL;
    if (q == NULL)
        return TTCP_NUTTCP_LINE_OTHER;
    r->iv_megabytes = mb;
    r->iv_seconds = s;
    r->iv_mbps = mbps;
    r->iv_retrans_valid = r->iv_drops_valid = 0;
    if (word(number(q, COUNT_MAX, &a), "retrans") != NULL) {
        r->iv_retrans = (uint64_t)a;
        r->iv_retrans_valid = 1;
    } else if (word(word(number(word(number(q, COUNT_MAX, &a), "/"), COUNT_MAX, &b), "~drop"),
                    "/pkt") != NULL ||
               word(word(number(word(number(q, COUNT_MAX, &a), "/"), COUNT_MAX, &b), "drop"),
                    "/pkt") != NULL) {
        r->iv_drops = (uint64_t)a;
        r->iv_packets = (uint64_t)b;
        r->iv_drops_valid = 1;
    }
    return TTCP_NUTTCP_LINE_INTERVAL;
}

enum ttcp_nuttcp_line ttcp_nuttcp_read_line(const char *line, struct ttcp_nuttcp_report *r)
{
    enum ttcp_nuttcp_line kind;
    if (strlen(line) >= TTCP_NUTTCP_LINE_MAX)
        return TTCP_NUTTCP_LINE_OTHER;
    if (strncmp(line, "DONE", 4) == 0 && *skip(line + 4) <= '\r')
        kind = TTCP_NUTTCP_LINE_DONE;
    else if (strncmp(line, "nuttcp-", 7) == 0)
        kind = read_tagged(line, r);
    else
        kind = read_interval(line, r);
    r->have |= 1u << kind;
    return kind;
}

uint64_t ttcp_nuttcp_bytes(double megabytes)
{
    if (!isfinite(megabytes) || megabytes <= 0)
        return 0;
    return megabytes >= MB_MAX ? (uint64_t)(MB_MAX * 1048576.0)
                               : (uint64_t)llround(megabytes * 1048576.0);
}

static size_t fits(int n, size_t len)
{
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

static double mib(uint64_t bytes)
{
    return (double)bytes / 1048576.0;
}

size_t ttcp_nuttcp_total_line(int parse, char side, uint64_t bytes, double real_s, char *buf,
                              size_t len)
{
    double s = real_s > 0 ? real_s : 1e-6, kbps = (double)bytes / 1024.0 / s;
    double mbps = (double)bytes * 8.0 / 1e6 / s;
    if (parse)
        return fits(snprintf(buf, len, "nuttcp-%c: megabytes=%.4f real_seconds=%.2f "
                             "rate_KBps=%.2f rate_Mbps=%.4f\n", side, mib(bytes), real_s,
                             kbps, mbps), len);
    return fits(snprintf(buf, len, "nuttcp-%c: %.4f MB in %.2f real seconds = %.2f KB/sec = "
                         "%.4f Mbps\n", side, mib(bytes), real_s, kbps, mbps), len);
}

size_t ttcp_nuttcp_cpu_line(int parse, char side, uint64_t bytes, double cpu_s, char *buf,
                            size_t len)
{
    double s = cpu_s > 0 ? cpu_s : 1e-6, per_cpu = (double)bytes / 1024.0 / s;
    if (parse)
        return fits(snprintf(buf, len, "nuttcp-%c: megabytes=%.4f cpu_seconds=%.2f "
                             "KB_per_cpu_second=%.2f\n", side, mib(bytes), cpu_s, per_cpu),
                    len);
    return fits(snprintf(buf, len, "nuttcp-%c: %.4f MB in %.2f CPU seconds = %.2f KB/cpu sec\n",
                         side, mib(bytes), cpu_s, per_cpu), len);
}

size_t ttcp_nuttcp_retrans_line(int parse, uint64_t retrans, char *buf, size_t len)
{
    const char *shape = parse ? "nuttcp-t: retrans=%llu\n" : "nuttcp-t: retrans = %llu\n";
    return fits(snprintf(buf, len, shape, (unsigned long long)retrans), len);
}

size_t ttcp_nuttcp_rusage_line(int parse, char side, double user_s, double sys_s, double real_s,
                               unsigned cpu_pct, char *buf, size_t len)
{
    long whole = (long)real_s;
    if (parse)
        return fits(snprintf(buf, len, "nuttcp-%c: stats=cpu user=%.1f system=%.1f "
                             "elapsed=%ld:%02ld cpu=%u%% memory=0i+0d-0maxrss io=0+0pf "
                             "swaps=0+0csw\n", side, user_s, sys_s, whole / 60, whole % 60,
                             cpu_pct), len);
    return fits(snprintf(buf, len, "nuttcp-%c: %.1fuser %.1fsys %ld:%02ldreal %u%% 0i+0d "
                         "0maxrss 0+0pf 0+0csw\n", side, user_s, sys_s, whole / 60,
                         whole % 60, cpu_pct), len);
}

/* -fparse's interval: key=value pairs, UDP's drops and loss after the rate. */
static size_t parse_interval_line(uint64_t bytes, double seconds, double mbps, int udp,
                                  uint64_t retrans, uint64_t drops, uint64_t packets,
                                  char *buf, size_t len)
{
    if (udp)
        return fits(snprintf(buf, len, "megabytes=%.4f real_sec=%.2f rate_Mbps=%.4f drop=%llu "
                             "pkt=%llu data_loss=%.5f\n", mib(bytes), seconds, mbps,
                             (unsigned long long)drops, (unsigned long long)packets,
                             packets ? 100.0 * (double)drops / (double)packets : 0.0), len);
    return fits(snprintf(buf, len, "megabytes=%.4f real_sec=%.2f rate_Mbps=%.4f retrans=%llu\n",
                         mib(bytes), seconds, mbps, (unsigned long long)retrans), len);
}

size_t ttcp_nuttcp_interval_line(int parse, uint64_t bytes, double seconds, int udp,
                                 uint64_t retrans, uint64_t drops, uint64_t packets, char *buf,
                                 size_t len)
{
    double s = seconds > 0 ? seconds : 1e-6, mbps = (double)bytes * 8.0 / 1e6 / s;
    if (parse)
        return parse_interval_line(bytes, seconds, mbps, udp, retrans, drops, packets, buf, len);
    if (udp)
        return fits(snprintf(buf, len, "%10.4f MB / %6.2f sec = %9.4f Mbps %5llu / %5llu "
                             "~drop/pkt %5.2f ~%%loss\n", mib(bytes), seconds, mbps,
                             (unsigned long long)drops, (unsigned long long)packets,
                             packets ? 100.0 * (double)drops / (double)packets : 0.0), len);
    return fits(snprintf(buf, len, "%10.4f MB / %6.2f sec = %9.4f Mbps %5llu retrans\n",
                         mib(bytes), seconds, mbps, (unsigned long long)retrans), len);
}
