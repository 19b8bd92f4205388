/* Text built into a caller's buffer, and one-line cleaning. */
#include "base/text.h"

#include <stdarg.h>
#include <stdio.h>

void ttcp_text_add(struct ttcp_text *t, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(t->buf + t->used, t->used < t->len ? t->len - t->used : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->used += (size_t)n;
    if (t->used >= t->len && t->len > 0)
        t->used = t->len - 1; /* cut, but still a string */
}

void ttcp_text_printable(char *text)
{
    for (; *text; text++)
        if ((unsigned char)*text < 0x20 || (unsigned char)*text == 0x7f)
            *text = '?';
}
