/* stdin and stdout as byte streams, and stdin reads that Ctrl+C cuts short.
 * The state of how stdin is read is kept here (docs/DESIGN.md, "The
 * platform rule": besides the Ctrl+C flag, the Windows layer's only other
 * mutable state, touched by the main thread and its reader thread). */
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <winsock2.h>

#include "ttcp/platform.h"
#include "win.h"

#define MAX_READ 0x40000000   /* _read lengths are int */
#define CONSOLE_MAX 16384     /* ReadFile on a console fails beyond about 64 KiB */
#define ABORT_WAIT_MS 250     /* Ctrl+C's abort of a console read may come before its handler */
#define PIPE_NAP_MAX_MS 50    /* longest nap between two looks into an empty pipe */
#define WAIT_SLICE_MS 100     /* longest wait between two looks at Ctrl+C */
#define READER_BUF 65536      /* the reader thread's buffer (a pipe holds no more) */

/* --- stdin -----------------------------------------------------------------
 * A blocking read cannot be interrupted either, so stdin is read in the way
 * its kind allows, found out at the first read:
 *   pipe     PeekNamedPipe until bytes are there, napping while it is empty,
 *            then _read, which then does not wait;
 *   console, and pipes PeekNamedPipe cannot look into (Wine: a Unix pipe or
 *            FIFO): a thread of ours does the blocking read, which we wait
 *            for. Windows cuts a console read short at Ctrl+C (0 bytes,
 *            ERROR_OPERATION_ABORTED), which is not the end of the input;
 *            Wine's console does not, hence the thread there too;
 *   file     _read: it never waits for long.
 * _read keeps msvcrt's text or binary mode. A read returns TT_E_INTR when
 * Ctrl+C comes that the core had not been told of when the read began; one
 * begun knowing of it waits as it always did (for "Press Enter to close."),
 * and a second Ctrl+C ends the program. */
enum stdin_kind { STDIN_UNKNOWN, STDIN_PIPE, STDIN_THREAD, STDIN_FILE };
static enum stdin_kind stdin_kind;

/* The reader thread's one read at a time, handed over under a slim lock
 * (no kernel object: under Wine an event costs a trip to the wineserver);
 * the thread holds the lock except while it reads. */
static SRWLOCK reader_lock = SRWLOCK_INIT;
static CONDITION_VARIABLE reader_asked = CONDITION_VARIABLE_INIT;
static CONDITION_VARIABLE reader_done = CONDITION_VARIABLE_INIT;
static struct {
    HANDLE console;        /* stdin, when it is a console (read with ReadFile) */
    int binary;            /* stdin is binary: the thread may read ahead */
    int asked;             /* the thread has a read to do */
    int pending;           /* a read was asked for and not yet handed out */
    int ready;             /* ... and it has ended: got, err and buf are valid */
    unsigned want;
    int got, off;          /* bytes read (0: the end, -1: failed); bytes handed out */
    int ended;             /* a Ctrl+Z was typed: the input has ended */
    DWORD err;
    char buf[READER_BUF];
} reader;

/* Text mode would turn CR LF into LF and stop reading stdin at 0x1A. The
 * stream that carries only report lines stays text (CR LF, as consoles and
 * Windows scripts expect). */
int tt_stdio_binary(enum tt_stream stream)
{
    FILE *f = stream == TT_STDIN ? stdin : stdout;
    fflush(f);
    if (_setmode(_fileno(f), _O_BINARY) == -1)
        return TT_E_IO;
    if (stream == TT_STDIN)
        reader.binary = 1;
    return 0;
}


static int64_t read_fd(void *buf, size_t len)
{
    int n = _read(0, buf, (unsigned)(len > MAX_READ ? MAX_READ : len));
    return n < 0 ? TT_E_IO : n; /* GetLastError() keeps the reason */
}

/* ReadFile, not _read, on a console: msvcrt would take the 0 bytes of an
 * aborted read for the end of the input, for good under Wine. The lock is
 * not held while it reads. */
static DWORD WINAPI reader_main(void *arg)
{
    (void)arg;
    AcquireSRWLockExclusive(&reader_lock);
    for (;;) {
        DWORD got = 0, err;
        int n;
        while (!reader.asked)
            SleepConditionVariableSRW(&reader_asked, &reader_lock, INFINITE, 0);
        reader.asked = 0;
        ReleaseSRWLockExclusive(&reader_lock);
        SetLastError(0);
        if (reader.console == NULL)
            n = _read(0, reader.buf, reader.want);
        else
            n = ReadFile(reader.console, reader.buf, reader.want, &got, NULL) ? (int)got : -1;
        err = GetLastError();
        AcquireSRWLockExclusive(&reader_lock);
        reader.got = n;
        reader.err = err;
        reader.ready = 1;
        WakeConditionVariable(&reader_done);
    }
    return 0; /* (never reached) */
}

static int start_reader(HANDLE console)
{
    HANDLE thread;
    reader.console = console;
    thread = CreateThread(NULL, 0, reader_main, NULL, 0, NULL);
    if (thread == NULL)
        return -1;
    CloseHandle(thread); /* it ends with the process, perhaps inside a read */
    return 0;
}

/* The thread's read ended in Ctrl+C's abort of a console read: the
 * handler, on a thread of its own, may not have set the flag yet. */
static int aborted(void)
{
    int waited;
    if (reader.console == NULL || reader.got > 0 || reader.err != ERROR_OPERATION_ABORTED)
        return 0;
    for (waited = 0; !tt_win_ctrl_c() && waited < ABORT_WAIT_MS; waited += 10)
        Sleep(10);
    return 1;
}

/* Waits for the thread's read (asking for one first if none is under way),
 * holding the lock; 0, or TT_E_INTR after a Ctrl+C that came meanwhile. */
static int await_read(size_t len, int armed)
{
    if (!reader.pending) {
        /* what a text-mode read takes in is translated: never more than asked */
        unsigned cap = reader.console != NULL ? CONSOLE_MAX : READER_BUF;
        reader.want = reader.binary || len > cap ? cap : (unsigned)len;
        reader.pending = reader.asked = 1;
        reader.off = 0;
        WakeConditionVariable(&reader_asked);
    }
    while (!reader.ready) {
        SleepConditionVariableSRW(&reader_done, &reader_lock, WAIT_SLICE_MS, 0);
        if (!reader.ready && armed && tt_win_ctrl_c())
            return TT_E_INTR; /* the read goes on: its bytes go to the next call */
    }
    return 0;
}

static int64_t read_by_thread(void *buf, size_t len, int armed)
{
    const char *end;
    int n, rc;
    AcquireSRWLockExclusive(&reader_lock);
    if (reader.ended && reader.off == reader.got) {
        ReleaseSRWLockExclusive(&reader_lock);
        return 0; /* after a Ctrl+Z, as msvcrt's text mode: the end, every time */
    }
    while ((rc = await_read(len, armed)) == 0 && aborted()) {
        reader.pending = reader.ready = 0;
        if (armed && tt_win_ctrl_c()) {
            rc = TT_E_INTR;
            break;
        }
    }
    if (rc != 0) {
        ReleaseSRWLockExclusive(&reader_lock);
        return rc;
    }
    if (reader.got <= 0) {
        n = reader.got;
        reader.pending = reader.ready = 0;
        SetLastError(reader.err);
        ReleaseSRWLockExclusive(&reader_lock);
        return n < 0 ? TT_E_IO : 0;
    }
    n = reader.got - reader.off;
    if ((size_t)n > len)
        n = (int)len;
    /* A Ctrl+Z (0x1A) typed on a console ends the input, as in msvcrt's
     * text mode: it is the only way to end what is typed. */
    end = reader.console != NULL ? memchr(reader.buf + reader.off, 0x1A, (size_t)n) : NULL;
    if (end != NULL) {
        n = (int)(end - (reader.buf + reader.off));
        reader.got = reader.off + n; /* the rest of that line is dropped */
        reader.ended = 1;
    }
    memcpy(buf, reader.buf + reader.off, (size_t)n);
    reader.off += n;
    if (reader.off == reader.got)
        reader.pending = reader.ready = 0;
    ReleaseSRWLockExclusive(&reader_lock);
    return n;
}

/* TT_E_UNSUPPORTED: PeekNamedPipe cannot look into this pipe. */
static int64_t read_pipe(HANDLE h, void *buf, size_t len, int armed)
{
    DWORD nap = 1, avail = 0;
    for (;;) {
        if (!PeekNamedPipe(h, NULL, 0, NULL, &avail, NULL))
            return GetLastError() == ERROR_BROKEN_PIPE ? read_fd(buf, len) /* EOF */
                                                       : TT_E_UNSUPPORTED;
        if (avail > 0)
            return read_fd(buf, len);
        if (armed && tt_win_ctrl_c())
            return TT_E_INTR;
        Sleep(nap);
        nap = nap * 2 > PIPE_NAP_MAX_MS ? PIPE_NAP_MAX_MS : nap * 2;
    }
}

int64_t tt_stdin_read(void *buf, size_t len)
{
    HANDLE h = GetStdHandle(STD_INPUT_HANDLE);
    int armed = !tt_win_ctrl_c_told();
    DWORD mode;

    if (stdin_kind == STDIN_UNKNOWN && GetConsoleMode(h, &mode))
        stdin_kind = start_reader(h) == 0 ? STDIN_THREAD : STDIN_FILE;
    else if (stdin_kind == STDIN_UNKNOWN)
        stdin_kind = GetFileType(h) == FILE_TYPE_PIPE ? STDIN_PIPE : STDIN_FILE;
    if (stdin_kind == STDIN_PIPE) {
        int64_t n = read_pipe(h, buf, len, armed);
        if (n != TT_E_UNSUPPORTED)
            return n;
        stdin_kind = start_reader(NULL) == 0 ? STDIN_THREAD : STDIN_FILE;
    }
    if (stdin_kind == STDIN_THREAD)
        return read_by_thread(buf, len, armed);
    return read_fd(buf, len);
}

int64_t tt_stdout_write(const void *buf, size_t len)
{
    const char *p = buf;
    size_t left = len;
    while (left > 0) {
        int n = _write(1, p, (unsigned)(left > 0x40000000 ? 0x40000000 : left));
        if (n <= 0)
            return TT_E_IO; /* GetLastError() keeps the reason */
        p += n;
        left -= (size_t)n;
    }
    return (int64_t)len;
}

/* A CRT call on a file failed: Windows' own error (the CRT's CreateFile
 * left it), for its words. */
static int crt_file_fail(void)
{
    WSASetLastError((int)GetLastError());
    return TT_E_IO;
}

int tt_output_append(const char *path, int with_stdout)
{
    /* text mode, as the console: each line ends in CR LF in the file too */
    int fd = _open(path, _O_WRONLY | _O_APPEND | _O_CREAT | _O_TEXT, _S_IREAD | _S_IWRITE);
    int rc = 0;
    if (fd < 0)
        return crt_file_fail();
    fflush(stdout);
    fflush(stderr);
    if (_dup2(fd, 2) != 0 || (with_stdout && _dup2(fd, 1) != 0))
        rc = crt_file_fail();
    _close(fd);
    return rc;
}
