/* One complete test: set up, measure, tear down. Prints nothing. */
#ifndef TTCP_RUN_H
#define TTCP_RUN_H

#include "config/options.h"
#include "measure/result.h"

/* Returns 0, or the TT_E_* code also recorded in res->failure. */
int ttcp_run(const struct ttcp_options *opts, const struct ttcp_observer *obs,
             struct ttcp_result *res);

/* One TCP test over a connection set up by someone else: a server's
 * accepted connection (accepted = 1: announced as "accept from" peer) or a
 * client's data connection (0: "connect"). The side is opts->transmit.
 * Takes the socket: it is closed when the test ends. */
int ttcp_run_on(const struct ttcp_options *opts, const struct ttcp_observer *obs,
                struct ttcp_result *res, tt_socket sock, const struct tt_addr *peer,
                int accepted);

/* The receive window a new TCP socket gets from the OS (bytes), for the
 * dialog's rcvwndsize bracket; 0 when it cannot be told. */
int ttcp_system_rcvwnd(void);

#endif
