/* The phases of a test, each over a session (session.h): setting up each
 * side (connect.c), then moving the data (transmit.c, receive.c,
 * udp_send.c, udp_recv.c). run.c calls them in turn; they call only the
 * session helpers and the layers below, never each other. */
#ifndef TTCP_PHASES_H
#define TTCP_PHASES_H

#include "engine/session.h"

/* Side setup (connect.c). */
int ttcp_resolve_peer(struct ttcp_session *s);
int ttcp_open_transmitter(struct ttcp_session *s);
int ttcp_open_receiver(struct ttcp_session *s);
int ttcp_accept_one(struct ttcp_session *s);
/* A connection made elsewhere (s->sock): its options, then the accept or
 * connect line. */
int ttcp_adopt_connection(struct ttcp_session *s, const struct tt_addr *peer, int accepted);

/* Data phases. */
int ttcp_tcp_transmit(struct ttcp_session *s);
int ttcp_tcp_receive(struct ttcp_session *s);
int ttcp_udp_transmit(struct ttcp_session *s);
int ttcp_udp_receive(struct ttcp_session *s);

#endif
