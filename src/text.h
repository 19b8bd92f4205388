/* Building report text into a caller's buffer, never past its end. */
#ifndef TTCP_TEXT_H
#define TTCP_TEXT_H

#include <stddef.h>

struct ttcp_text {
    char *buf;
    size_t len, used;
};

void ttcp_text_add(struct ttcp_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
