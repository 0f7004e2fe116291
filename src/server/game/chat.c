/*
 * chat.c - a chat per game, for its players and its spectators.
 *
 * A message is checked (1 to 500 characters, no control character: the
 * text is plain text, and clients show it as such), stored by the writer
 * thread, and only then sent to everyone watching, like a decision: a
 * message anyone saw survives a crash. The newest CHAT_KEEP messages stay
 * in memory as a ring, for the history a connecting client gets: as many
 * of the newest as fit in CHAT_HISTORY_BYTES, one shared message made once
 * after each change (a game's 200 longest messages were 400 KB, written
 * out for every connection: reconnecting in a loop cost a core).
 *
 * Moderation (moderation.c) has its say before a message is stored: a
 * timed-out writer is refused, a shadow-muted one's message is sent to its
 * own connections only and never stored; and when one is sent, a viewer
 * whose account blocks the writer does not get it (nor, in its history,
 * any other of the writer's).
 */
#include "chat.h"
#include "game.h"
#include "moderation.h"
#include "owners.h"
#include "play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHAT_CHARS_MAX 500
/* 5 messages at once, then one every two seconds, per connection and per
 * address in a game (reconnecting does not refill it) */
#define CHAT_BURST      5
#define CHAT_PER_SECOND 0.5
/* Addresses a game remembers for that; when full, the one with the fullest
 * bucket gives way to a new one (an attacker with that many addresses has
 * fresh ones anyway: the game's cap, CHAT_STORED_MAX, bounds what it can
 * store). */
#define CHAT_ADDRESSES 64
/* The chat history a connecting client gets holds at most this many bytes
 * of messages (at least 8 of the longest, 50 of a few words). */
#define CHAT_HISTORY_BYTES 16384

/* Counts the characters of valid UTF-8 (jansson checked it) and refuses
 * C0 controls, DEL and C1 controls (U+0080..U+009F, bytes C2 80..C2 9F). */
static const char *check_text(const char *s, size_t len)
{
    size_t chars = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char b = (unsigned char)s[i];
        if (b < 0x20 || b == 0x7f)
            return "chat text must not hold control characters";
        if (b == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] < 0xa0)
            return "chat text must not hold control characters";
        if ((b & 0xc0) != 0x80)
            chars++;
    }
    if (chars == 0)
        return "chat text must not be empty";
    if (chars > CHAT_CHARS_MAX)
        return "chat text may have at most 500 characters";
    return NULL;
}

static void refill(bucket *b, double now)
{
    if (b->last == 0) {
        b->tokens = CHAT_BURST;
        b->last = now;
    }
    b->tokens += (now - b->last) * CHAT_PER_SECOND;
    if (b->tokens > CHAT_BURST)
        b->tokens = CHAT_BURST;
    b->last = now;
}

/* The game's bucket of an address, made (or taken over) on first use. */
static bucket *address_bucket(game *gm, const char *ip, double now)
{
    if (!gm->chat_addrs && !(gm->chat_addrs = calloc(CHAT_ADDRESSES, sizeof *gm->chat_addrs)))
        return NULL;
    chat_addr *fullest = NULL;
    for (int i = 0; i < gm->nchat_addrs; i++) {
        chat_addr *a = &gm->chat_addrs[i];
        if (strcmp(a->ip, ip) == 0)
            return &a->rate;
        refill(&a->rate, now);
        if (!fullest || a->rate.tokens > fullest->rate.tokens)
            fullest = a;
    }
    chat_addr *a = gm->nchat_addrs < CHAT_ADDRESSES ? &gm->chat_addrs[gm->nchat_addrs++] : fullest;
    snprintf(a->ip, sizeof a->ip, "%s", ip);
    a->rate = (bucket){0, 0};
    return &a->rate;
}

static bool chat_allowed(viewer *c)
{
    double now = service_now(c->svc);
    bucket *by_address = address_bucket(c->gm, c->ip, now);
    refill(&c->chat_rate, now);
    if (by_address)
        refill(by_address, now);
    if (!by_address || c->chat_rate.tokens < 1.0 || by_address->tokens < 1.0)
        return false;
    c->chat_rate.tokens -= 1.0;
    by_address->tokens -= 1.0;
    return true;
}

static json_t *message_json(const chat_msg *m);

/* A shadow-muted writer's message: as if sent, to its own account's
 * connections to the game only; nobody else ever gets it. */
static void shadow(viewer *c, const char *text)
{
    /* numbered as the next stored line would be: it looks like any other */
    chat_msg m = {c->seat, "", (char *)text, unix_ms(), moderation_writer(c), c->gm->chat_next};
    snprintf(m.name, sizeof m.name, "%s", c->seat >= 0 ? c->gm->seats[c->seat].name : "spectator");
    json_t *j = message_json(&m);
    char *out = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    for (viewer *o = c->gm->viewers; o && out; o = o->next)
        if (o == c || (m.account_id > 0 && moderation_writer(o) == m.account_id))
            play_send_json(o, json_loads(out, 0, NULL));
    free(out);
}

void chat_handle(viewer *c, const json_t *msg)
{
    game *gm = c->gm;
    const json_t *v = json_object_get(msg, "text");
    if (!json_is_string(v)) {
        play_send_error(c, "bad_message", "chat needs \"text\": a string");
        return;
    }
    const char *why = check_text(json_string_value(v), json_string_length(v));
    if (why) {
        play_send_error(c, "bad_message", why);
        return;
    }
    if (c->seat < 0 && gm->status != GAME_WAITING && gm->status != GAME_RUNNING) {
        play_send_error(c, "forbidden", "spectators cannot chat once the game is over");
        return;
    }
    if (gm->chat_next >= CHAT_STORED_MAX) {
        play_send_error(c, "chat_full", "this game's chat is full");
        return;
    }
    if (!chat_allowed(c)) {
        play_send_error(c, "rate_limited", "too many chat messages; wait a few seconds");
        return;
    }
    int verdict = moderation_chat_check(c);
    if (verdict == CHAT_REFUSED)
        return;
    if (verdict == CHAT_SHADOW) {
        shadow(c, json_string_value(v));
        return;
    }
    store_write *w = calloc(1, sizeof *w);
    char *text = strdup(json_string_value(v));
    if (!w || !text) {
        free(w);
        free(text);
        play_send_error(c, "internal", "out of memory");
        return;
    }
    w->kind = STORE_CHAT;
    w->owner = gm;
    memcpy(w->game_id, gm->id, sizeof gm->id);
    w->seat = c->seat;
    snprintf(w->name, sizeof w->name, "%s", c->seat >= 0 ? gm->seats[c->seat].name : "spectator");
    w->decision = text;
    w->at = unix_ms();
    w->account_id = moderation_writer(c);
    w->chat_n = gm->chat_next++;
    gm->chat_writes++;
    owners_submit(gm, w);
}

static json_t *message_json(const chat_msg *m)
{
    return json_pack("{s:s,s:{s:o,s:s},s:s,s:I,s:i}", "type", "chat", "from", "seat",
                     m->seat >= 0 ? json_integer(m->seat) : json_null(), "name", m->name, "text",
                     m->text, "at", (json_int_t)m->at, "n", m->n);
}

/* The cached chat_history is no longer the chat's. */
static void history_changed(game *gm)
{
    msg_unref(gm->chat_history);
    gm->chat_history = NULL;
}

/* Keeps a message in the ring, dropping the oldest when full; takes text. */
static void remember(game *gm, int seat, const char *name, char *text, int64_t at,
                     int64_t account_id, int n)
{
    history_changed(gm);
    chat_msg *m;
    if (gm->nchat < CHAT_KEEP) {
        m = &gm->chat[(gm->chat_first + gm->nchat++) % CHAT_KEEP];
    } else {
        m = &gm->chat[gm->chat_first];
        free(m->text);
        gm->chat_first = (gm->chat_first + 1) % CHAT_KEEP;
    }
    m->seat = seat;
    snprintf(m->name, sizeof m->name, "%s", name);
    m->text = text;
    m->at = at;
    m->account_id = account_id;
    m->n = n;
}

void chat_written(service *svc, store_write *w)
{
    (void)svc;
    game *gm = w->owner;
    gm->chat_writes--;
    if (w->result != 0) {
        service_log(gm->svc, "game %s: storing a chat message failed: %s", gm->id, w->error);
        for (viewer *c = gm->viewers; c; c = c->next)
            if (c->seat == w->seat)
                play_send_error(c, "internal", "the chat message could not be stored");
        return;
    }
    remember(gm, w->seat, w->name, w->decision, w->at, w->account_id, w->chat_n);
    w->decision = NULL; /* the ring owns the text now */
    const chat_msg *m = &gm->chat[(gm->chat_first + gm->nchat - 1) % CHAT_KEEP];
    json_t *j = message_json(m);
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (text) {
        msg *shared = msg_copy(text, strlen(text));
        for (viewer *c = gm->viewers; c && shared; c = c->next)
            if (!moderation_hides(c, m->account_id) && !c->closed)
                gm->svc->hooks.send(c->conn, shared);
        msg_unref(shared);
    }
    free(text);
    moderation_chat_stored(gm, m->account_id, w->chat_n, m->text);
}

/* {"type":"chat_history","messages":[...]}: the newest messages that fit
 * in CHAT_HISTORY_BYTES, oldest first. */
static msg *make_history(const game *gm, const viewer *c)
{
    static const char head[] = "{\"type\":\"chat_history\",\"messages\":[", tail[] = "]}";
    char *items[CHAT_KEEP];
    size_t lens[CHAT_KEEP], total = 0;
    int n = 0;
    for (int i = gm->nchat - 1; i >= 0; i--) {
        const chat_msg *cm = &gm->chat[(gm->chat_first + i) % CHAT_KEEP];
        if (c && moderation_hides(c, cm->account_id))
            continue;
        json_t *m = message_json(cm);
        json_object_del(m, "type");
        char *text = json_dumps(m, JSON_COMPACT);
        json_decref(m);
        size_t len = text ? strlen(text) : 0;
        if (!text || total + len + 1 > CHAT_HISTORY_BYTES) {
            free(text);
            break;
        }
        items[n] = text;
        lens[n++] = len;
        total += len + 1; /* and its comma */
    }
    msg *out = msg_new(sizeof head - 1 + (n ? total - 1 : 0) + sizeof tail - 1);
    if (out) {
        char *at = msg_text(out);
        memcpy(at, head, sizeof head - 1);
        at += sizeof head - 1;
        for (int i = n - 1; i >= 0; i--) {
            memcpy(at, items[i], lens[i]);
            at += lens[i];
            if (i)
                *at++ = ',';
        }
        memcpy(at, tail, sizeof tail - 1);
    }
    for (int i = 0; i < n; i++)
        free(items[i]);
    return out;
}

msg *chat_history_msg(game *gm)
{
    if (!gm->chat_history)
        gm->chat_history = make_history(gm, NULL);
    return gm->chat_history;
}

msg *chat_history_for(viewer *c)
{
    if (!c->nblocked) {
        msg *shared = chat_history_msg(c->gm);
        if (shared)
            msg_ref(shared);
        return shared;
    }
    return make_history(c->gm, c);
}

void chat_load(game *gm, stored_game *sg)
{
    for (int i = 0; i < sg->nchat; i++) {
        stored_chat *m = &sg->chat[i];
        remember(gm, m->seat, m->name, m->text, m->at,
                 m->seat >= 0 && m->seat < gm->g.players ? gm->seats[m->seat].account_id : 0, m->n);
        m->text = NULL;
    }
    gm->chat_next = sg->chat_next;
}

void chat_free(game *gm)
{
    history_changed(gm);
    free(gm->chat_addrs);
    gm->chat_addrs = NULL;
    gm->nchat_addrs = 0;
    for (int i = 0; i < gm->nchat; i++)
        free(gm->chat[(gm->chat_first + i) % CHAT_KEEP].text);
    gm->nchat = 0;
}
