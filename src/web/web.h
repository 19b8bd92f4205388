/* -S --web: web/'s entry points, the row cli/ hands the server
 * (remote/web.h). A build without libmicrohttpd has none.c's, whose start
 * says so in one line. */
#ifndef TTCP_WEB_WEB_H
#define TTCP_WEB_WEB_H

#include "remote/web.h"
#include "web/session.h"

const struct ttcp_web_row *ttcp_web_row(void);

#endif
