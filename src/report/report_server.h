/* The words of a server's notices and of a client's summary line. Pure. */
#ifndef TTCP_REPORT_SERVER_H
#define TTCP_REPORT_SERVER_H

#include <stddef.h>

#include "config/options.h"
#include "measure/notice.h"
#include "measure/result.h"

/* "ttcp-S: 192.0.2.7: turned away: busy (--max-clients)\n"; peer may be NULL. */
size_t ttcp_report_notice(const struct ttcp_options *o, enum ttcp_notice what,
                          const char *peer, char *buf, size_t len);

/* Another tool's port: "ttcp-S: serving iperf3 clients on port 5201\n", or
 * when its listener could not be had (code, native: why) "ttcp-S: not
 * serving iperf3 clients: port 5201: Address already in use\n". */
size_t ttcp_report_peer_port(const char *tool, uint64_t port, int code, int native, char *buf,
                             size_t len);

/* One stream's summary on the client, in the spirit of nuttcp's:
 *   ttcp-C: send 1048576 bytes / 1.00 sec = 1024.00 KB/sec 3 %TX 12 %RX 0 retrans 0.05 msRTT
 * direction: "send" (the client sent) or "recv"; bytes and seconds are the
 * receiver's; %TX and %RX each end's CPU over its own real time; retrans
 * and RTT the sender's TCP statistics, left out where its OS has none; for
 * UDP, "L / N lost (P%) J ms jitter": N the datagrams sent, L those the
 * receiver's sequence header never saw, J its RFC 3550 jitter. */
size_t ttcp_report_summary(const struct ttcp_options *o, const char *direction,
                           const struct ttcp_result *tx, const struct ttcp_result *rx,
                           char *buf, size_t len);

/* UDP: the data datagrams the transmitter sent (its bytes over -l: every one
 * of a sink-mode test is -l long), so that losses after the receiver's last
 * datagram count too; at least what the receiver's sequence numbers tell. */
uint64_t ttcp_report_udp_sent(const struct ttcp_options *o, const struct ttcp_result *tx,
                              const struct ttcp_result *rx);
/* A test's CPU time (user and system) over its real time, in percent. */
double ttcp_report_cpu_percent(const struct ttcp_result *r);

#endif
