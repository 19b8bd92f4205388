/* The BSD socket API both platform layers share for names and addresses.
 * The one place outside the per-OS folders that tells the systems apart. */
#ifndef TTCP_SOCKETS_H
#define TTCP_SOCKETS_H

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#endif

/* Stores a native error number where tt_last_error() reads it (errno,
 * WSASetLastError); each platform's err.c defines it. */
void tt_set_native_error(int err);
/* The TT_E_* code of the socket call that just failed (errno, WSAGetLastError()). */
int tt_socket_fail(void);
/* The interface named by text (a name, an index, or an IPv4 address): its
 * index (0: none found) and, where it has one, an IPv4 address (else
 * INADDR_ANY); each platform's net.c. */
int tt_interface(const char *text, unsigned *index, struct in_addr *v4);

#endif
