/*
 * push_texts.c - the notifications' texts in English, German and Hungarian
 * (push_texts.h): one table, a row per kind and language. What a text
 * fills in: {variant} (AXIO, AXIO ROTA, AXIO Hex), {place} and {players}
 * (a finished game's), {name} (a challenger's name, shown as text), {event}
 * (an event's name, shown as text).
 */
#include "push_texts.h"

#include <string.h>

const char *const push_kind_names[PUSH_KINDS] = {"turn", "clock", "over", "challenge", "event"};
const char *const push_langs[] = {"en", "de", "hu", NULL};

typedef struct {
    int kind;
    const char *lang, *title, *body;
} push_row;

static const push_row rows[] = {
    {PUSH_TURN, "en", "Your turn", "It is your turn in {variant}."},
    {PUSH_TURN, "de", "Du bist am Zug", "Du bist in {variant} am Zug."},
    {PUSH_TURN, "hu", "Te következel", "Te következel: {variant}."},
    {PUSH_CLOCK, "en", "Time is running out",
     "Most of your time for this move in {variant} is used."},
    {PUSH_CLOCK, "de", "Die Zeit wird knapp",
     "Der größte Teil deiner Zeit für diesen Zug in {variant} ist verbraucht."},
    {PUSH_CLOCK, "hu", "Fogy az időd", "Elfogyott a lépésidőd nagy része: {variant}."},
    {PUSH_OVER, "en", "Game over", "You finished {place} of {players} in {variant}."},
    {PUSH_OVER, "de", "Partie beendet", "Du bist auf Platz {place} von {players} in {variant}."},
    {PUSH_OVER, "hu", "Vége a játszmának", "{place}. lettél {players} játékos közül: {variant}."},
    {PUSH_CHALLENGE, "en", "A challenge", "{name} challenges you to {variant}."},
    {PUSH_CHALLENGE, "de", "Eine Herausforderung", "{name} fordert dich zu {variant} heraus."},
    {PUSH_CHALLENGE, "hu", "Kihívás", "{name} kihív egy játszmára: {variant}."},
    {PUSH_EVENT, "en", "A tournament game is waiting",
     "Your game in {event} ({variant}) is ready: come and play."},
    {PUSH_EVENT, "de", "Eine Turnierpartie wartet",
     "Deine Partie in {event} ({variant}) ist bereit: komm und spiel."},
    {PUSH_EVENT, "hu", "Vár egy versenyjátszma",
     "Kész a játszmád: {event} ({variant}). Gyere játszani!"},
};

typedef struct {
    int which;
    const char *lang, *text;
} mail_row;

/* E-mails: {url} a link, {count} a number of games, {variant} a game's. */
static const mail_row mail_rows[] = {
    {MAIL_VERIFY_SUBJECT, "en", "Confirm your e-mail address for axio"},
    {MAIL_VERIFY_SUBJECT, "de", "Bestätige deine E-Mail-Adresse für axio"},
    {MAIL_VERIFY_SUBJECT, "hu", "Erősítsd meg az e-mail-címedet az axióhoz"},
    {MAIL_VERIFY_BODY, "en",
     "Open this link to receive at most one e-mail a day listing the games waiting for your "
     "move:\n\n{url}\n\nIf you did not ask for it, ignore this message."},
    {MAIL_VERIFY_BODY, "de",
     "Öffne diesen Link, um höchstens eine E-Mail am Tag mit den Partien zu bekommen, in denen "
     "du am Zug bist:\n\n{url}\n\nWenn du das nicht wolltest, beachte diese Nachricht nicht."},
    {MAIL_VERIFY_BODY, "hu",
     "Nyisd meg ezt a linket, és naponta legfeljebb egy e-mailt kapsz azokról a játszmákról, "
     "amelyekben te következel:\n\n{url}\n\nHa nem te kérted, hagyd figyelmen kívül ezt az "
     "üzenetet."},
    {MAIL_DIGEST_SUBJECT, "en", "axio: games waiting for your move ({count})"},
    {MAIL_DIGEST_SUBJECT, "de", "axio: Partien, die auf deinen Zug warten ({count})"},
    {MAIL_DIGEST_SUBJECT, "hu", "axio: a lépésedre váró játszmák ({count})"},
    {MAIL_DIGEST_BODY, "en", "These games wait for your move:"},
    {MAIL_DIGEST_BODY, "de", "Diese Partien warten auf deinen Zug:"},
    {MAIL_DIGEST_BODY, "hu", "Ezek a játszmák várnak a lépésedre:"},
    {MAIL_DIGEST_LINE, "en", "- {variant}: {url}"},
    {MAIL_DIGEST_LINE, "de", "- {variant}: {url}"},
    {MAIL_DIGEST_LINE, "hu", "- {variant}: {url}"},
    {MAIL_DIGEST_FOOTER, "en", "At most one such e-mail a day. No more of them: {url}"},
    {MAIL_DIGEST_FOOTER, "de", "Höchstens eine solche E-Mail am Tag. Keine mehr: {url}"},
    {MAIL_DIGEST_FOOTER, "hu", "Naponta legfeljebb egy ilyen e-mail. Több ne jöjjön: {url}"},
    {MAIL_VERIFIED, "en",
     "Your e-mail address is confirmed: axio sends you at most one e-mail a day."},
    {MAIL_VERIFIED, "de",
     "Deine E-Mail-Adresse ist bestätigt: axio schickt dir höchstens eine E-Mail am Tag."},
    {MAIL_VERIFIED, "hu",
     "Az e-mail-címed megerősítve: az axio naponta legfeljebb egy e-mailt küld."},
    {MAIL_UNSUBSCRIBED, "en", "axio sends no more e-mails to this address."},
    {MAIL_UNSUBSCRIBED, "de", "axio schickt keine E-Mails mehr an diese Adresse."},
    {MAIL_UNSUBSCRIBED, "hu", "Az axio nem küld több e-mailt erre a címre."},
};

const char *mail_text(int which, const char *lang)
{
    if (!push_lang_known(lang))
        lang = "en";
    for (size_t i = 0; i < sizeof mail_rows / sizeof mail_rows[0]; i++)
        if (mail_rows[i].which == which && strcmp(mail_rows[i].lang, lang) == 0)
            return mail_rows[i].text;
    return NULL;
}

int push_kind(const char *name)
{
    for (int k = 0; k < PUSH_KINDS; k++)
        if (strcmp(name, push_kind_names[k]) == 0)
            return k;
    return -1;
}

int push_lang_known(const char *lang)
{
    for (int i = 0; push_langs[i]; i++)
        if (strcmp(lang, push_langs[i]) == 0)
            return 1;
    return 0;
}

int push_text(int kind, const char *lang, const char **title, const char **body)
{
    if (!push_lang_known(lang))
        lang = "en";
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].kind == kind && strcmp(rows[i].lang, lang) == 0) {
            *title = rows[i].title;
            *body = rows[i].body;
            return 0;
        }
    return -1;
}

int push_fill(const char *text, const char *const *vars, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = text; *p;) {
        const char *value = NULL;
        size_t skip = 1;
        if (*p == '{') {
            for (int i = 0; vars && vars[i]; i += 2) {
                size_t len = strlen(vars[i]);
                if (strncmp(p + 1, vars[i], len) == 0 && p[1 + len] == '}') {
                    value = vars[i + 1];
                    skip = len + 2;
                    break;
                }
            }
        }
        size_t len = value ? strlen(value) : 1;
        if (n + len >= size)
            return -1;
        memcpy(out + n, value ? value : p, len);
        n += len;
        p += skip;
    }
    out[n] = 0;
    return 0;
}
