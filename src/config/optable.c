/* The option table: one row per option, read by the parser (parse_argv.c),
 * the rules (rules.c: the modes that take an option) and the usage text
 * (cli/usage.c). The rows' order is the usage text's. */
#include "config/optable.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "config/options.h"
#include "ttcp/platform.h"

#define FIELD(name) offsetof(struct ttcp_options, name)
#define GIVEN(name) FIELD(name) /* the int set to 1 when the option is typed */
#define SECONDS(n) ((uint64_t)(n) * 1000000000ull)

/* Bounds: sizes up to 256 MiB per buffer, counts up to 2^48 buffers. */
#define MAX_BUFLEN (256u << 20)
#define MAX_NBUF (1ull << 48)

/* Columns: letter, long name, kind, field, value (OPTK_SET), suffix, min, max;
 * usage section, the modes that take it, its "typed" flag, synopsis, help. */
static const struct ttcp_optdef table[] = {
    {'t', NULL, OPTK_SET, FIELD(transmit), 1, 0, 0, 0,
     OPTS_HIDDEN, OPTM_ANY, GIVEN(side_given), "-t", "transmit"},
    {'r', NULL, OPTK_SET, FIELD(transmit), 0, 0, 0, 0,
     OPTS_HIDDEN, OPTM_ANY, GIVEN(side_given), "-r", "receive"},
    {'l', NULL, OPTK_NUMBER, FIELD(buflen), 0, TTCP_SUFFIX_BINARY, 1, MAX_BUFLEN,
     OPTS_COMMON, OPTM_ANY, GIVEN(buflen_given), "-l ##",
     "length of bufs read from or written to network (default 8192)"},
    {'u', NULL, OPTK_SET, FIELD(udp), 1, 0, 0, 0,
     OPTS_COMMON, OPTM_ANY, OPT_NO_GIVEN, "-u", "use UDP instead of TCP"},
    {'p', NULL, OPTK_NUMBER, FIELD(port), 0, TTCP_SUFFIX_NONE, 1, 65535,
     OPTS_COMMON, OPTM_ANY, GIVEN(port_given), "-p ##",
     "port number to send to or listen at (default 5001)"},
    {'s', NULL, OPTK_TOGGLE, FIELD(sinkmode), 0, 0, 0, 0,
     OPTS_COMMON, OPTM_ANY, OPT_NO_GIVEN, "-s",
     "-t: source a pattern to network\n\t\t-r: sink (discard) all data from network"},
    {'A', NULL, OPTK_NUMBER, FIELD(bufalign), 0, TTCP_SUFFIX_BINARY, 0, 16u << 20,
     OPTS_COMMON, OPTM_ANY, OPT_NO_GIVEN, "-A",
     "align the start of buffers to this modulus (default 16384)"},
    {'O', NULL, OPTK_NUMBER, FIELD(bufoffset), 0, TTCP_SUFFIX_BINARY, 0, 16u << 20,
     OPTS_COMMON, OPTM_ANY, OPT_NO_GIVEN, "-O",
     "start buffers at this offset from the modulus (default 0)"},
    {'v', NULL, OPTK_SET, FIELD(verbose), 1, 0, 0, 0,
     OPTS_COMMON, OPTM_ANY, OPT_NO_GIVEN, "-v", "verbose: print more statistics"},
    {'d', NULL, OPTK_SET, FIELD(sodebug), 1, 0, 0, 0,
     OPTS_COMMON, OPTM_ANY, OPT_NO_GIVEN, "-d", "set SO_DEBUG socket option"},
    {'b', NULL, OPTK_NUMBER, FIELD(sockbufsize), 0, TTCP_SUFFIX_BINARY, 1, 1u << 30,
     OPTS_COMMON, OPTM_ANY, OPT_NO_GIVEN, "-b ##", "set socket buffer size (if supported)"},
    {'f', NULL, OPTK_UNIT, FIELD(unit), 0, 0, 0, 0,
     OPTS_COMMON, OPTM_ANY, GIVEN(unit_given), "-f X",
     "format for rate: k,K = kilo{bit,byte}; m,M = mega; g,G = giga;\n\t\t"
     "bps, kbps, Mbps, Gbps = decimal bits per second"},
    {'n', NULL, OPTK_NUMBER, FIELD(nbuf), 0, TTCP_SUFFIX_NONE, 1, MAX_NBUF,
     OPTS_TRANSMIT, OPTM_ANY, GIVEN(nbuf_given), "-n##",
     "number of source bufs written to network (default 2048)"},
    {'D', NULL, OPTK_SET, FIELD(nodelay), 1, 0, 0, 0,
     OPTS_TRANSMIT, OPTM_ANY, OPT_NO_GIVEN, "-D",
     "don't buffer TCP writes (sets TCP_NODELAY socket option)"},
    {'B', NULL, OPTK_SET, FIELD(fullblocks), 1, 0, 0, 0,
     OPTS_RECEIVE, OPTM_ANY, OPT_NO_GIVEN, "-B",
     "for -s, only output full blocks as specified by -l (for TAR)"},
    {'T', NULL, OPTK_SET, FIELD(touch), 1, 0, 0, 0,
     OPTS_RECEIVE, OPTM_ANY, OPT_NO_GIVEN, "-T", "\"touch\": access each byte as it's read"},
    {'4', NULL, OPTK_SET, FIELD(family), TT_FAMILY_V4, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-4", "use IPv4 only"},
    {'6', NULL, OPTK_SET, FIELD(family), TT_FAMILY_V6, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-6", "use IPv6 only (default: the receiver takes both)"},
    {'c', NULL, OPTK_SET, FIELD(continuous), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-c",
     "-t: send until interrupted or the receiver closes\n\t\t"
     "-r: take test after test until interrupted (PCATTCP's -c)"},
    {'I', NULL, OPTK_SET, FIELD(dialog), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-I",
     "ask for the settings as Cisco IOS's ttcp does (answers from stdin)"},
    {0, "half-close", OPTK_SET, FIELD(half_close), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--half-close",
     "-t: after sending, read what the receiver sends back\n\t\t"
     "-r: at the end, send -n buffers back (IOS's tcp half close)"},
    {0, "rcvwnd", OPTK_NUMBER, FIELD(rcvwnd), 0, TTCP_SUFFIX_BINARY, 1, 1u << 30,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--rcvwnd ##",
     "TCP receive window (socket buffer) before connecting"},
    {0, "no-delayed-ack", OPTK_SET, FIELD(no_delayed_ack), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--no-delayed-ack",
     "acknowledge every segment at once (where the OS allows)"},
    {0, "tcp-info", OPTK_SET, FIELD(tcp_info), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--tcp-info",
     "print the connection's TCP statistics at the end"},
    {0, "mss", OPTK_NUMBER, FIELD(mss), 0, TTCP_SUFFIX_NONE, 88, 65535,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--mss N",
     "the largest TCP segment to send and announce (iperf3 -M, nuttcp -M)"},
    {0, "tos", OPTK_TOS, FIELD(tos), 0, 0, 0, 255,
     OPTS_EXTRA, OPTM_ANY, GIVEN(tos_given), "--tos N",
     "mark the packets: IPv4 TOS byte, IPv6 traffic class (0-255; iperf3 -S)"},
    {0, "dscp", OPTK_DSCP, FIELD(tos), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, GIVEN(tos_given), "--dscp cp",
     "mark the packets with a DSCP: 0-63, ef, af11-af43, cs0-cs7, va, le"},
    {0, "congestion", OPTK_TEXT, FIELD(congestion), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--congestion alg",
     "TCP congestion control, as the kernel allows (Linux: cubic, reno, bbr)"},
    {'w', NULL, OPTK_NUMBER, FIELD(sockbufsize), 0, TTCP_SUFFIX_BINARY, 1, 1u << 30,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-w ##",
     "the same as -b (iperf's and nuttcp's spelling)"},
    {0, "bind", OPTK_TEXT, FIELD(bind), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--bind addr",
     "the local address: -t and -C send from it, -r and -S listen on it alone"},
    {0, "cport", OPTK_NUMBER, FIELD(cport), 0, TTCP_SUFFIX_NONE, 1, 65535,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--cport n",
     "-t, -C: the local port of the data (stream k: n + k - 1)"},
    {'i', NULL, OPTK_SECONDS, FIELD(interval_ns), 0, 0, SECONDS(1) / 100, SECONDS(86400),
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-i s",
     "report every s seconds (fractions allowed, e.g. 0.5)"},
    {0, "time", OPTK_SECONDS, FIELD(duration_ns), 0, 0, SECONDS(1) / 100, SECONDS(1000000),
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--time s",
     "-t: send for s seconds instead of -n buffers"},
    {0, "omit", OPTK_SECONDS, FIELD(omit_ns), 0, 0, SECONDS(1) / 100, SECONDS(3600),
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--omit s",
     "leave the first s seconds out of the figures (slow start; iperf3 -O)"},
    {'R', NULL, OPTK_PACE, FIELD(pace_bps), 0, 0, 100, 1000000000000ull,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-R rate[/n]",
     "-t: pace to rate bits/s (56k, 100m, 1g), at most n buffers\n\t\t"
     "back to back"},
    {0, "fq-rate", OPTK_RATE, FIELD(fq_rate_bps), 0, 0, 8000, 32000000000ull,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--fq-rate rate",
     "-t: the kernel paces the sender to rate bits/s (Linux; iperf3 --fq-rate)"},
    {0, "link-rate", OPTK_RATE, FIELD(link_bps), 0, 0, 1, 1000000000000ull,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--link-rate rate",
     "the link's nominal bit rate: print the efficiency"},
    {0, "analyze", OPTK_SET, FIELD(analyze), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--analyze",
     "TCP: say what limited the test (windows, buffers, network, CPU;\n\t\t"
     "RFC 6349's metrics with --link-rate)"},
    {0, "mtu", OPTK_NUMBER, FIELD(mtu), 0, TTCP_SUFFIX_NONE, 68, 65535,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--mtu N",
     "--analyze: the path MTU for RFC 6349 (default: measured)"},
    {0, "framing", OPTK_TEXT, FIELD(framing), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--framing f",
     "--analyze: bytes per frame beyond the packet: ethernet (38), ppp (8),\n\t\t"
     "or a number"},
    {0, "latency", OPTK_SET, FIELD(latency), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_CLASSIC | OPTM_CLIENT, OPT_NO_GIVEN, "--latency",
     "round trips idle and under load, and the bufferbloat grade\n\t\t"
     "(-C: UDP probes the server echoes; -t: the connection's TCP RTT)"},
    {0, "latency-interval", OPTK_SECONDS, FIELD(latency_interval_ns), 0, 0, SECONDS(1) / 100,
     SECONDS(10), OPTS_EXTRA, OPTM_CLASSIC | OPTM_CLIENT, OPT_NO_GIVEN, "--latency-interval s",
     "--latency: a probe every s seconds (default 0.1)"},
    {0, "latency-idle", OPTK_SECONDS, FIELD(latency_idle_ns), 0, 0, 0, SECONDS(60),
     OPTS_EXTRA, OPTM_CLIENT, GIVEN(latency_idle_given), "--latency-idle s",
     "--latency with -C: probe s seconds before the data (default 2)"},
    {0, "pattern", OPTK_PATTERN, FIELD(pattern), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, GIVEN(pattern_given), "--pattern p",
     "-t: payload: classic (default), random (incompressible), zeros"},
    {0, "verify", OPTK_SET, FIELD(verify), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--verify",
     "-r: check the received bytes against the sender's pattern\n\t\t"
     "(-C: at whichever end receives)"},
    {0, "seed", OPTK_NUMBER, FIELD(seed), 0, TTCP_SUFFIX_NONE, 0, UINT64_MAX,
     OPTS_EXTRA, OPTM_ANY, GIVEN(seed_given), "--seed n",
     "the random pattern's seed (default: from the clock)"},
    {0, "compression", OPTK_SET, FIELD(compression), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--compression",
     "-t, -C: does the path compress? the test twice, the classic\n\t\t"
     "pattern then the random one: both rates and their ratio"},
    {0, "json", OPTK_SET, FIELD(json), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--json",
     "one JSON document with every figure on stdout at the end"},
    {0, "json-stream", OPTK_SET, FIELD(json_stream), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--json-stream",
     "JSON on stdout as the test runs, one object a line: start,\n\t\t"
     "each interval (-C: both ends'), end (the --json document)"},
    {0, "logfile", OPTK_TEXT, FIELD(logfile), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--logfile file",
     "append what ttcp prints to file instead (data stays on stdin/stdout)"},
    {0, "timestamps", OPTK_SET, FIELD(timestamps), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--timestamps",
     "the date and time (to the millisecond) before each line of text"},
    {0, "title", OPTK_TEXT, FIELD(title), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--title text",
     "text: before each line of text, and in the JSON"},
    {0, "plot", OPTK_TEXT, FIELD(plot), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--plot file",
     "draw the test over time into file (SVG); without -i it takes\n\t\t"
     "intervals of 1 s (or --time / 20) and prints none"},
    {0, "no-udp-stats", OPTK_SET, FIELD(no_udp_stats), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--no-udp-stats",
     "-t -u: plain 1.12 datagrams, without ttcp's sequence header"},
    {0, "discard", OPTK_SET, FIELD(discard), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--discard",
     "-r -s: drop TCP data in the kernel without copying it (Linux)"},
    {0, "idle-timeout", OPTK_SECONDS, FIELD(idle_timeout_ns), 0, 0,
     SECONDS(1) / 100, SECONDS(86400),
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--idle-timeout s",
     "end a stalled UDP test, or stop waiting for the\n\t\t"
     "TCP receiver's close, after s seconds without progress (default 30)"},
    {'S', NULL, OPTK_SET, FIELD(mode), TTCP_MODE_SERVER, 0, 0, 0,
     OPTS_SERVER, OPTM_ANY, OPT_NO_GIVEN, "-S",
     "server: serve tests (and classic transmitters) until stopped"},
    {'C', NULL, OPTK_SET, FIELD(mode), TTCP_MODE_CLIENT, 0, 0, 0,
     OPTS_SERVER, OPTM_ANY, OPT_NO_GIVEN, "-C",
     "client: run a test against a ttcp -S on host (-t: send, the default;\n\t\t"
     "-r: receive); without -n or --time it runs 10 s; -C host1 host2[:port]:\n\t\t"
     "host1's server runs the test to host2's (-S --third-party)"},
    {0, "iperf3", OPTK_SET, FIELD(far_end), TTCP_FAR_IPERF3, 0, 0, 0,
     OPTS_SERVER, OPTM_CLIENT, OPT_NO_GIVEN, "--iperf3",
     "-C: the far end is an iperf3 -s (port 5201 unless -p)"},
    {0, "nuttcp", OPTK_SET, FIELD(far_end), TTCP_FAR_NUTTCP, 0, 0, 0,
     OPTS_SERVER, OPTM_CLIENT, OPT_NO_GIVEN, "--nuttcp",
     "-C: the far end is a nuttcp -S (port 5000 unless -p)"},
    {0, "iperf2", OPTK_SET, FIELD(far_end), TTCP_FAR_IPERF2, 0, 0, 0,
     OPTS_SERVER, OPTM_CLIENT, OPT_NO_GIVEN, "--iperf2",
     "-C: the far end is an iperf -s, iperf 2 (port 5001)"},
    {0, "bidir", OPTK_SET, FIELD(bidir), 1, 0, 0, 0,
     OPTS_SERVER, OPTM_CLIENT, OPT_NO_GIVEN, "--bidir", "-C: send and receive at once"},
    {'1', NULL, OPTK_SET, FIELD(once), 1, 0, 0, 0,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "-1", "-S: serve one test, then exit"},
    {0, "max-clients", OPTK_NUMBER, FIELD(max_clients), 0, TTCP_SUFFIX_NONE, 1, 256,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--max-clients n",
     "-S: client tests at once, and classic ones apart (default 4)"},
    {0, "max-streams", OPTK_NUMBER, FIELD(max_streams), 0, TTCP_SUFFIX_NONE, 1, TTCP_STREAMS_MAX,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--max-streams n",
     "-S: streams a test may ask for each way (-C -P; default 128)"},
    {0, "max-ttl", OPTK_NUMBER, FIELD(max_ttl), 0, TTCP_SUFFIX_NONE, 1, 255,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--max-ttl n",
     "-S: the highest multicast hop limit a client may ask for (default 1)"},
    {0, "max-time", OPTK_SECONDS, FIELD(max_time_ns), 0, 0, SECONDS(1) / 10, SECONDS(86400),
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--max-time s", "-S: end any test after s seconds"},
    {0, "max-rate", OPTK_RATE, FIELD(max_rate_bps), 0, 0, 100, 1000000000000ull,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--max-rate rate",
     "-S: no test faster than rate bits/s"},
    {0, "iperf3-port", OPTK_NUMBER, FIELD(iperf3_port), 0, TTCP_SUFFIX_NONE, 0, 65535,
     OPTS_SERVER, OPTM_SERVER, GIVEN(iperf3_port_given), "--iperf3-port n",
     "-S: serve iperf3 clients on port n (default 5201; 0: not at all)"},
    {0, "nuttcp-port", OPTK_NUMBER, FIELD(nuttcp_port), 0, TTCP_SUFFIX_NONE, 0, 65535,
     OPTS_SERVER, OPTM_SERVER, GIVEN(nuttcp_port_given), "--nuttcp-port n",
     "-S: answer nuttcp clients on control port n (default 5000; 0: not)"},
    {0, "keyless-peers", OPTK_SET, FIELD(peers_keyless), 1, 0, 0, 0,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--keyless-peers",
     "-S --key-file: serve iperf3, nuttcp and iperf2 clients all the same\n\t\t"
     "(their protocols cannot carry the key)"},
    {0, "allow", OPTK_ALLOW, FIELD(allow), 0, 0, 0, 0,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--allow prefix",
     "-S: take connections only from prefix (10.0.0.0/8, ::1);\n\t\trepeatable"},
    {0, "web", OPTK_TEXT, FIELD(web), 0, 0, 0, 0,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--web [addr:]port",
     "-S: also serve a browser's test over HTTP on port (a page at /;\n\t\t"
     "/?start runs it at once); addr: only there"},
    {0, "inetd", OPTK_SET, FIELD(inetd), 1, 0, 0, 0,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--inetd",
     "-S: serve the one connection inetd hands over on stdin, then exit\n\t\t"
     "(lines go to stderr; POSIX)"},
    {0, "daemon", OPTK_SET, FIELD(daemon), 1, 0, 0, 0,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--daemon",
     "-S: run in the background once listening (POSIX; default: foreground)"},
    {0, "pidfile", OPTK_TEXT, FIELD(pidfile), 0, 0, 0, 0,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--pidfile f",
     "-S: write the server's process id to f once listening; removed at exit"},
    {'m', NULL, OPTK_NUMBER, FIELD(mcast_ttl), 0, TTCP_SUFFIX_NONE, 1, 255,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-m ttl",
     "-t -u: multicast, with ttl hops (the host is the group, or -g)"},
    {'g', NULL, OPTK_TEXT, FIELD(group), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-g group",
     "-u: the multicast group: -r joins it, -t sends to it"},
    {0, "source", OPTK_TEXT, FIELD(source), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--source addr",
     "-r -g: take the group's datagrams from addr only (source-specific)"},
    {0, "interface", OPTK_TEXT, FIELD(interface), 0, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--interface if",
     "multicast: send or join on interface if (a name, index or IPv4 address)"},
    {0, "traceroute", OPTK_SET, FIELD(traceroute), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--traceroute",
     "-t: the path to the host first, hop by hop; alone with a host:\n\t\tonly the path"},
    {0, "dont-fragment", OPTK_SET, FIELD(dont_fragment), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--dont-fragment",
     "set DF: no packet is fragmented; a UDP datagram larger than the\n\t\t"
     "path MTU fails, naming the MTU"},
    {0, "pmtu", OPTK_SET, FIELD(pmtu), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--pmtu",
     "-t, -C: the path MTU to the host first, by probes that may not\n\t\t"
     "be fragmented; alone with a host: only the path MTU"},
    {'P', NULL, OPTK_NUMBER, FIELD(streams), 0, TTCP_SUFFIX_NONE, 1, TTCP_STREAMS_MAX,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-P n",
     "n streams side by side, each with its own connection;\n\t\t"
     "-n, --time and -l are per stream, -R is the total"},
    {0, "cpu", OPTK_CPUS, FIELD(cpus), 0, 0, 0, TTCP_CPU_HIGHEST,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--cpu list",
     "-P: run stream i on the i-th CPU of list (0,2 or 0-3), in turn"},
    {0, "key-file", OPTK_TEXT, FIELD(key_file), 0, 0, 0, 0,
     OPTS_SERVER, OPTM_SERVER | OPTM_CLIENT, OPT_NO_GIVEN, "--key-file f",
     "-S, -C: authenticate with the key in f (openssl rand -hex 32)"},
    {0, "third-party", OPTK_TARGETS, FIELD(third_party), 0, 0, 0, 0,
     OPTS_SERVER, OPTM_SERVER, OPT_NO_GIVEN, "--third-party prefix",
     "-S: run the tests a client asks for to a third host\n\t\t"
     "(ttcp -C this-host host2), to addresses in prefix only; repeatable"},
    {'h', "help", OPTK_SET, FIELD(action), TTCP_ACTION_HELP, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "-h, --help", "print this text"},
    {0, "version", OPTK_SET, FIELD(action), TTCP_ACTION_VERSION, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--version", "print the version and build details"},
    {0, "check", OPTK_SET, FIELD(check_only), 1, 0, 0, 0,
     OPTS_EXTRA, OPTM_ANY, OPT_NO_GIVEN, "--check",
     "check the options and exit (0, or 2 with the reason): no test is run"},

};

const struct ttcp_optdef *ttcp_optable(size_t *count)
{
    *count = sizeof table / sizeof table[0];
    return table;
}

const struct ttcp_optdef *ttcp_optable_letter(char c)
{
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].letter == c)
            return &table[i];
    return NULL;
}

const struct ttcp_optdef *ttcp_optable_long(const char *name, size_t len)
{
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].long_name && strlen(table[i].long_name) == len &&
            strncmp(table[i].long_name, name, len) == 0)
            return &table[i];
    return NULL;
}

const char *ttcp_optable_name(const struct ttcp_optdef *d, char *buf, size_t len)
{
    if (d->long_name != NULL)
        snprintf(buf, len, "--%s", d->long_name);
    else
        snprintf(buf, len, "-%c", d->letter);
    return buf;
}
