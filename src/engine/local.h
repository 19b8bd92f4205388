/* --bind and --cport: the local end of a socket. A transmitter or client
 * binds before it connects; a receiver or server listens on the --bind
 * address alone. */
#ifndef TTCP_LOCAL_H
#define TTCP_LOCAL_H

#include <stdint.h>

#include "config/options.h"
#include "ttcp/platform.h"

/* The address to bind a receiver's socket to: the --bind address (its
 * family then replaces *family) or the family's any, on port. */
int ttcp_local_address(const struct ttcp_options *o, int *family, uint16_t port,
                       struct tt_addr *out);

/* Binds an outgoing socket of family to the --bind address and port (0:
 * one the OS picks); nothing when neither --bind nor a port is asked. */
int ttcp_bind_outgoing(tt_socket s, const struct ttcp_options *o, int family, uint16_t port);

#endif
