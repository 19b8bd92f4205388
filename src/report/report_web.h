/* -S --web: the words of a browser's test at the server, its line and its
 * -S --json document. Pure. */
#ifndef TTCP_REPORT_WEB_H
#define TTCP_REPORT_WEB_H

#include <stddef.h>

#include "remote/web.h"
#include "report/json.h"

/* "ttcp-S: web 192.0.2.7: down 38.6 kbit/s, up 31.2 kbit/s, idle 120 ms,
 * loaded 880 ms, grade D\n"; a test that did not end with the page's figures
 * says how it ended and what the server counted. */
size_t ttcp_report_web(const struct ttcp_web_figures *f, char *buf, size_t len);
/* "ttcp-S: serving browsers on port 8080 (http://HOST:8080/)\n". */
size_t ttcp_report_web_port(uint64_t port, char *buf, size_t len);
/* The test's members, in the object "web" of its own document. */
void ttcp_json_web(struct ttcp_json *j, const struct ttcp_web_figures *f);

#endif
