/* What the rest of the program asks of a run's options: its side's tag,
 * its direction, whether it prints the extended lines; and what a
 * multicast address is. The table is optable.c, the parser parse_argv.c,
 * the rules rules.c. */
#include "config/options.h"

#include <stdio.h>
#include <string.h>

#include "ttcp/platform.h"

int ttcp_options_extended(const struct ttcp_options *o)
{
    /* (intervals taken for --plot alone leave the classic lines as they are) */
    return (o->interval_ns && !o->quiet_intervals) || o->duration_ns || o->pace_bps ||
           o->link_bps || o->verify || o->json || o->pattern != TTCP_PAYLOAD_CLASSIC ||
           o->unit >= TTCP_UNIT_BPS || o->omit_ns ||
           o->compression; /* its two tests' lines alike, the random one's extended */
}

uint64_t ttcp_options_back_buflen(const struct ttcp_options *opts)
{
    return opts->back_buflen != 0 ? opts->back_buflen : opts->buflen;
}

const char *ttcp_options_side(const struct ttcp_options *opts)
{
    if (opts->stream_number > 0 || opts->side_named)
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

void ttcp_options_name_tool(struct ttcp_options *opts, const char *tool)
{
    char side[12]; /* "-r[128]" */
    snprintf(side, sizeof side, "%.11s", ttcp_options_side(opts));
    snprintf(opts->stream_side, sizeof opts->stream_side, "%s(%.16s)", side, tool);
    opts->side_named = 1;
}

enum ttcp_direction ttcp_options_direction(const struct ttcp_options *o)
{
    if (o->bidir)
        return TTCP_DIR_BIDIR;
    return o->transmit ? TTCP_DIR_SEND : TTCP_DIR_RECEIVE;
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

int ttcp_options_target_ok(const char *text)
{
    size_t n = strlen(text), i;
    if (n == 0 || n > 253)
        return 0;
    for (i = 0; i < n; i++) {
        char c = text[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '-' || c == '_' || c == ':'))
            return 0;
    }
    return 1;
}
