/* -S --web [ADDRESS:]PORT: the browser's test's own HTTP port, never the
 * tests' port (classic data is never read as a request). */
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "config/rules_report.h"

/* "PORT", "ADDRESS:PORT" or "[IPv6]:PORT" into web_host and web_port. */
static int split_web(struct ttcp_options *o, char *why, size_t why_len)
{
    const char *t = o->web, *colon = strrchr(t, ':'), *port = t, *end;
    char reason[160];
    size_t n = 0;
    if (t[0] == '[' && (end = strchr(t, ']')) != NULL && end[1] == ':') {
        n = (size_t)(end - t - 1);
        port = end + 2;
        t++;
    } else if (colon != NULL && strchr(t, ':') == colon) {
        n = (size_t)(colon - t);
        port = colon + 1;
    } else if (colon != NULL) {
        snprintf(why, why_len, "--web %.64s: an IPv6 address goes in brackets, "
                 "[::1]:8080", o->web);
        return -1;
    }
    if ((port != o->web && n == 0) || n >= sizeof o->web_host) {
        snprintf(why, why_len, "--web %.64s: not [ADDRESS:]PORT", o->web);
        return -1;
    }
    memcpy(o->web_host, t, n);
    o->web_host[n] = '\0';
    if (n > 0 && !ttcp_options_target_ok(o->web_host)) {
        snprintf(why, why_len, "--web %.64s: not a host name or a numeric address", o->web);
        return -1;
    }
    if (ttcp_parse_u64(port, TTCP_SUFFIX_NONE, 1, 65535, &o->web_port, reason,
                       sizeof reason) != 0) {
        snprintf(why, why_len, "--web %.64s: port %s", o->web, reason);
        return -1;
    }
    return 0;
}

int ttcp_rules_check_web(struct ttcp_options *o, char *why, size_t why_len)
{
    if (o->web == NULL)
        return 0;
    if (o->inetd) {
        snprintf(why, why_len, "--web does not go with --inetd: inetd hands over one "
                 "connection, the page needs a listener");
        return -1;
    }
    if (split_web(o, why, why_len) != 0)
        return -1;
    if (o->web_port == o->port) {
        snprintf(why, why_len, "--web: port %llu is the tests' (-p): give the page a port of "
                 "its own", (unsigned long long)o->web_port);
        return -1;
    }
    return 0;
}
