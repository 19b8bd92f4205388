/* The opening of a client's conversation, read by the gate without a
 * thread or a slot: hello -> welcome (a version both speak), and with
 * --key-file the challenge and response. Only a client that has been
 * through it takes a client slot, so peers that never finish, or do not
 * hold the key, cannot lock clients out. The frames sent here are the
 * first the connection carries, a few hundred bytes: they never wait. */
#include <stdio.h>

#include "server/internal.h"

int ttcp_greet_hello(struct ttcp_server *sv, tt_socket s, const struct tt_addr *peer,
                     const struct ttcp_message *hello, char nonce[TTCP_NONCE_HEX + 1])
{
    uint64_t newest, oldest;
    struct ttcp_frame f;
    char why[200];
    if (ttcp_proto_get_u64(hello, "version", 1, 65535, &newest, why, sizeof why) != 0 ||
        ttcp_proto_get_u64(hello, "min_version", 1, newest, &oldest, why, sizeof why) != 0) {
        ttcp_channel_send_error(s, "protocol", why);
        ttcp_server_notice(sv, TTCP_NOTICE_BAD_HELLO, peer);
        return -1;
    }
    if (oldest > TTCP_PROTO_VERSION) {
        snprintf(why, sizeof why, "this server speaks protocol %d to %d; the client needs "
                 "%llu or later: upgrade the server", TTCP_PROTO_VERSION, TTCP_PROTO_VERSION,
                 (unsigned long long)oldest);
        ttcp_channel_send_error(s, "version", why);
        ttcp_server_notice(sv, TTCP_NOTICE_VERSION, peer);
        return -1;
    }
    if (sv->auth && ttcp_random_hex(nonce, TTCP_NONCE_HEX) != 0)
        return -1;
    ttcp_frame_begin(&f, "welcome");
    ttcp_frame_add_u64(&f, "version", TTCP_PROTO_VERSION);
    ttcp_frame_add_u64(&f, "auth", (uint64_t)sv->auth);
    if (sv->auth)
        ttcp_frame_add(&f, "nonce", nonce);
    ttcp_frame_end(&f);
    return ttcp_channel_send(s, &f) == 0 ? 0 : -1;
}

int ttcp_greet_auth(struct ttcp_server *sv, tt_socket s, const struct tt_addr *peer,
                    const struct ttcp_message *m, const char *snonce)
{
    struct ttcp_frame f;
    char want[TTCP_MAC_HEX + 1], mine[TTCP_MAC_HEX + 1];
    const char *cnonce = ttcp_proto_get(m, "nonce"), *mac = ttcp_proto_get(m, "mac");
    if (strcmp(ttcp_proto_type(m), "auth") != 0 || cnonce == NULL || mac == NULL ||
        strlen(cnonce) != TTCP_NONCE_HEX ||
        ttcp_auth_mac(&sv->key, "client", snonce, cnonce, want) != 0 ||
        !ttcp_auth_equal(mac, want)) {
        ttcp_channel_send_error(s, "auth", "authentication failed: the keys differ (--key-file)");
        ttcp_server_notice(sv, TTCP_NOTICE_AUTH_FAILED, peer);
        return -1;
    }
    if (ttcp_auth_mac(&sv->key, "server", snonce, cnonce, mine) != 0)
        return -1;
    ttcp_frame_begin(&f, "auth_ok");
    ttcp_frame_add(&f, "mac", mine);
    ttcp_frame_end(&f);
    return ttcp_channel_send(s, &f) == 0 ? 0 : -1;
}
