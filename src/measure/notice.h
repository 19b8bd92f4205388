/* What a server tells of a connection that did not become a test: a
 * fact for the report layer to word. */
#ifndef TTCP_NOTICE_H
#define TTCP_NOTICE_H

/* What happened to a connection that did not become a test. */
enum ttcp_notice {
    TTCP_NOTICE_LISTENING,   /* the server is up (peer: unset) */
    TTCP_NOTICE_NOT_ALLOWED, /* --allow does not cover the peer: closed at once */
    TTCP_NOTICE_BUSY,        /* --max-clients tests run: told "busy" */
    TTCP_NOTICE_CROWDED,     /* too many connections still opening: the oldest closed */
    TTCP_NOTICE_BAD_HELLO,   /* the opening frame broke the protocol */
    TTCP_NOTICE_HELLO_TIMEOUT, /* the magic and hello did not come in time */
    TTCP_NOTICE_IDLE,        /* connected, sent nothing for --idle-timeout */
    TTCP_NOTICE_BAD_TOKEN,   /* a data connection no test expects */
    TTCP_NOTICE_VERSION,     /* a client speaks no version the server does */
    TTCP_NOTICE_AUTH_FAILED, /* --key-file: a wrong or missing key */
    TTCP_NOTICE_REFUSED_TEST, /* a test request out of range or over a limit */
    TTCP_NOTICE_CONTROL_LOST, /* the client went away or stalled mid-test */
    TTCP_NOTICE_THIRD_PARTY,  /* a client's test to a third host (--third-party) begins */
    TTCP_NOTICE_THIRD_REFUSED, /* ... refused: no --third-party, or a target outside it */
    TTCP_NOTICE_COUNT
};

#endif
