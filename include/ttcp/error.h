/* Portable result codes shared by the platform layer and the core.
 *
 * Every fallible function returns 0 (or a non-negative count) on success and
 * one of these negative codes on failure. The native error number (errno,
 * WSAGetLastError, a getaddrinfo code) is kept beside the code by the caller,
 * read with tt_last_error() right after the failing call, so messages can
 * show the operating system's own text.
 */
#ifndef TTCP_ERROR_H
#define TTCP_ERROR_H

/* X(name, portable text) */
#define TTCP_ERROR_LIST(X)                                        \
    X(TT_E_INTR, "Interrupted system call")                       \
    X(TT_E_AGAIN, "Timed out waiting for data")                   \
    X(TT_E_CONNREFUSED, "Connection refused")                     \
    X(TT_E_CONNRESET, "Connection reset by peer")                 \
    X(TT_E_PIPE, "Broken pipe")                                   \
    X(TT_E_ADDRINUSE, "Address already in use")                   \
    X(TT_E_NOBUFS, "No buffer space available")                   \
    X(TT_E_UNREACH, "Network is unreachable")                     \
    X(TT_E_TIMEDOUT, "Connection timed out")                      \
    X(TT_E_NOHOST, "Host name could not be resolved")             \
    X(TT_E_NOMEM, "Out of memory")                                \
    X(TT_E_INVAL, "Invalid argument")                             \
    X(TT_E_MSGSIZE, "Message too long")                           \
    X(TT_E_AFNOSUPPORT, "Address family not supported")           \
    X(TT_E_ACCES, "Permission denied")                            \
    X(TT_E_UNSUPPORTED, "Operation not supported on this system") \
    X(TT_E_IO, "Input/output error")                            \
    X(TT_E_NODEV, "No such device")

enum ttcp_error_code {
    TT_OK = 0,
    TT_E_FIRST_ = -100,
#define TTCP_ERROR_ENUM(name, text) name,
    TTCP_ERROR_LIST(TTCP_ERROR_ENUM)
#undef TTCP_ERROR_ENUM
    TT_E_LAST_
};

/* Portable text for a result code; never NULL. */
const char *ttcp_strerror(int code);

#endif
