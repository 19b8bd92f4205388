/* The usage text, generated from the option table in the 1.12 layout. */
#include <stdio.h>

#include "config/optable.h"
#include "config/options.h"

static const char *const section_titles[] = {
    [OPTS_COMMON] = "Common options:",
    [OPTS_TRANSMIT] = "Options specific to -t:",
    [OPTS_RECEIVE] = "Options specific to -r:",
    [OPTS_EXTRA] = "Extensions:",
    [OPTS_SERVER] = "Server and client:",
};

/* Appends formatted text, keeping track of the room left. */
static void put(char *buf, size_t len, size_t *used, const char *fmt,
                const char *a, const char *b)
{
    int n = snprintf(buf + *used, *used < len ? len - *used : 0, fmt, a, b);
    if (n > 0)
        *used += (size_t)n;
}

size_t ttcp_usage(const char *program, char *buf, size_t len)
{
    size_t count, i, used = 0;
    const struct ttcp_optdef *t = ttcp_optable(&count);
    int s;

    put(buf, len, &used, "Usage: %s -t [-options] host [ < in ]\n", program, "");
    put(buf, len, &used, "       %s -r [-options > out]\n", program, "");
    put(buf, len, &used, "       %s -S [-options]\n", program, "");
    put(buf, len, &used, "       %s -C [-t|-r|--bidir] [-options] host [host2[:port]]\n", program,
        "");
    for (s = OPTS_COMMON; s <= OPTS_SERVER; s++) {
        put(buf, len, &used, "%s%s\n", section_titles[s], "");
        for (i = 0; i < count; i++)
            if (t[i].section == (enum ttcp_optsection)s)
                put(buf, len, &used, "\t%s\t%s\n", t[i].synopsis, t[i].help);
    }
    return used;
}
