/* -S --web in a build without libmicrohttpd (one from source where CMake
 * found none; the release binaries link it): the option is known, and
 * refused in one line. */
#include <stdio.h>

#include "web/web.h"

static int no_start(const struct ttcp_web_host *host, void **web, char *why, size_t why_len)
{
    (void)host;
    *web = NULL;
    snprintf(why, why_len, "--web: this build of ttcp has no HTTP server (libmicrohttpd); "
             "the release binaries have one");
    return -1;
}

static void no_stop(void *web)
{
    (void)web;
}

const struct ttcp_web_row *ttcp_web_row(void)
{
    static const struct ttcp_web_row row = {no_start, no_stop, no_stop};
    return &row;
}
