/* SVG text in a growing buffer: markup from the plot's own format strings,
 * character data escaped, coordinates always finite. Pure. */
#ifndef TTCP_SVG_H
#define TTCP_SVG_H

#include <stddef.h>

struct ttcp_svg {
    char *buf; /* NUL-terminated; NULL until something is written */
    size_t len, cap;
    int failed; /* out of memory: the text is incomplete */
};

void ttcp_svg_init(struct ttcp_svg *s);
void ttcp_svg_free(struct ttcp_svg *s);

/* Markup: fmt and its arguments are the plot's own, never user text. */
void ttcp_svg_add(struct ttcp_svg *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Character data (an element's text or an attribute's value): & < > " '
 * as entities, and anything outside printable ASCII as '?', so a host name
 * of any bytes keeps the document well formed. */
void ttcp_svg_text(struct ttcp_svg *s, const char *text);

/* A coordinate as the document may hold it: not-a-number as 0, and within
 * +-1e6 (far outside any canvas, yet finite). */
double ttcp_svg_coord(double v);

#endif
