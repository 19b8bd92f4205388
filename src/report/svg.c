#include "report/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COORD_LIMIT 1e6

void ttcp_svg_init(struct ttcp_svg *s)
{
    memset(s, 0, sizeof *s);
}

void ttcp_svg_free(struct ttcp_svg *s)
{
    free(s->buf);
    ttcp_svg_init(s);
}

/* Room for n more bytes and the NUL; 0, or -1 (failed) when memory ran out. */
static int reserve(struct ttcp_svg *s, size_t n)
{
    size_t cap;
    char *grown;
    if (s->failed)
        return -1;
    if (s->len + n + 1 <= s->cap)
        return 0;
    cap = s->cap ? s->cap : 4096;
    while (cap < s->len + n + 1)
        cap *= 2;
    grown = realloc(s->buf, cap);
    if (grown == NULL) {
        s->failed = 1;
        return -1;
    }
    s->buf = grown;
    s->cap = cap;
    return 0;
}

static void raw(struct ttcp_svg *s, const char *text, size_t n)
{
    if (reserve(s, n) != 0)
        return;
    memcpy(s->buf + s->len, text, n);
    s->len += n;
    s->buf[s->len] = '\0';
}

void ttcp_svg_add(struct ttcp_svg *s, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(s, (size_t)n) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s->len += (size_t)n;
}

void ttcp_svg_text(struct ttcp_svg *s, const char *text)
{
    for (; text != NULL && *text != '\0'; text++) {
        unsigned char c = (unsigned char)*text;
        if (c == '&')
            raw(s, "&amp;", 5);
        else if (c == '<')
            raw(s, "&lt;", 4);
        else if (c == '>')
            raw(s, "&gt;", 4);
        else if (c == '"')
            raw(s, "&quot;", 6);
        else if (c == '\'')
            raw(s, "&#39;", 5);
        else if (c < 0x20 || c > 0x7e)
            raw(s, "?", 1);
        else
            raw(s, text, 1);
    }
}

double ttcp_svg_coord(double v)
{
    if (isnan(v))
        return 0.0;
    if (v > COORD_LIMIT)
        return COORD_LIMIT;
    if (v < -COORD_LIMIT)
        return -COORD_LIMIT;
    return v;
}
