/* Building text into a caller's buffer, never past its end; and keeping a
 * message that quotes user input to one printable line. */
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

/* Makes text one printable line: control characters become '?'. For
 * messages that quote what a user typed. */
void ttcp_text_printable(char *text);

#endif
