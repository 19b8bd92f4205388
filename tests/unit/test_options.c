/* Option parsing: the classic letters, attached and separate arguments,
 * clustering, defaults, and every bound with its one-line reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config/optable.h"
#include "config/options.h"
#include "test_support.h"

static struct ttcp_options opts;
static char why[256];

/* Parses a command line; returns what ttcp_options_parse returned. */
static unsigned habits; /* TTCP_PARSE_SLASH_SWITCHES: as on Windows */

static int parse(const char *line)
{
    static char copy[512];
    char *argv[64];
    int argc;
    snprintf(copy, sizeof copy, "%s", line);
    argc = split_args(copy, argv, 64);
    why[0] = '\0';
    return ttcp_options_parse(&opts, argc, argv, habits, why, sizeof why);
}

static void defaults_are_classic(void **state)
{
    (void)state;
    assert_int_equal(parse("-r"), 0);
    assert_int_equal(opts.transmit, 0);
    assert_int_equal(opts.buflen, 8192);
    assert_int_equal(opts.nbuf, 2048);
    assert_int_equal(opts.bufalign, 16384);
    assert_int_equal(opts.bufoffset, 0);
    assert_int_equal(opts.port, 5001);
    assert_int_equal(opts.sinkmode, 0);
    assert_int_equal(opts.unit, TTCP_UNIT_KBYTE);
    assert_int_equal(opts.udp, 0);
    assert_int_equal(opts.sockbufsize, 0);
}

static void every_classic_letter(void **state)
{
    (void)state;
    assert_int_equal(parse("-t -u -s -l 1000 -n 4 -p 5003 -A 4096 -O 16 -v -d -b 65536 -f m -D -B -T host"), 0);
    assert_int_equal(opts.transmit, 1);
    assert_int_equal(opts.udp, 1);
    assert_int_equal(opts.sinkmode, 1);
    assert_int_equal(opts.buflen, 1000);
    assert_int_equal(opts.nbuf, 4);
    assert_int_equal(opts.port, 5003);
    assert_int_equal(opts.bufalign, 4096);
    assert_int_equal(opts.bufoffset, 16);
    assert_int_equal(opts.verbose, 1);
    assert_int_equal(opts.sodebug, 1);
    assert_int_equal(opts.sockbufsize, 65536);
    assert_int_equal(opts.unit, TTCP_UNIT_MBIT);
    assert_int_equal(opts.nodelay, 1);
    assert_int_equal(opts.fullblocks, 1);
    assert_int_equal(opts.touch, 1);
    assert_string_equal(opts.host, "host");
}

static void attached_clustered_and_after_host(void **state)
{
    (void)state;
    assert_int_equal(parse("-tsn100 -l1000 -p5003 -fk 10.0.0.1"), 0);
    assert_int_equal(opts.transmit, 1);
    assert_int_equal(opts.sinkmode, 1);
    assert_int_equal(opts.nbuf, 100);
    assert_int_equal(opts.buflen, 1000);
    assert_int_equal(opts.port, 5003);
    assert_int_equal(opts.unit, TTCP_UNIT_KBIT);
    assert_int_equal(parse("-t 10.0.0.1 -s -n 7"), 0); /* glibc getopt permutes too */
    assert_string_equal(opts.host, "10.0.0.1");
    assert_int_equal(opts.nbuf, 7);
    assert_int_equal(parse("-t -- -s"), 0); /* after --, a word is the host */
    assert_string_equal(opts.host, "-s");
    assert_int_equal(opts.sinkmode, 0);
}

static void s_toggles_and_last_mode_wins(void **state)
{
    (void)state;
    assert_int_equal(parse("-r -s -s"), 0);
    assert_int_equal(opts.sinkmode, 0);
    assert_int_equal(parse("-t -r"), 0);
    assert_int_equal(opts.transmit, 0);
}

static void size_suffixes_are_binary(void **state)
{
    (void)state;
    assert_int_equal(parse("-r -l 8k -b 1m"), 0);
    assert_int_equal(opts.buflen, 8192);
    assert_int_equal(opts.sockbufsize, 1048576);
}

static void udp_buflen_rules(void **state)
{
    (void)state;
    assert_int_equal(parse("-r -u -l 2"), 0);
    assert_int_equal(opts.buflen, 5); /* 1.12 forces it up to 5 */
    assert_int_equal(parse("-r -u -l 65507"), 0);
    assert_int_equal(parse("-r -u -l 65508"), -1);
    assert_non_null(strstr(why, "65507"));
    assert_int_equal(parse("-r -l 65508"), 0); /* TCP has no datagram limit */
}

static void family_and_extensions(void **state)
{
    (void)state;
    assert_int_equal(parse("-r -6"), 0);
    assert_int_equal(opts.family, 6);
    assert_int_equal(parse("-r -4 --idle-timeout 2.5"), 0);
    assert_int_equal(opts.family, 4);
    assert_int_equal(opts.idle_timeout_ns, 2500000000ll);
    assert_int_equal(parse("-r --idle-timeout=0.25"), 0);
    assert_int_equal(opts.idle_timeout_ns, 250000000ll);
    assert_int_equal(parse("-h"), 0);
    assert_int_equal(opts.action, TTCP_ACTION_HELP);
    assert_int_equal(parse("/?"), 0);
    assert_int_equal(opts.action, TTCP_ACTION_HELP);
    assert_int_equal(parse("--version"), 0);
    assert_int_equal(opts.action, TTCP_ACTION_VERSION);
}

/* Each bad command line fails with a reason naming the problem. */
static void bad_input_is_named(void **state)
{
    static const struct { const char *line, *needle; } cases[] = {
        {"-r -l 0", "-l: '0' is out of range"},
        {"-r -l -5", "-l: '-5' is negative"},
        {"-r -l abc", "-l: 'abc' is not a number"},
        {"-r -l 12x", "not a number"},
        {"-r -l 300m", "out of range"},
        {"-t -n 0 h", "-n: '0' is out of range"},
        {"-t -n 99999999999999999999999 h", "too large"},
        {"-r -p 0", "-p: '0' is out of range"},
        {"-r -p 70000", "-p: '70000' is out of range"},
        {"-r -p 5k", "not a number"},
        {"-r -b 0", "-b: '0' is out of range"},
        {"-r -A 16384 -O 16384", "-O: offset 16384 must be less"},
        {"-r -A 0 -O 4", "-O: an offset needs an alignment"},
        {"-r -x", "unknown option -x"},
        {"-r --bogus", "unknown option --bogus"},
        {"-r --idle-timeout 0", "--idle-timeout: '0' is out of range"},
        {"-r --idle-timeout soon", "not a number of seconds"},
        {"-r --help=1", "--help takes no value"},
        {"-r -l", "-l needs a value"},
        {"-t", "-t needs the host"},
        {"-t h1 h2", "unexpected argument 'h2'"},
        {"-t h1 a\nb", "unexpected argument 'a?b'"}, /* found by fuzz_options */
        {"-t -n 281474976710656 -l 268435456 h", "too much data"},
        /* a word that is neither an option nor the transmitter's host */
        {"-r -s stray", "unexpected argument 'stray': a receiver (-r) takes no host"},
        {"stray", "a receiver (-r) takes no host"},
        /* -f takes a unit, not its first letter (1.12 read "Mbit" as M) */
        {"-r -f Mbit", "-f: 'Mbit' is not a unit: use one of k K m M g G"},
        {"-r -f x", "bps kbps Mbps Gbps"},
        {"-r -f b", "'b' is not a unit"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (parse(cases[i].line) != -1 || strstr(why, cases[i].needle) == NULL)
            fail_msg("'%s': got '%s', want '%s'", cases[i].line, why, cases[i].needle);
        assert_null(strchr(why, '\n')); /* one line */
    }
}

/* -help and /? everywhere; /h and /help where DOS switches are the habit
 * (Windows); there any other /word is a mistake, never a host. */
static void help_words(void **state)
{
    static const char *const everywhere[] = {"/?", "-help", "-r -s -help"};
    static const char *const windows[] = {"/h", "/help", "/H", "/HELP", "-t /help"};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof everywhere / sizeof everywhere[0]; i++) {
        if (parse(everywhere[i]) != 0 || opts.action != TTCP_ACTION_HELP)
            fail_msg("'%s' does not ask for help: %s", everywhere[i], why);
    }
    habits = 0; /* POSIX: a word with a slash is a path */
    assert_int_equal(parse("/h"), -1);
    assert_non_null(strstr(why, "a receiver (-r) takes no host"));
    habits = TTCP_PARSE_SLASH_SWITCHES;
    for (i = 0; i < sizeof windows / sizeof windows[0]; i++) {
        if (parse(windows[i]) != 0 || opts.action != TTCP_ACTION_HELP)
            fail_msg("'%s' does not ask for help on Windows: %s", windows[i], why);
    }
    assert_int_equal(parse("/r"), -1);
    assert_string_equal(why, "unknown argument '/r': options start with - (for example -r)");
    assert_int_equal(parse("-t -s /n5 host"), -1);
    habits = 0;
}

/* With -I the dialog changes the options; the rules wait for its answers,
 * then the same validation runs on what it made. */
static void dialog_options_are_validated_after(void **state)
{
    (void)state;
    assert_int_equal(parse("-r -s --discard -I"), 0);
    opts.sinkmode = 0; /* the dialog's "sinkmode [y]: n" */
    assert_int_equal(ttcp_options_validate(&opts, why, sizeof why), -1);
    assert_non_null(strstr(why, "--discard is for a TCP receiver in sink mode"));
    assert_int_equal(parse("-r -s --json -I"), 0);
    opts.sinkmode = 0;
    assert_int_equal(ttcp_options_validate(&opts, why, sizeof why), -1);
    assert_non_null(strstr(why, "--json needs -s"));
    assert_int_equal(parse("-r -s --json -I"), 0);
    assert_int_equal(ttcp_options_validate(&opts, why, sizeof why), 0);
    /* a host word, and the dialog answered receive: as on a command line */
    assert_int_equal(parse("-I stray"), 0);
    assert_int_equal(ttcp_options_validate(&opts, why, sizeof why), -1);
    assert_non_null(strstr(why, "unexpected argument 'stray': a receiver (-r) takes no host"));
}

static void usage_lists_every_option(void **state)
{
    char text[8192]; /* as main() has */
    size_t n = ttcp_usage("ttcp", text, sizeof text);
    (void)state;
    assert_true(n > 0 && n < sizeof text);
    assert_non_null(strstr(text, "Usage: ttcp -t [-options] host [ < in ]\n"));
    assert_non_null(strstr(text, "bps, kbps, Mbps, Gbps = decimal bits per second"));
    n = ttcp_usage("ttcpw", text, sizeof text);
    assert_non_null(strstr(text, "Usage: ttcpw -t [-options] host [ < in ]\n"
                                 "       ttcpw -r [-options > out]\n"));
    assert_non_null(strstr(text, "\t-l ##\tlength of bufs read from or written to network (default 8192)\n"));
    assert_non_null(strstr(text, "\t-s\t-t: source a pattern to network\n\t\t-r: sink (discard) all data from network\n"));
    assert_non_null(strstr(text, "Options specific to -t:\n\t-n##\t"));
    assert_non_null(strstr(text, "Options specific to -r:\n\t-B\t"));
    assert_non_null(strstr(text, "--idle-timeout"));
    assert_non_null(strstr(text, "\t--plot file\tdraw the test over time into file (SVG)"));
}

/* A command line the parser must refuse, and words its reason must hold. */
struct refusal {
    const char *line, *needle;
};

static void expect_refused(const struct refusal *r, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        assert_int_equal(parse(r[i].line), -1);
        if (strstr(why, r[i].needle) == NULL)
            fail_msg("'%s': '%s' does not say '%s'", r[i].line, why, r[i].needle);
    }
}

/* --analyze, --mtu, --framing: TCP only, the last two for --analyze, the
 * framing's names and bytes. */
static void analyze_rules(void **state)
{
    static const struct refusal refused[] = {
        {"-t -u --analyze h", "--analyze works with TCP only, not with -u"},
        {"-C -u --analyze h", "--analyze works with TCP only"},
        {"-t --mtu 1500 h", "--mtu is for --analyze"},
        {"-t --framing ppp h", "--framing is for --analyze"},
        {"-t --analyze --mtu 67 h", "--mtu: '67' is out of range (68 to 65535)"},
        {"-t --analyze --framing atm h", "--framing: 'atm' is not a framing"},
        {"-t --analyze --framing 1001 h", "'1001' is not a framing"},
    };
    (void)state;
    expect_refused(refused, sizeof refused / sizeof refused[0]);
    assert_int_equal(parse("-t --analyze h"), 0);
    assert_true(opts.analyze);
    assert_int_equal(opts.framing_bytes, 38); /* Ethernet unless told */
    assert_int_equal(parse("-r --analyze --mtu 576 --framing PPP"), 0);
    assert_int_equal(opts.mtu, 576);
    assert_int_equal(opts.framing_bytes, 8);
    assert_int_equal(parse("-C --analyze --framing 0 --link-rate 56k h"), 0);
    assert_int_equal(opts.framing_bytes, 0);
    assert_int_equal(parse("-S --analyze"), 0);
    assert_int_equal(parse("-t -s -P 2 --analyze h"), 0);
}

/* -S and -C: what each implies, what each refuses, and the rules they share. */
static void server_and_client_rules(void **state)
{
    static const struct refusal refused[] = {
        {"-S host", "a server (-S) takes no host"},
        {"-S -t", "a server (-S) takes TCP and UDP"},
        {"-S -u", "-u: a server (-S)"},
        {"-S -O 1m", "-O: offset 1048576 must be less than the alignment"},
        {"-S -c", "-c does not go with -S"},
        {"-S --half-close", "--half-close does not go with -S"},
        {"-C", "-C needs the host of a ttcp -S"},
        {"-C -I h", "-I does not go with -C"},
        {"-C -u --half-close h", "works with TCP only"},
        {"-t --bidir h", "--bidir is for a client (-C)"},
        {"-r --max-clients 2", "--max-clients is for a server (-S)"},
        {"-t --key-file k h", "--key-file is for a server (-S) or a client (-C)"},
        {"-S --max-clients 0", "--max-clients: '0' is out of range"},
        {"-t -s --verify h", "--verify is for the receiver (-r)"}, /* still, in the classic pair */
        {"-S --inetd --daemon", "--inetd does not go with --daemon: inetd starts a server"},
        {"-S --inetd --pidfile f", "--inetd does not go with --pidfile"},
    };
    (void)state;
    expect_refused(refused, sizeof refused / sizeof refused[0]);
    assert_int_equal(parse("-C h"), 0); /* sends, for 10 s, the pattern, on its own thread's CPU */
    assert_true(opts.transmit && opts.sinkmode && opts.thread_cpu);
    assert_int_equal(opts.duration_ns, TTCP_CLIENT_DEFAULT_NS);
    assert_int_equal(parse("-C -r -n 5 h"), 0);
    assert_false(opts.transmit);
    assert_int_equal(opts.duration_ns, 0);
    assert_int_equal(parse("-C --bidir -u h"), 0);
    assert_int_equal(ttcp_options_direction(&opts), TTCP_DIR_BIDIR);
    /* each tool's own port, and iperf2's own datagram length when -l is not typed */
    assert_int_equal(parse("-C --iperf3 h"), 0);
    assert_int_equal(opts.port, TTCP_IPERF3_PORT);
    assert_int_equal(parse("-C --iperf2 -u -r h"), 0);
    assert_int_equal(opts.buflen, TTCP_IPERF2_UDP_BUFLEN);
    assert_int_equal(opts.port, TTCP_DEFAULT_PORT);
    assert_int_equal(parse("-C --iperf2 -u -l 8k h"), 0);
    assert_int_equal(opts.buflen, 8192);
    assert_int_equal(parse("-C --iperf2 h"), 0); /* TCP: ttcp's own */
    assert_int_equal(opts.buflen, TTCP_DEFAULT_BUFLEN);
    /* --verify checks at whichever end receives: the server when the client sends */
    assert_int_equal(parse("-C --verify h"), 0);
    assert_true(opts.verify && opts.transmit);
    assert_int_equal(parse("-C -t --verify h"), 0);
    assert_int_equal(parse("-C -r --verify h"), 0);
    assert_int_equal(parse("-C --bidir --verify h"), 0);
    assert_true(opts.verify);
    assert_int_equal(parse("-C -u --verify --pattern random h"), 0);
    assert_int_equal(parse("-S -1 --max-time 5 --max-rate 10m --allow 10.0.0.0/8 --allow ::1"), 0);
    assert_true(opts.once && opts.sinkmode && opts.allow_count == 2);
    assert_int_equal(opts.max_rate_bps, 10000000);
    assert_int_equal(parse("-S --daemon --pidfile /run/ttcp.pid"), 0);
    assert_true(opts.daemon && !opts.inetd);
    assert_string_equal(opts.pidfile, "/run/ttcp.pid");
    assert_int_equal(parse("-S --inetd -1"), 0);
    assert_true(opts.inetd && !opts.daemon && opts.pidfile == NULL);
}

/* --plot: where it goes, and its intervals without -i (taken, not printed:
 * the classic lines stay as they are). */
static void plot_rules(void **state)
{
    static const struct refusal refused[] = {
        {"-S --plot p.svg", "--plot draws a test: a server (-S) serves many"},
        {"-r -c --plot p.svg", "a receiver with -c takes test after test"},
        {"--traceroute --plot p.svg h", "--traceroute alone runs none"},
        {"-t --plot= h", "--plot: give a file name of 1 to 1024 characters"},
        {"-t --plot", "--plot needs a value"},
    };
    (void)state;
    expect_refused(refused, sizeof refused / sizeof refused[0]);
    assert_int_equal(parse("-r -s --plot p.svg"), 0);
    assert_string_equal(opts.plot, "p.svg");
    assert_int_equal(opts.interval_ns, TTCP_PLOT_PERIOD_NS);
    assert_true(opts.quiet_intervals);
    assert_false(ttcp_options_extended(&opts)); /* no extended lines for a plot alone */
    assert_int_equal(parse("-t -s --time 3 --plot p.svg h"), 0);
    assert_int_equal(opts.interval_ns, 150000000); /* a twentieth of a short test */
    assert_int_equal(parse("-t -s --time 0.1 --plot p.svg h"), 0);
    assert_int_equal(opts.interval_ns, 10000000); /* never finer than -i allows */
    assert_int_equal(parse("-C --plot p.svg h"), 0); /* the client's 10 s */
    assert_int_equal(opts.interval_ns, 500000000);
    assert_int_equal(parse("-t -s -i 0.25 --plot p.svg -P 2 h"), 0);
    assert_int_equal(opts.interval_ns, 250000000); /* -i as given, and printed */
    assert_false(opts.quiet_intervals);
    assert_false(opts.unit_given);
    assert_int_equal(parse("-t -s -f m --plot p.svg -C h"), 0);
    assert_true(opts.unit_given);
}

/* -P and --cpu: bounds, lists, ports, and what they refuse. */
static void parallel_stream_rules(void **state)
{
    static const struct refusal refused[] = {
        {"-t -P 2 h", "-P needs -s"},
        {"-r -s -c -P 2", "does not go with -c"},
        {"-t -s -P 0 h", "-P: '0' is out of range"},
        {"-t -s -P 129 h", "-P: '129' is out of range"},
        {"-t -s -P 3 -p 65534 h", "-P: stream 3 would use port 65536"},
        {"-t -s --cpu 0 h", "--cpu places the streams of -P"},
        {"-t -s -P 2 --cpu 1024 h", "--cpu: '1024' is out of range"},
        {"-t -s -P 2 --cpu 3-1 h", "--cpu: '1' is out of range"},
        {"-t -s -P 2 --cpu 0,,1 h", "CPU numbers separated by commas"},
        {"-t -s -P 2 --cpu 0-200 h", "at most 128 CPUs"},
        {"-S -P 2", "-P: a client chooses its streams"},
        {"-C --max-streams 2 h", "--max-streams is for a server (-S)"},
    };
    (void)state;
    expect_refused(refused, sizeof refused / sizeof refused[0]);
    assert_int_equal(parse("-t -s h"), 0);
    assert_int_equal(opts.streams, 1); /* one stream unless asked */
    assert_int_equal(parse("-t -s -P 128 -p 65408 --cpu 1,3-5,0 h"), 0);
    assert_int_equal(opts.streams, 128);
    assert_int_equal(opts.cpu_count, 5);
    assert_int_equal(opts.cpus[0], 1);
    assert_int_equal(opts.cpus[1], 3);
    assert_int_equal(opts.cpus[3], 5);
    assert_int_equal(opts.cpus[4], 0);
    assert_int_equal(parse("-C -P 4 h"), 0); /* through a server the port is one */
    assert_int_equal(parse("-S --max-streams 8"), 0);
    assert_int_equal(opts.max_streams, 8);
    assert_string_equal(ttcp_options_side(&opts), "-S"); /* the server's own lines */
    ttcp_options_stream(&opts, 12);
    assert_string_equal(ttcp_options_side(&opts), "-r[12]");
}

/* -m, -g, --source, --interface: what a group is, and who takes which. */
static void multicast_rules(void **state)
{
    static const struct refusal refused[] = {
        {"-t -m 2 239.1.1.1", "-m: multicast is UDP: add -u"},
        {"-r -g 239.1.1.1", "-g: multicast is UDP"},
        {"-r -u -g 10.1.1.1", "-g 10.1.1.1: not a multicast address"},
        {"-r -u -g grp.example", "not a multicast address"},
        {"-t -u -m 2 10.1.1.1", "-m: give the group"},
        {"-t -u -g 239.1.1.1 239.1.1.2", "give it once"},
        {"-r -u -g 239.1.1.1 -m 3", "-m: the hop limit is the transmitter's"},
        {"-t -u -g 239.1.1.1 --source 10.0.0.1", "--source is for the receiver"},
        {"-r -u -g 239.1.1.1 --source ::1", "not of the group's family"},
        {"-r -u -g ff15::1 --source 10.0.0.1", "not of the group's family"},
        {"-r -u -g 239.1.1.1 --source host", "not a numeric address"},
        {"-r -u --source 10.0.0.1", "--source: give the group"},
        {"-t -u -s -P 2 -m 2 239.1.1.1", "multicast does not go with -P"},
        {"-t -u -m 0 239.1.1.1", "-m: '0' is out of range"},
        {"-t -u -m 256 239.1.1.1", "-m: '256' is out of range"},
        {"-C -u -m 2 h", "use -C -r"},
        {"-C -r -u -m 2 --source 10.0.0.1 h", "--source: through a server, the source is the server"},
        {"-C -r -u -g 10.0.0.1 h", "not a multicast address"},
        {"-S -m 2", "multicast is a client's to ask for"},
        {"-C --max-ttl 2 h", "--max-ttl is for a server (-S)"},
    };
    (void)state;
    expect_refused(refused, sizeof refused / sizeof refused[0]);
    assert_int_equal(parse("-t -u -m 4 239.1.1.1"), 0); /* the host is the group */
    assert_string_equal(opts.group, "239.1.1.1");
    assert_int_equal(opts.mcast_ttl, 4);
    assert_int_equal(parse("-t -u -g ff15::7 --interface eth0"), 0); /* the group is the host */
    assert_string_equal(opts.host, "ff15::7");
    assert_int_equal(parse("-r -u -s -g 232.1.1.1 --source 192.0.2.9 -c"), 0);
    assert_string_equal(opts.source, "192.0.2.9");
    assert_int_equal(parse("-t -u 10.1.1.1"), 0); /* a unicast host is no group */
    assert_null(opts.group);
    assert_int_equal(parse("-C -r -u -m 3 h"), 0); /* the server sends to the default group */
    assert_string_equal(opts.group, TTCP_CLIENT_DEFAULT_GROUP);
    assert_string_equal(opts.host, "h");
    assert_int_equal(parse("-S --max-ttl 8"), 0);
    assert_int_equal(opts.max_ttl, 8);
}

/* -C host1 host2[:port]: the second host is a third party's target, its
 * port -p's unless it says its own ([v6]:port; a bare IPv6 address has
 * none); elsewhere a second host is a mistake, and what does not go
 * through a third party is refused. */
/* -S --web [ADDRESS:]PORT: its parts settled, bad ones refused in one line,
 * never the tests' port, never with --inetd, never for a client. */
static void web_is_a_servers_own_port(void **state)
{
    (void)state;
    assert_int_equal(parse("-S --web 8080"), 0);
    assert_string_equal(opts.web_host, "");
    assert_int_equal(opts.web_port, 8080);
    assert_int_equal(parse("-S --web 127.0.0.1:8081"), 0);
    assert_string_equal(opts.web_host, "127.0.0.1");
    assert_int_equal(opts.web_port, 8081);
    assert_int_equal(parse("-S --web [::1]:80"), 0);
    assert_string_equal(opts.web_host, "::1");
    assert_int_equal(opts.web_port, 80);
    assert_int_equal(parse("-S --web ::1"), -1);
    assert_string_equal(why, "--web ::1: an IPv6 address goes in brackets, [::1]:8080");
    assert_int_equal(parse("-S --web 0"), -1);
    assert_string_equal(why, "--web 0: port '0' is out of range (1 to 65535)");
    assert_int_equal(parse("-S --web host:x"), -1);
    assert_non_null(strstr(why, "--web host:x: port "));
    assert_int_equal(parse("-S --web :8080"), -1);
    assert_string_equal(why, "--web :8080: not [ADDRESS:]PORT");
    assert_int_equal(parse("-S --web a/b:8080"), -1);
    assert_string_equal(why, "--web a/b:8080: not a host name or a numeric address");
    assert_int_equal(parse("-S -p 6000 --web 6000"), -1);
    assert_string_equal(why, "--web: port 6000 is the tests' (-p): give the page a port of its "
                             "own");
    assert_int_equal(parse("-S --inetd --web 8080"), -1);
    assert_non_null(strstr(why, "--web does not go with --inetd"));
    assert_int_equal(parse("-C --web 8080 h"), -1);
    assert_string_equal(why, "--web is for a server (-S)");
}

static void a_second_host_is_a_third_partys(void **state)
{
    (void)state;
    assert_int_equal(parse("-C -p 6000 h1 h2"), 0);
    assert_string_equal(opts.host, "h1");
    assert_string_equal(opts.target_host, "h2");
    assert_int_equal(opts.target_port, 6000);
    assert_int_equal(parse("-C h1 10.0.0.2:5002 -r"), 0);
    assert_string_equal(opts.target_host, "10.0.0.2");
    assert_int_equal(opts.target_port, 5002);
    assert_int_equal(parse("-C h1 [2001:db8::2]:7"), 0);
    assert_string_equal(opts.target_host, "2001:db8::2");
    assert_int_equal(opts.target_port, 7);
    assert_int_equal(parse("-C h1 2001:db8::2"), 0);
    assert_string_equal(opts.target_host, "2001:db8::2");
    assert_int_equal(opts.target_port, 5001);
    assert_int_equal(parse("-C h1 h2:0"), -1);
    assert_string_equal(why, "-C h2:0: port '0' is out of range (1 to 65535)");
    assert_int_equal(parse("-C h1 h2/8"), -1);
    assert_string_equal(why, "-C h2/8: not a host name or a numeric address");
    assert_int_equal(parse("-C h1 :5"), -1);
    assert_int_equal(parse("-C h1 h2 h3"), -1);
    assert_string_equal(why, "unexpected argument 'h3' (the host is 'h1')");
    assert_int_equal(parse("-t h1 h2"), -1);
    assert_string_equal(why, "unexpected argument 'h2' (the host is 'h1'; a second host is -C's, "
                             "for a third party)");
    assert_int_equal(parse("-C --traceroute h1 h2"), -1);
    assert_non_null(strstr(why, "--traceroute does not go through a third party"));
    assert_int_equal(parse("-C -r -u -m 2 h1 h2"), -1);
    assert_string_equal(why, "multicast does not go through a third party (-C host1 host2)");
    assert_int_equal(parse("-S --third-party 10.0.0.0/8 --third-party ::1"), 0);
    assert_int_equal(opts.third_party_count, 2);
    assert_string_equal(opts.third_party[1], "::1");
    assert_int_equal(parse("-C --third-party 10.0.0.0/8 h1"), -1);
    assert_string_equal(why, "--third-party is for a server (-S)");
}

/* The table's modes column: every option kept for some modes is refused,
 * by name, in each of the others, whatever its kind. */
static void mode_bound_options_are_refused_elsewhere(void **state)
{
    static const char *const mode_words[] = {"-r", "-S", "-C"};
    size_t count, i;
    const struct ttcp_optdef *t = ttcp_optable(&count);
    int mode, checked = 0;
    (void)state;
    for (i = 0; i < count; i++) {
        for (mode = TTCP_MODE_CLASSIC; mode <= TTCP_MODE_CLIENT; mode++) {
            char line[128], name[32], expected[64];
            const char *value = t[i].kind == OPTK_SET ? ""
                                : t[i].kind == OPTK_ALLOW ? " 10.0.0.0/8"
                                : t[i].kind == OPTK_RATE ? " 1m" : " 2";
            if (t[i].modes & (1u << mode))
                continue;
            ttcp_optable_name(&t[i], name, sizeof name);
            snprintf(line, sizeof line, "%s %s%s%s", mode_words[mode], name, value,
                     mode == TTCP_MODE_CLIENT ? " h" : "");
            snprintf(expected, sizeof expected, "%s is for ", name);
            assert_int_equal(parse(line), -1);
            if (strncmp(why, expected, strlen(expected)) != 0)
                fail_msg("'%s': '%s', not '%s...'", line, why, expected);
            checked++;
        }
    }
    assert_true(checked >= 17); /* --bidir twice, seven of the server's twice, --key-file */
}

/* The table's "typed" column: -t/-r, -n, -f and --seed say they were given. */
static void typed_flags_follow_the_table(void **state)
{
    (void)state;
    assert_int_equal(parse("-r"), 0);
    assert_true(opts.side_given);
    assert_false(opts.nbuf_given || opts.unit_given || opts.seed_given);
    assert_int_equal(parse("-s -n 5 -f m --seed 0 h -t"), 0);
    assert_true(opts.side_given && opts.nbuf_given && opts.unit_given && opts.seed_given);
    assert_int_equal(parse("-s --pattern random -tn 3 h"), 0);
    assert_false(opts.seed_given || opts.unit_given);
    assert_int_equal(parse("--check"), 0);
    assert_false(opts.side_given);
}

/* --compression: from a transmitter or a client, one way, TCP, ttcp's own
 * patterns; each refusal names what is wrong. */
static void compression_rules(void **state)
{
    static const struct refusal refused[] = {
        {"-S --compression", "--compression is the sending side's or a client's"},
        {"-r -s --compression", "--compression runs the test from the transmitter (-t)"},
        {"-s --compression", "--compression runs the test from the transmitter (-t)"},
        {"--traceroute --compression h", "--compression runs the test from the transmitter"},
        {"-t -s --pattern classic --compression h", "leave --pattern out"},
        {"-C --pattern random --compression h", "leave --pattern out"},
        {"-t -s -u --compression h", "works with TCP only, not with -u"},
        {"-C -r -u --compression h", "works with TCP only, not with -u"},
        {"-C --iperf3 --compression h", "needs ttcp at the far end"},
        {"-C --bidir --compression h", "measures one way at a time"},
        {"-t --compression h", "--compression needs -s"},
        {"-t -s -c --compression h", "does not go with -c"},
        {"-t -s -P 2 --compression h", "with -P runs through a server (ttcp -C -P)"},
        {"-C --plot p.svg --compression h", "runs two tests; --plot draws one"},
        {"-C --json-stream --compression h", "--json-stream does not tell them apart"},
    };
    (void)state;
    expect_refused(refused, sizeof refused / sizeof refused[0]);
    assert_int_equal(parse("-t -s --compression h"), 0);
    assert_true(opts.compression && !opts.pattern_given);
    assert_int_equal(opts.pattern, TTCP_PAYLOAD_CLASSIC);
    assert_int_equal(parse("-C -r -P 2 --json --seed 7 --verify --compression h"), 0);
    assert_true(opts.compression && opts.seed_given && opts.verify);
    assert_int_equal(parse("-C --traceroute --pmtu -n 10 --compression h"), 0);
    assert_int_equal(parse("-t -s --pattern zeros h"), 0); /* typed: the flag the rule reads */
    assert_true(opts.pattern_given && !opts.compression);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_are_classic),
        cmocka_unit_test(every_classic_letter),
        cmocka_unit_test(attached_clustered_and_after_host),
        cmocka_unit_test(s_toggles_and_last_mode_wins),
        cmocka_unit_test(size_suffixes_are_binary),
        cmocka_unit_test(udp_buflen_rules),
        cmocka_unit_test(family_and_extensions),
        cmocka_unit_test(bad_input_is_named),
        cmocka_unit_test(usage_lists_every_option),
        cmocka_unit_test(help_words),
        cmocka_unit_test(dialog_options_are_validated_after),
        cmocka_unit_test(analyze_rules),
        cmocka_unit_test(server_and_client_rules),
        cmocka_unit_test(parallel_stream_rules),
        cmocka_unit_test(multicast_rules),
        cmocka_unit_test(plot_rules),
        cmocka_unit_test(mode_bound_options_are_refused_elsewhere),
        cmocka_unit_test(a_second_host_is_a_third_partys),
        cmocka_unit_test(web_is_a_servers_own_port),
        cmocka_unit_test(typed_flags_follow_the_table),
        cmocka_unit_test(compression_rules),
    };
    return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
