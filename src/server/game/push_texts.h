/*
 * push_texts.h - the few texts the server itself writes to people: the
 * notifications' titles and bodies (push_texts.c), in every language the
 * web client speaks (en, de, hu). A text names what it fills in as
 * {name}; every language of a kind has the same names
 * (tests/server/game/test_push_texts.c).
 */
#ifndef AX_SERVER_PUSH_TEXTS_H
#define AX_SERVER_PUSH_TEXTS_H

#include <stddef.h>

/* The kinds of notification, in the order of the preferences. A new kind
 * goes at the end: stored preferences name kinds, and counters index them. */
enum { PUSH_TURN, PUSH_CLOCK, PUSH_OVER, PUSH_CHALLENGE, PUSH_EVENT, PUSH_KINDS };

/* "turn", "clock", "over", "challenge", "event" */
extern const char *const push_kind_names[PUSH_KINDS];
extern const char *const push_langs[]; /* "en", "de", "hu", NULL */

/* The texts of e-mails (mail.c). */
enum {
    MAIL_VERIFY_SUBJECT,
    MAIL_VERIFY_BODY,
    MAIL_DIGEST_SUBJECT,
    MAIL_DIGEST_BODY,
    MAIL_DIGEST_LINE,
    MAIL_DIGEST_FOOTER,
    MAIL_VERIFIED,
    MAIL_UNSUBSCRIBED,
    MAIL_TEXTS
};
/* An e-mail's text in a language (English for one unknown), or NULL. */
const char *mail_text(int which, const char *lang);

/* The kind of a name, or -1. */
int push_kind(const char *name);
/* Whether a language is one of push_langs. */
int push_lang_known(const char *lang);
/* The title and body of a kind in a language (English for one unknown);
 * 0, or -1 when the table lacks it. */
int push_text(int kind, const char *lang, const char **title, const char **body);
/* A text with each {name} replaced by its value (vars: name, value, ...,
 * NULL); an unknown {name} stays as it is. 0, or -1 when it does not fit. */
int push_fill(const char *text, const char *const *vars, char *out, size_t size);

#endif
