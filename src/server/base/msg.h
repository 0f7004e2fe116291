/*
 * msg.h - a message's text, made once and shared by every connection it is
 * sent to.
 *
 * A broadcast to a game's viewers used to format and copy the text once
 * per connection; now each distinct text (the spectators' state, each
 * seat's) is one msg, and each connection's queue holds a reference.
 * MSG_HEADROOM bytes before the text are the transport's to write a frame
 * header into (libwebsockets' LWS_PRE): a server's frames are not masked,
 * so the text itself is never changed and one buffer serves every
 * connection in turn. Loop thread only: the count is not atomic.
 */
#ifndef AX_SERVER_MSG_H
#define AX_SERVER_MSG_H

#include <stddef.h>

#define MSG_HEADROOM 32

typedef struct msg {
    unsigned refs;
    size_t len;            /* of the text, without its NUL */
    unsigned char bytes[]; /* MSG_HEADROOM, then the text and a NUL */
} msg;

/* A message of len bytes (refs 1), its text to fill; NULL out of memory. */
msg *msg_new(size_t len);
/* A copy of text (refs 1); NULL out of memory. */
msg *msg_copy(const char *text, size_t len);
/* A formatted text (refs 1); NULL out of memory. */
msg *msg_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The texts one after the other (refs 1), a NULL ending the list: the long
 * texts of a broadcast (a game's state) are copied once, not formatted. */
msg *msg_join(const char *first, ...) __attribute__((sentinel));
msg *msg_ref(msg *m);
void msg_unref(msg *m);

static inline char *msg_text(msg *m) { return (char *)m->bytes + MSG_HEADROOM; }

#endif
