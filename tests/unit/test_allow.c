/* -S --allow (remote/allow.c): prefixes of any length, IPv4 and IPv6, an
 * IPv4 peer on a dual-stack socket (an IPv4-mapped IPv6 address) matched as
 * IPv4, and what is not a prefix refused. The peers are the real platform's
 * addresses (tt_resolve of a numeric address: no lookup, no network), so the
 * mapped case goes through the same tt_addr_ip the server uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "remote/allow.h"

/* The address a server's accept would give for ip (numeric), of family. */
static struct tt_addr peer(const char *ip, int family)
{
    struct tt_addr_list list;
    assert_int_equal(tt_resolve(ip, 5001, family, 0, &list), 0);
    assert_true(list.count >= 1);
    return list.addr[0];
}

/* Whether a server with the single prefix --allow text takes ip. */
static int takes(const char *text, const char *ip, int family)
{
    struct ttcp_allow allow;
    struct tt_addr from = peer(ip, family);
    char why[160];
    memset(&allow, 0, sizeof allow);
    if (ttcp_prefix_parse(text, &allow.prefix[0], why, sizeof why) != 0)
        fail_msg("%s: %s", text, why);
    allow.count = 1;
    return ttcp_allow_match(&allow, &from);
}

#define V4 TT_FAMILY_V4
#define V6 TT_FAMILY_V6

static void ipv6_slash_64(void **state)
{
    (void)state;
    assert_true(takes("2001:db8:1:2::/64", "2001:db8:1:2::1", V6));
    assert_true(takes("2001:db8:1:2::/64", "2001:db8:1:2:ffff:ffff:ffff:ffff", V6));
    assert_false(takes("2001:db8:1:2::/64", "2001:db8:1:3::1", V6));
    assert_false(takes("2001:db8:1:2::/64", "2001:db8:1:1:ffff:ffff:ffff:ffff", V6));
    assert_false(takes("2001:db8:1:2::/64", "10.1.2.3", V4)); /* another family */
    assert_true(takes("::1", "::1", V6));                     /* no length: the host */
    assert_false(takes("::1", "::2", V6));
}

/* Lengths that end inside a byte: the bits past them are the host's. */
static void lengths_inside_a_byte(void **state)
{
    (void)state;
    /* /20: 10.1.16.0 to 10.1.31.255 */
    assert_true(takes("10.1.16.0/20", "10.1.16.0", V4));
    assert_true(takes("10.1.16.0/20", "10.1.31.255", V4));
    assert_false(takes("10.1.16.0/20", "10.1.15.255", V4));
    assert_false(takes("10.1.16.0/20", "10.1.32.0", V4));
    assert_true(takes("10.1.17.5/20", "10.1.30.1", V4)); /* host bits given: ignored */
    /* /121: the last 7 bits free, 2001:db8::80 to 2001:db8::ff */
    assert_true(takes("2001:db8::80/121", "2001:db8::80", V6));
    assert_true(takes("2001:db8::80/121", "2001:db8::ff", V6));
    assert_false(takes("2001:db8::80/121", "2001:db8::7f", V6));
    assert_false(takes("2001:db8::80/121", "2001:db8::100", V6));
    /* the ends of the range */
    assert_true(takes("0.0.0.0/0", "192.0.2.1", V4));
    assert_false(takes("0.0.0.0/0", "2001:db8::1", V6));
    assert_true(takes("10.1.2.3/32", "10.1.2.3", V4));
    assert_false(takes("10.1.2.3/32", "10.1.2.2", V4));
    assert_true(takes("2001:db8::1/128", "2001:db8::1", V6));
    assert_false(takes("2001:db8::1/128", "2001:db8::3", V6));
}

/* A dual-stack server sees an IPv4 client as ::ffff:a.b.c.d: an IPv4 prefix
 * takes it, an IPv6 one does not; ::a.b.c.d (IPv4-compatible) is IPv6. */
static void ipv4_mapped_peer(void **state)
{
    (void)state;
    assert_true(takes("10.0.0.0/8", "::ffff:10.1.2.3", V6));
    assert_true(takes("10.1.16.0/20", "::ffff:10.1.31.1", V6));
    assert_false(takes("10.1.16.0/20", "::ffff:10.1.32.1", V6));
    assert_false(takes("2001:db8::/32", "::ffff:10.1.2.3", V6));
    assert_false(takes("10.0.0.0/8", "::a01:203", V6));
}

/* More than one prefix: any of them; none at all: anyone. */
static void several_prefixes_or_none(void **state)
{
    struct ttcp_options o;
    struct ttcp_allow allow;
    struct tt_addr a = peer("192.0.2.7", V4), b = peer("2001:db8::9", V6);
    struct tt_addr c = peer("198.51.100.1", V4);
    char why[160];
    (void)state;
    memset(&o, 0, sizeof o);
    assert_int_equal(ttcp_allow_parse(&o, &allow, why, sizeof why), 0);
    assert_true(ttcp_allow_match(&allow, &c));
    o.allow[0] = "192.0.2.0/24";
    o.allow[1] = "2001:db8::/48";
    o.allow_count = 2;
    assert_int_equal(ttcp_allow_parse(&o, &allow, why, sizeof why), 0);
    assert_int_equal(allow.count, 2);
    assert_true(ttcp_allow_match(&allow, &a));
    assert_true(ttcp_allow_match(&allow, &b));
    assert_false(ttcp_allow_match(&allow, &c));
    o.allow[2] = "192.0.2.0/40"; /* one bad prefix refuses the lot */
    o.allow_count = 3;
    assert_int_equal(ttcp_allow_parse(&o, &allow, why, sizeof why), -1);
    assert_non_null(strstr(why, "192.0.2.0/40"));
}

/* --third-party: its own list, its own name in a refusal; none at all is
 * no target (the server refuses every third party then, server/third.c). */
static void third_party_targets(void **state)
{
    struct ttcp_options o;
    struct ttcp_allow list;
    struct tt_addr in = peer("10.200.172.1", V4), out = peer("10.200.172.3", V4);
    char why[160];
    (void)state;
    memset(&o, 0, sizeof o);
    o.allow[0] = "10.0.0.0/8"; /* --allow's prefixes are not targets */
    o.allow_count = 1;
    assert_int_equal(ttcp_third_party_parse(&o, &list, why, sizeof why), 0);
    assert_int_equal(list.count, 0);
    o.third_party[0] = "10.200.172.1";
    o.third_party_count = 1;
    assert_int_equal(ttcp_third_party_parse(&o, &list, why, sizeof why), 0);
    assert_true(ttcp_allow_match(&list, &in));
    assert_false(ttcp_allow_match(&list, &out));
    o.third_party[1] = "host2";
    o.third_party_count = 2;
    assert_int_equal(ttcp_third_party_parse(&o, &list, why, sizeof why), -1);
    assert_string_equal(why, "--third-party: 'host2' is not a numeric IPv4 or IPv6 address");
}

static void bad_prefixes_refused(void **state)
{
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"10.0.0.0/33", "--allow: 10.0.0.0/33: prefix length '33' is out of range"},
        {"2001:db8::/129", "prefix length '129' is out of range"},
        {"10.0.0.0/", "--allow: 10.0.0.0/: prefix length"},
        {"10.0.0.0/-1", "prefix length"},
        {"10.0.0.0/8x", "prefix length"},
        {"10.0.0.0/8/8", "prefix length"},
        {"/8", "--allow: '/8' is not an address prefix"},
        {"", "is not an address prefix"},
        {"host.example/8", "'host.example' is not a numeric IPv4 or IPv6 address"},
        {"10.0.0/8", "is not a numeric IPv4 or IPv6 address"},
        {"256.0.0.0/8", "is not a numeric IPv4 or IPv6 address"},
        {"2001:db8:::1/64", "is not a numeric IPv4 or IPv6 address"},
    };
    struct ttcp_prefix p;
    char why[160];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        if (ttcp_prefix_parse(bad[i].text, &p, why, sizeof why) != -1)
            fail_msg("'%s' was taken as a prefix", bad[i].text);
        if (strstr(why, bad[i].why) == NULL)
            fail_msg("'%s': reason '%s', expected it to contain '%s'", bad[i].text, why,
                     bad[i].why);
        assert_null(strchr(why, '\n')); /* one line */
    }
}

/* tt_resolve needs the platform's sockets set up (Winsock's start). */
static int setup(void **state)
{
    (void)state;
    return tt_init() == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ipv6_slash_64),
        cmocka_unit_test(lengths_inside_a_byte),
        cmocka_unit_test(ipv4_mapped_peer),
        cmocka_unit_test(several_prefixes_or_none),
        cmocka_unit_test(third_party_targets),
        cmocka_unit_test(bad_prefixes_refused),
    };
    return cmocka_run_group_tests_name("allow", tests, setup, NULL);
}
