/* ttcp -S --inetd: inetd starts a process for every connection, so a
 * client test's data connections reach processes other than the one that
 * holds its control connection. That one opens a rendezvous named by the
 * first half of the test's token; a process whose first frame is `data`
 * hands its connection there, with the whole token and the stream number,
 * and ends. The taker attaches it as gate.c attaches a data connection:
 * only to the test holding that token, only from the control connection's
 * IP; the platform takes sockets only from processes of the same user. */
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "server/internal.h"

#define NAME_HEX (TTCP_TOKEN_HEX / 2) /* the rest of the token never leaves the processes */
#define GIVE_MS 1000
#define WORDS_MAX (TTCP_TOKEN_HEX + 8)

static void name_of(const char *token, char name[NAME_HEX + 1])
{
    memcpy(name, token, NAME_HEX);
    name[NAME_HEX] = '\0';
}

int ttcp_handoff_open(struct ttcp_server *sv, const char *token)
{
    char name[NAME_HEX + 1];
    struct tt_handoff *h;
    name_of(token, name);
    if (tt_handoff_open(name, &h) != 0)
        return -1;
    tt_mutex_lock(sv->lock);
    sv->handoff = h;
    tt_mutex_unlock(sv->lock);
    return 0;
}

void ttcp_handoff_close(struct ttcp_server *sv)
{
    struct tt_handoff *h;
    tt_mutex_lock(sv->lock);
    h = sv->handoff;
    sv->handoff = NULL;
    tt_mutex_unlock(sv->lock);
    tt_handoff_close(h);
}

/* "<token> <stream>": the token, and a stream number in range. */
static int read_words(const char *words, char token[TTCP_TOKEN_HEX + 1], int *stream)
{
    uint64_t n;
    char why[80];
    if (strlen(words) <= TTCP_TOKEN_HEX + 1 || words[TTCP_TOKEN_HEX] != ' ')
        return -1;
    memcpy(token, words, TTCP_TOKEN_HEX);
    token[TTCP_TOKEN_HEX] = '\0';
    if (!ttcp_wire_token_ok(token) ||
        ttcp_parse_u64(words + TTCP_TOKEN_HEX + 1, TTCP_SUFFIX_NONE, 0, TTCP_STREAM_IDS - 1, &n,
                       why, sizeof why) != 0)
        return -1;
    *stream = (int)n;
    return 0;
}

void ttcp_handoff_collect(struct ttcp_server *sv)
{
    char words[WORDS_MAX], token[TTCP_TOKEN_HEX + 1];
    struct tt_addr peer;
    tt_socket s;
    int stream, rc;
    if (sv->handoff == NULL) /* set and cleared by the test's own thread, the caller */
        return;
    while ((rc = tt_handoff_take(sv->handoff, &s, &peer, words, sizeof words)) != TT_E_AGAIN) {
        if (rc != 0)
            return; /* the platform dropped it; the client's 10 s tell the rest */
        if (read_words(words, token, &stream) != 0 ||
            ttcp_server_attach(sv, token, stream, s, &peer) != 0) {
            ttcp_server_notice(sv, TTCP_NOTICE_BAD_TOKEN, &peer);
            tt_close(s);
        }
    }
}

int ttcp_handoff_give(const char *token, int stream, tt_socket s)
{
    char name[NAME_HEX + 1], words[WORDS_MAX];
    name_of(token, name);
    snprintf(words, sizeof words, "%s %d", token, stream);
    return tt_handoff_give(name, s, words, GIVE_MS) == 0 ? 0 : -1;
}
