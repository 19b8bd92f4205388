/* The browser's test's page (page.html), compiled in by CMake
 * (embed.cmake): one self-contained document, no request beyond the server. */
#ifndef TTCP_WEB_PAGE_H
#define TTCP_WEB_PAGE_H

#include <stddef.h>

extern const char ttcp_web_page[];
extern const size_t ttcp_web_page_len;

#endif
