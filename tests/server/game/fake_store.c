/*
 * fake_store.c - the store of the game service's unit tests, in memory (see
 * fake_store.h). Its rows are those of the real store's tables (store.c,
 * store_accounts.c), kept in arrays: games with their seats, decisions,
 * chat, analyses, accounts, sessions, ratings; a rated seat's before and
 * after live in its game. Everything here runs on the test's thread: the
 * service calls the store from its loop only.
 */
#include "fake_store.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int ply, seat;
    char *text;
    int64_t at;
} fake_decision;

typedef struct {
    int n, seat;
    char name[STORE_NAME_MAX + 1];
    char *text;
    int64_t at;
} fake_chat;

typedef struct {
    stored_game row; /* decisions and chat stay empty here */
    fake_decision *dec;
    int ndec;
    fake_chat *chat;
    int nchat;
    char *analysis[4];
} fake_game;

typedef struct {
    int64_t id;
    char name[STORE_NAME_MAX + 1], key[STORE_NAME_MAX + 1], skeleton[4 * STORE_NAME_MAX + 1];
    char hash[STORE_HASH_MAX];
    bool computer;
    int64_t seen_at;
    bool bot;
    char about[STORE_ABOUT_MAX + 1];
} fake_account;

typedef struct {
    stored_token t;
    char hash[65];
    char stream[40];
} fake_token;

typedef struct {
    char hash[65];
    int64_t account_id, expires;
} fake_session;

typedef struct {
    int64_t account_id;
    char variant[8];
    rt_rating r;
    int games;
} fake_rating;

struct store {
    fake_game *games;
    int ngames;
    fake_account *accounts;
    int naccounts;
    int64_t last_account_id;
    fake_session *sessions;
    int nsessions;
    fake_rating *ratings;
    int nratings;
    store_write *queue, *done;
    void (*notify)(void *);
    void *notify_arg;
    int fail_kind, fail_writes, fail_calls;
    char fail_why[128];
    char error[256];
    struct fake_budget {
        char key[160];
        double tokens;
        int64_t at;
    } * budgets;
    int nbudgets;
    char relay_key[128];
    struct fake_follow {
        int64_t account_id, follows_id;
    } * follows;
    int nfollows;
    stored_challenge *challenges;
    int nchallenges;
    stored_seek *seeks;
    int nseeks;
    fake_token *tokens;
    int ntokens;
};

/* Grows an array by one zeroed element; the test aborts out of memory. */
static void *grow(void *array, int n, size_t size)
{
    char *a = realloc(array, (size_t)(n + 1) * size);
    if (!a)
        abort();
    memset(a + (size_t)n * size, 0, size);
    return a;
}

static char *copy(const char *text)
{
    char *c = strdup(text ? text : "");
    if (!c)
        abort();
    return c;
}

static int fail(store *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(store *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
    return -1;
}

/* Whether a call that changes rows is to fail now (fake_store_fail_calls). */
static bool call_fails(store *s)
{
    if (s->fail_calls <= 0)
        return false;
    s->fail_calls--;
    fail(s, "%s", s->fail_why);
    return true;
}

static fake_game *find_game(const store *s, const char *id)
{
    for (int i = 0; i < s->ngames; i++)
        if (strcmp(s->games[i].row.id, id) == 0)
            return &s->games[i];
    return NULL;
}

static fake_account *find_account(const store *s, int64_t id)
{
    for (int i = 0; i < s->naccounts; i++)
        if (s->accounts[i].id == id)
            return &s->accounts[i];
    return NULL;
}

static fake_rating *find_rating(const store *s, int64_t account_id, const char *variant)
{
    for (int i = 0; i < s->nratings; i++)
        if (s->ratings[i].account_id == account_id && strcmp(s->ratings[i].variant, variant) == 0)
            return &s->ratings[i];
    return NULL;
}

/* --- the test's side --- */

store *fake_store_new(void)
{
    store *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    return s;
}

static void free_writes(store_write *w)
{
    while (w) {
        store_write *next = w->next;
        store_write_free(w);
        w = next;
    }
}

void fake_store_free(store *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->ngames; i++) {
        fake_game *g = &s->games[i];
        for (int k = 0; k < g->ndec; k++)
            free(g->dec[k].text);
        free(g->dec);
        for (int k = 0; k < g->nchat; k++)
            free(g->chat[k].text);
        free(g->chat);
        for (int k = 0; k < 4; k++)
            free(g->analysis[k]);
    }
    free(s->games);
    free(s->accounts);
    free(s->sessions);
    free(s->ratings);
    free(s->budgets);
    free(s->follows);
    free(s->challenges);
    free(s->seeks);
    free_writes(s->queue);
    free_writes(s->done);
    free(s);
}

void fake_store_fail_writes(store *s, int kind, int count, const char *why)
{
    s->fail_kind = kind;
    s->fail_writes = count;
    snprintf(s->fail_why, sizeof s->fail_why, "%s", why);
}

void fake_store_fail_calls(store *s, int count, const char *why)
{
    s->fail_calls = count;
    snprintf(s->fail_why, sizeof s->fail_why, "%s", why);
}

const stored_game *fake_store_game(const store *s, const char *id)
{
    const fake_game *g = find_game(s, id);
    return g ? &g->row : NULL;
}

int fake_store_ndecisions(const store *s, const char *id)
{
    const fake_game *g = find_game(s, id);
    return g ? g->ndec : 0;
}

const char *fake_store_decision(const store *s, const char *id, int ply)
{
    const fake_game *g = find_game(s, id);
    for (int k = 0; g && k < g->ndec; k++)
        if (g->dec[k].ply == ply)
            return g->dec[k].text;
    return NULL;
}

int fake_store_nchat(const store *s, const char *id)
{
    const fake_game *g = find_game(s, id);
    return g ? g->nchat : 0;
}

void fake_store_drop_decision(store *s, const char *id, int ply)
{
    fake_game *g = find_game(s, id);
    for (int k = 0; g && k < g->ndec; k++)
        if (g->dec[k].ply == ply) {
            free(g->dec[k].text);
            memmove(&g->dec[k], &g->dec[k + 1], (size_t)(g->ndec - k - 1) * sizeof *g->dec);
            g->ndec--;
            return;
        }
}

int fake_store_ids(const store *s, const char **ids, int max)
{
    int n = 0;
    for (int i = 0; i < s->ngames && n < max; i++)
        ids[n++] = s->games[i].row.id;
    return n;
}

int fake_store_queued(const store *s)
{
    int n = 0;
    for (const store_write *w = s->queue; w; w = w->next)
        n++;
    return n;
}

/* --- games --- */

const char *store_error(store *s) { return s->error; }

int store_create_game(store *s, const stored_game *g)
{
    if (call_fails(s))
        return -1;
    if (find_game(s, g->id))
        return fail(s, "storing a game: id %s is taken", g->id);
    s->games = grow(s->games, s->ngames, sizeof *s->games);
    fake_game *fg = &s->games[s->ngames++];
    fg->row = *g;
    fg->row.updated = g->created;
    fg->row.ndecisions = fg->row.nchat = fg->row.chat_next = 0;
    fg->row.decisions = NULL;
    fg->row.chat = NULL;
    for (int i = 0; i < 4; i++) { /* what the seats table does not hold */
        stored_seat *ss = &fg->row.seats[i];
        ss->place = 0;
        ss->has_rating = ss->rated = false;
    }
    return 0;
}

int store_waiting_by(store *s, const char *creator_addr, int *n)
{
    *n = 0;
    for (int i = 0; i < s->ngames; i++)
        *n += strcmp(s->games[i].row.creator_addr, creator_addr) == 0 &&
              strcmp(s->games[i].row.status, "waiting") == 0;
    return 0;
}

static void set_status(fake_game *g, const char *status)
{
    snprintf(g->row.status, sizeof g->row.status, "%s", status);
    g->row.updated = (int64_t)time(NULL);
}

int store_take_seat(store *s, const char *id, int seat, const char *name, const char *token_hash,
                    int64_t account_id, const char *status)
{
    if (call_fails(s))
        return -1;
    fake_game *g = find_game(s, id);
    if (!g || seat < 0 || seat >= g->row.players || g->row.seats[seat].token_hash[0])
        return fail(s, "seat %d of game %s is not free", seat, id);
    stored_seat *ss = &g->row.seats[seat];
    snprintf(ss->name, sizeof ss->name, "%s", name);
    snprintf(ss->token_hash, sizeof ss->token_hash, "%s", token_hash);
    ss->account_id = account_id;
    set_status(g, status);
    return 0;
}

int store_set_token(store *s, const char *id, int seat, const char *token_hash)
{
    if (call_fails(s))
        return -1;
    fake_game *g = find_game(s, id);
    if (!g || seat < 0 || seat >= g->row.players || !g->row.seats[seat].token_hash[0])
        return fail(s, "storing a seat token: game %s has no such row", id);
    snprintf(g->row.seats[seat].token_hash, sizeof g->row.seats[seat].token_hash, "%s", token_hash);
    return 0;
}

int store_set_status(store *s, const char *id, const char *status)
{
    if (call_fails(s))
        return -1;
    fake_game *g = find_game(s, id);
    if (!g)
        return fail(s, "no game %s", id);
    set_status(g, status);
    return 0;
}

int store_set_end(store *s, const char *id, const char *status, const char *end_summary)
{
    if (call_fails(s))
        return -1;
    fake_game *g = find_game(s, id);
    if (!g)
        return fail(s, "no game %s", id);
    set_status(g, status);
    snprintf(g->row.end_summary, sizeof g->row.end_summary, "%s", end_summary);
    return 0;
}

int store_set_rematch(store *s, const char *id, const char *rematch_id)
{
    if (call_fails(s))
        return -1;
    fake_game *g = find_game(s, id);
    if (!g || g->row.rematch[0])
        return fail(s, "storing a rematch: game %s has no such row", id);
    snprintf(g->row.rematch, sizeof g->row.rematch, "%s", rematch_id);
    return 0;
}

int store_set_damaged(store *s, const char *id, const char *why)
{
    if (call_fails(s))
        return -1;
    fake_game *g = find_game(s, id);
    if (!g)
        return fail(s, "no game %s", id);
    set_status(g, "damaged");
    snprintf(g->row.damage, sizeof g->row.damage, "%s", why);
    return 0;
}

/* --- the writer's writes --- */

/* A rated game's end (store_accounts.c's rate_game): the seats' ratings
 * as stored, the update, each account's new rating and the history. */
static int rate_game(store *s, fake_game *g, store_write *w)
{
    int n = w->rating_game.nseats;
    if (n < 2 || n > 4)
        return fail(s, "a rated game of %d seats", n);
    rt_params p = rt_default_params();
    for (int seat = 0; seat < n; seat++) {
        w->seat_account[seat] = g->row.seats[seat].account_id;
        w->seat_rated[seat] = w->seat_account[seat] > 0;
        const fake_rating *r = find_rating(s, w->seat_account[seat], w->variant);
        w->before[seat] = r ? r->r : rt_initial(&p);
    }
    rt_status rs = rt_update(&p, &w->rating_game, w->before, w->after);
    if (rs != RT_OK)
        return fail(s, "rating game %s: %s", w->game_id, rt_status_text(rs));
    for (int seat = 0; seat < n; seat++) {
        if (!w->seat_rated[seat])
            continue;
        fake_rating *r = find_rating(s, w->seat_account[seat], w->variant);
        if (!r) {
            s->ratings = grow(s->ratings, s->nratings, sizeof *s->ratings);
            r = &s->ratings[s->nratings++];
            r->account_id = w->seat_account[seat];
            snprintf(r->variant, sizeof r->variant, "%s", w->variant);
        }
        r->r = w->after[seat];
        r->games++;
        stored_seat *ss = &g->row.seats[seat];
        ss->rated = true;
        ss->before = w->before[seat];
        ss->after = w->after[seat];
    }
    return 0;
}

/* A decision (with its clocks, end and ratings) in one transaction: it
 * is checked whole before anything changes. */
static int add_decision(store *s, fake_game *g, store_write *w)
{
    for (int k = 0; k < g->ndec; k++)
        if (g->dec[k].ply == w->ply)
            return fail(s, "storing a decision: decision %d of game %s exists", w->ply, g->row.id);
    if (w->places[0]) {
        memset(w->seat_rated, 0, sizeof w->seat_rated);
        if (w->rated && rate_game(s, g, w))
            return -1;
        for (int seat = 0; seat < 4 && w->places[seat] > 0; seat++)
            g->row.seats[seat].place = w->places[seat];
    }
    int at = g->ndec;
    while (at > 0 && g->dec[at - 1].ply > w->ply) /* kept in ply order */
        at--;
    g->dec = grow(g->dec, g->ndec, sizeof *g->dec);
    memmove(&g->dec[at + 1], &g->dec[at], (size_t)(g->ndec - at) * sizeof *g->dec);
    g->dec[at] = (fake_decision){w->ply, w->seat, copy(w->decision), (int64_t)time(NULL)};
    g->ndec++;
    if (w->clock_left[0])
        snprintf(g->row.clock_left, sizeof g->row.clock_left, "%s", w->clock_left);
    if (w->end_summary[0])
        snprintf(g->row.end_summary, sizeof g->row.end_summary, "%s", w->end_summary);
    if (w->status)
        set_status(g, w->status);
    return 0;
}

static int add_chat(store *s, fake_game *g, const store_write *w)
{
    for (int k = 0; k < g->nchat; k++)
        if (g->chat[k].n == w->chat_n)
            return fail(s, "storing a chat message: message %d of game %s exists", w->chat_n,
                        g->row.id);
    g->chat = grow(g->chat, g->nchat, sizeof *g->chat);
    fake_chat *m = &g->chat[g->nchat++];
    m->n = w->chat_n;
    m->seat = w->seat;
    snprintf(m->name, sizeof m->name, "%s", w->name);
    m->text = copy(w->decision);
    m->at = w->at;
    return 0;
}

static int add_write(store *s, store_write *w)
{
    fake_game *g = find_game(s, w->game_id);
    if (!g)
        return fail(s, "game %s has no such row", w->game_id);
    if (s->fail_writes > 0 && s->fail_kind == w->kind) {
        s->fail_writes--;
        return fail(s, "%s", s->fail_why);
    }
    switch (w->kind) {
    case STORE_DECISION: return add_decision(s, g, w);
    case STORE_CLOCKS:
        if (w->clock_left[0])
            snprintf(g->row.clock_left, sizeof g->row.clock_left, "%s", w->clock_left);
        return 0;
    case STORE_CHAT: return add_chat(s, g, w);
    case STORE_ANALYSIS:
        if (w->seat < 0 || w->seat >= 4)
            return fail(s, "an analysis of seat %d", w->seat);
        free(g->analysis[w->seat]);
        g->analysis[w->seat] = copy(w->decision);
        return 0;
    case STORE_ENTRY: return 0; /* one server: nobody else lists its games */
    case STORE_TAKE_BACK: {
        int kept = 0;
        for (int k = 0; k < g->ndec; k++) {
            if (g->dec[k].ply >= w->ply)
                free(g->dec[k].text);
            else
                g->dec[kept++] = g->dec[k];
        }
        g->ndec = kept;
        return 0;
    }
    }
    return fail(s, "unknown kind of write %d", w->kind);
}

int fake_store_commit(store *s)
{
    int n = 0;
    store_write *tail = s->done;
    while (tail && tail->next)
        tail = tail->next;
    while (s->queue) {
        store_write *w = s->queue;
        s->queue = w->next;
        w->next = NULL;
        w->result = add_write(s, w);
        if (w->result)
            snprintf(w->error, sizeof w->error, "%s", s->error);
        if (tail)
            tail->next = w;
        else
            s->done = w;
        tail = w;
        n++;
    }
    if (n && s->notify)
        s->notify(s->notify_arg);
    return n;
}

int store_writer_start(store *s, void (*notify)(void *), void *arg)
{
    s->notify = notify;
    s->notify_arg = arg;
    return 0;
}

void store_writer_submit(store *s, store_write *w)
{
    w->next = NULL;
    store_write **end = &s->queue;
    while (*end)
        end = &(*end)->next;
    *end = w;
}

store_write *store_writer_done(store *s)
{
    store_write *done = s->done;
    s->done = NULL;
    return done;
}

void store_write_free(store_write *w)
{
    if (w) {
        free(w->decision);
        free(w->entry);
        free(w);
    }
}

/* Like the real writer: what is queued is committed, what is done freed. */
void store_writer_stop(store *s)
{
    void (*notify)(void *) = s->notify;
    s->notify = NULL;
    fake_store_commit(s);
    s->notify = notify;
    free_writes(store_writer_done(s));
}

/* --- reading --- */

int store_each_unfinished(store *s, int (*fn)(const char *id, void *arg), void *arg)
{
    /* ids first, then the callbacks, which may read and write the store */
    int n = 0;
    char(*ids)[24] = calloc((size_t)s->ngames + 1, sizeof *ids);
    if (!ids)
        abort();
    for (int i = 0; i < s->ngames; i++) {
        const char *status = s->games[i].row.status;
        if (strcmp(status, "waiting") == 0 || strcmp(status, "running") == 0)
            memcpy(ids[n++], s->games[i].row.id, sizeof ids[0]);
    }
    int result = 0;
    for (int i = 0; i < n && result == 0; i++)
        if (fn(ids[i], arg) != 0)
            result = -1;
    free(ids);
    return result;
}

/* The game's row and seats, with each bound account's rating. */
static void load_row(const store *s, const fake_game *g, stored_game *out)
{
    *out = g->row;
    out->decisions = NULL;
    out->chat = NULL;
    out->ndecisions = out->nchat = out->chat_next = 0;
    for (int i = 0; i < out->players; i++) {
        stored_seat *ss = &out->seats[i];
        const fake_rating *r = ss->account_id ? find_rating(s, ss->account_id, out->variant) : NULL;
        ss->has_rating = r != NULL;
        if (r)
            ss->rating = r->r;
        const fake_account *a = ss->account_id ? find_account(s, ss->account_id) : NULL;
        ss->bot = a && a->bot; /* as the store's join says */
    }
}

static int load(store *s, const char *id, stored_game *out, bool with_history)
{
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", id);
    const fake_game *g = find_game(s, id);
    if (!g)
        return 1;
    load_row(s, g, out);
    if (!with_history)
        return 0;
    out->decisions = calloc((size_t)g->ndec + 1, sizeof *out->decisions);
    out->chat = calloc(STORE_CHAT_KEEP, sizeof *out->chat);
    if (!out->decisions || !out->chat)
        abort();
    for (int k = 0; k < g->ndec; k++) {
        if (g->dec[k].ply != k) { /* the decisions do not follow on: damaged */
            fail(s, "decision %d is missing", k);
            stored_game_free(out);
            return 2;
        }
        out->decisions[out->ndecisions++] = copy(g->dec[k].text);
    }
    int first = g->nchat > STORE_CHAT_KEEP ? g->nchat - STORE_CHAT_KEEP : 0;
    for (int k = first; k < g->nchat; k++) { /* stored in order of n */
        stored_chat *m = &out->chat[out->nchat++];
        m->seat = g->chat[k].seat;
        snprintf(m->name, sizeof m->name, "%s", g->chat[k].name);
        m->text = copy(g->chat[k].text);
        m->at = g->chat[k].at;
        out->chat_next = g->chat[k].n + 1;
    }
    return 0;
}

int store_load(store *s, const char *id, stored_game *out) { return load(s, id, out, true); }

int store_load_summary(store *s, const char *id, stored_game *out)
{
    return load(s, id, out, false);
}

int store_each_listed(store *s, const char *const *ids, int n,
                      int (*fn)(const stored_game *g, const char *entry, void *arg), void *arg)
{
    for (int i = 0; i < n && i < STORE_LIST_MAX; i++) {
        stored_game g;
        if (load(s, ids[i], &g, false) != 0)
            continue;
        int stop = fn(&g, NULL, arg);
        stored_game_free(&g);
        if (stop)
            break;
    }
    return 0;
}

int store_each_decision(store *s, const char *id,
                        int (*fn)(int ply, int seat, const char *decision, int64_t at, void *arg),
                        void *arg)
{
    const fake_game *g = find_game(s, id);
    for (int k = 0; g && k < g->ndec; k++)
        if (fn(g->dec[k].ply, g->dec[k].seat, g->dec[k].text, g->dec[k].at, arg))
            return fail(s, "reading decisions: stopped");
    return 0;
}

int store_each_finished(store *s, int max, int (*fn)(const stored_game *g, void *arg), void *arg)
{
    /* newest first: by updated, then the later stored */
    int n = 0;
    const fake_game **list = calloc((size_t)s->ngames + 1, sizeof *list);
    if (!list)
        abort();
    for (int i = s->ngames - 1; i >= 0; i--)
        if (strcmp(s->games[i].row.status, "over") == 0)
            list[n++] = &s->games[i];
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && list[k]->row.updated > list[k - 1]->row.updated; k--) {
            const fake_game *t = list[k];
            list[k] = list[k - 1];
            list[k - 1] = t;
        }
    stored_game g;
    for (int i = 0; i < n && i < max; i++) {
        load_row(s, list[i], &g);
        if (fn(&g, arg))
            break;
    }
    free(list);
    return 0;
}

void stored_game_free(stored_game *g)
{
    for (int i = 0; i < g->ndecisions; i++)
        free(g->decisions[i]);
    free(g->decisions);
    g->decisions = NULL;
    g->ndecisions = 0;
    for (int i = 0; i < g->nchat; i++)
        free(g->chat[i].text);
    free(g->chat);
    g->chat = NULL;
    g->nchat = 0;
}

int store_get_analysis(store *s, const char *id, int seat, char **text)
{
    *text = NULL;
    const fake_game *g = find_game(s, id);
    if (!g || seat < 0 || seat >= 4 || !g->analysis[seat])
        return 1;
    *text = copy(g->analysis[seat]);
    return 0;
}

/* --- accounts, sessions, ratings --- */

static fake_account *account_by_key(const store *s, const char *key)
{
    for (int i = 0; i < s->naccounts; i++)
        if (strcmp(s->accounts[i].key, key) == 0)
            return &s->accounts[i];
    return NULL;
}

static void account_out(const fake_account *a, stored_account *out)
{
    memset(out, 0, sizeof *out);
    out->id = a->id;
    snprintf(out->name, sizeof out->name, "%s", a->name);
    out->computer = a->computer;
    snprintf(out->password_hash, sizeof out->password_hash, "%s", a->hash);
    out->bot = a->bot;
    snprintf(out->bot_about, sizeof out->bot_about, "%s", a->about);
}

static fake_account *add_account(store *s, const char *name, const char *key)
{
    s->accounts = grow(s->accounts, s->naccounts, sizeof *s->accounts);
    fake_account *a = &s->accounts[s->naccounts++];
    a->id = ++s->last_account_id;
    snprintf(a->name, sizeof a->name, "%s", name);
    snprintf(a->key, sizeof a->key, "%s", key);
    return a;
}

int store_account_create(store *s, const char *name, const char *key, const char *skeleton,
                         const char *password_hash, int64_t created, int64_t *id)
{
    (void)created;
    if (call_fails(s))
        return -1;
    if (account_by_key(s, key))
        return 1;
    fake_account *a = add_account(s, name, key);
    snprintf(a->skeleton, sizeof a->skeleton, "%s", skeleton);
    snprintf(a->hash, sizeof a->hash, "%s", password_hash);
    *id = a->id;
    return 0;
}

int store_computer_ensure(store *s, const char *name, const char *key, int64_t created)
{
    (void)created;
    if (call_fails(s))
        return -1;
    if (!account_by_key(s, key))
        add_account(s, name, key)->computer = true;
    return 0;
}

int store_account_by_key(store *s, const char *key, stored_account *out)
{
    const fake_account *a = account_by_key(s, key);
    if (!a)
        return 1;
    account_out(a, out);
    return 0;
}

int store_account_by_skeleton(store *s, const char *skeleton, stored_account *out)
{
    for (int i = 0; i < s->naccounts; i++)
        if (strcmp(s->accounts[i].skeleton, skeleton) == 0) {
            account_out(&s->accounts[i], out);
            return 0;
        }
    return 1;
}

int store_fill_skeletons(store *s, int (*skeleton)(const char *key, char *out, size_t size),
                         void (*clash)(void *arg, const char *name, const char *other), void *arg)
{
    int changed = 0;
    for (int i = 0; i < s->naccounts; i++) {
        fake_account *a = &s->accounts[i];
        char now[sizeof a->skeleton];
        if (skeleton(a->key, now, sizeof now))
            continue;
        if (strcmp(now, a->skeleton) != 0) {
            strcpy(a->skeleton, now);
            changed++;
            for (int j = 0; j < s->naccounts && clash; j++)
                if (j != i && strcmp(s->accounts[j].skeleton, now) == 0) {
                    clash(arg, a->name, s->accounts[j].name);
                    break;
                }
        }
    }
    return changed;
}

int store_account_by_id(store *s, int64_t id, stored_account *out)
{
    const fake_account *a = find_account(s, id);
    if (!a)
        return 1;
    account_out(a, out);
    return 0;
}

/* Forgets the sessions of an account but keep (a token hash, or NULL). */
static void delete_sessions(store *s, int64_t account_id, const char *keep)
{
    int n = 0;
    for (int i = 0; i < s->nsessions; i++)
        if (s->sessions[i].account_id != account_id ||
            (keep && strcmp(s->sessions[i].hash, keep) == 0))
            s->sessions[n++] = s->sessions[i];
    s->nsessions = n;
}

int store_account_set_password(store *s, int64_t id, const char *password_hash,
                               const char *keep_session)
{
    if (call_fails(s))
        return -1;
    fake_account *a = find_account(s, id);
    if (!a || a->computer)
        return fail(s, "no account %lld", (long long)id);
    snprintf(a->hash, sizeof a->hash, "%s", password_hash);
    delete_sessions(s, id, keep_session);
    return 0;
}

int store_account_delete(store *s, int64_t id)
{
    if (call_fails(s))
        return -1;
    fake_account *a = find_account(s, id);
    if (!a || a->computer)
        return fail(s, "no account %lld", (long long)id);
    delete_sessions(s, id, NULL);
    int n = 0;
    for (int i = 0; i < s->ntokens; i++)
        if (s->tokens[i].t.account_id != id)
            s->tokens[n++] = s->tokens[i];
    s->ntokens = n;
    n = 0;
    for (int i = 0; i < s->nratings; i++)
        if (s->ratings[i].account_id != id)
            s->ratings[n++] = s->ratings[i];
    s->nratings = n;
    for (int i = 0; i < s->ngames; i++)
        for (int k = 0; k < 4; k++) {
            stored_seat *ss = &s->games[i].row.seats[k];
            if (ss->account_id != id)
                continue;
            snprintf(ss->name, sizeof ss->name, "%s", STORE_NEUTRAL_NAME);
            ss->account_id = 0;
            ss->rated = false; /* its rating history goes too */
        }
    *a = s->accounts[--s->naccounts];
    return 0;
}

int store_session_create(store *s, const char *token_hash, int64_t account_id, int64_t created,
                         int64_t expires)
{
    (void)created;
    if (call_fails(s))
        return -1;
    for (int i = 0; i < s->nsessions; i++)
        if (strcmp(s->sessions[i].hash, token_hash) == 0)
            return fail(s, "storing a session: it exists");
    if (!find_account(s, account_id))
        return fail(s, "storing a session: no account %lld", (long long)account_id);
    s->sessions = grow(s->sessions, s->nsessions, sizeof *s->sessions);
    fake_session *e = &s->sessions[s->nsessions++];
    snprintf(e->hash, sizeof e->hash, "%s", token_hash);
    e->account_id = account_id;
    e->expires = expires;
    return 0;
}

/* Sessions are kept in the order created: the oldest come first. */
int store_sessions_cap(store *s, int64_t account_id, const char *keep, int max)
{
    int count = 0;
    for (int i = 0; i < s->nsessions; i++)
        count += s->sessions[i].account_id == account_id;
    int kept = 0;
    for (int i = 0; i < s->nsessions; i++) {
        fake_session *e = &s->sessions[i];
        if (e->account_id == account_id && strcmp(e->hash, keep) != 0 && count > max) {
            count--;
            continue;
        }
        s->sessions[kept++] = *e;
    }
    s->nsessions = kept;
    return 0;
}

int store_session_account(store *s, const char *token_hash, int64_t now, stored_account *out)
{
    for (int i = 0; i < s->nsessions; i++) {
        const fake_session *e = &s->sessions[i];
        const fake_account *a = find_account(s, e->account_id);
        if (strcmp(e->hash, token_hash) == 0 && e->expires > now && a) {
            account_out(a, out);
            return 0;
        }
    }
    return 1;
}

int store_session_delete(store *s, const char *token_hash)
{
    if (call_fails(s))
        return -1;
    int n = 0;
    for (int i = 0; i < s->nsessions; i++)
        if (strcmp(s->sessions[i].hash, token_hash) != 0)
            s->sessions[n++] = s->sessions[i];
    s->nsessions = n;
    return 0;
}

int store_sessions_prune(store *s, int64_t now)
{
    int n = 0;
    for (int i = 0; i < s->nsessions; i++)
        if (s->sessions[i].expires > now)
            s->sessions[n++] = s->sessions[i];
    s->nsessions = n;
    return 0;
}

int store_rating(store *s, int64_t account_id, const char *variant, rt_rating *out, int *games)
{
    rt_params p = rt_default_params();
    const fake_rating *r = find_rating(s, account_id, variant);
    *out = r ? r->r : rt_initial(&p);
    *games = r ? r->games : 0;
    return 0;
}

int store_player_games(store *s, int64_t account_id, int max,
                       int (*fn)(const stored_player_game *g, void *arg), void *arg)
{
    int n = 0;
    for (int i = s->ngames - 1; i >= 0 && n < max; i--) {
        const stored_game *row = &s->games[i].row;
        if (strcmp(row->status, "over") != 0)
            continue;
        for (int k = 0; k < row->players && n < max; k++) {
            const stored_seat *ss = &row->seats[k];
            if (ss->account_id != account_id)
                continue;
            stored_player_game pg;
            memset(&pg, 0, sizeof pg);
            snprintf(pg.id, sizeof pg.id, "%s", row->id);
            snprintf(pg.variant, sizeof pg.variant, "%s", row->variant);
            snprintf(pg.mode, sizeof pg.mode, "%s", row->mode);
            pg.players = row->players;
            pg.rated = row->rated;
            pg.place = ss->place;
            pg.ended = row->updated;
            pg.has_change = ss->rated;
            pg.before = ss->before;
            pg.after = ss->after;
            n++;
            if (fn(&pg, arg))
                return 0;
        }
    }
    return 0;
}

int store_each_rated(store *s, const char *variant, int (*fn)(const stored_ranked *p, void *arg),
                     void *arg)
{
    for (int i = 0; i < s->nratings; i++) {
        const fake_rating *r = &s->ratings[i];
        const fake_account *a = find_account(s, r->account_id);
        if (strcmp(r->variant, variant) != 0 || r->games <= 0 || !a)
            continue;
        stored_ranked p;
        memset(&p, 0, sizeof p);
        snprintf(p.name, sizeof p.name, "%s", a->name);
        p.computer = a->computer;
        p.bot = a->bot;
        p.rating = r->r;
        p.games = r->games;
        if (fn(&p, arg))
            break;
    }
    return 0;
}

/* --- the servers of one site: this store has one server, which is never
 * told to share (store_shared), so the service holds no leases; the calls
 * answer as the real store does for a database nobody else uses. --- */

bool store_shared(const store *s)
{
    (void)s;
    return false;
}

int store_lease_take(store *s, const char *game_id, const char *instance, int64_t now_ms,
                     int64_t until_ms, char holder[STORE_INSTANCE_LEN + 1])
{
    (void)s, (void)game_id, (void)instance, (void)now_ms, (void)until_ms;
    if (holder)
        holder[0] = 0;
    return 0;
}

int store_leases_renew(store *s, const char *instance, int64_t now_ms, int64_t until_ms,
                       int64_t *held)
{
    (void)s, (void)instance, (void)now_ms, (void)until_ms;
    *held = 0;
    return 0;
}

int store_each_lease(store *s, const char *instance, int (*fn)(const char *id, void *arg),
                     void *arg)
{
    (void)s, (void)instance, (void)fn, (void)arg;
    return 0;
}

int store_lease_release(store *s, const char *game_id, const char *instance, int64_t until_ms)
{
    (void)s, (void)game_id, (void)instance, (void)until_ms;
    return 0;
}

int store_leases_release_all(store *s, const char *instance, int64_t until_ms)
{
    (void)s, (void)instance, (void)until_ms;
    return 0;
}

int store_each_orphan(store *s, int64_t now_ms, int max, int (*fn)(const char *id, void *arg),
                      void *arg)
{
    (void)s, (void)now_ms, (void)max, (void)fn, (void)arg;
    return 0;
}

int store_instances_alive(store *s, int64_t since_ms, int *n)
{
    (void)s, (void)since_ms;
    *n = 1;
    return 0;
}

int store_instance_register(store *s, const char *instance, const char *address, int64_t now_ms)
{
    (void)s, (void)instance, (void)address, (void)now_ms;
    return 0;
}

int store_instance_address(store *s, const char *instance, char *out, size_t size)
{
    (void)s, (void)instance, (void)size;
    out[0] = 0;
    return 1;
}

int store_each_peer(store *s, int64_t since_ms,
                    int (*fn)(const char *instance, const char *address, void *arg), void *arg)
{
    (void)s, (void)since_ms, (void)fn, (void)arg;
    return 0;
}

int store_site_secret(store *s, const char *name, const char *fresh, char *out, size_t size)
{
    (void)name;
    if (!s->relay_key[0])
        snprintf(s->relay_key, sizeof s->relay_key, "%s", fresh);
    snprintf(out, size, "%s", s->relay_key);
    return 0;
}

/* The real store's budgets, in memory. */
int store_budget_take(store *s, const char *key, int max, int64_t window_ms, int cost,
                      int64_t now_ms, int64_t *retry_ms)
{
    struct fake_budget *b = NULL;
    if (retry_ms)
        *retry_ms = 0;
    for (int i = 0; i < s->nbudgets; i++)
        if (strcmp(s->budgets[i].key, key) == 0)
            b = &s->budgets[i];
    if (!b) {
        s->budgets = grow(s->budgets, s->nbudgets, sizeof *s->budgets);
        b = &s->budgets[s->nbudgets++];
        snprintf(b->key, sizeof b->key, "%s", key);
        b->tokens = 0;
        b->at = now_ms;
    }
    bool fresh = b->at + window_ms <= now_ms;
    double used = fresh ? 0 : b->tokens;
    if (used + cost > max) {
        if (retry_ms)
            *retry_ms = b->at + window_ms - now_ms;
        return 0;
    }
    if (fresh) {
        b->at = now_ms;
        b->tokens = cost < 0 ? 0 : cost;
    } else {
        b->tokens += cost;
    }
    if (retry_ms && b->tokens >= max)
        *retry_ms = b->at + window_ms - now_ms;
    return 1;
}

int store_budgets_prune(store *s, int64_t before_ms)
{
    int kept = 0;
    for (int i = 0; i < s->nbudgets; i++)
        if (s->budgets[i].at >= before_ms)
            s->budgets[kept++] = s->budgets[i];
    s->nbudgets = kept;
    return 0;
}

int store_each_entry(store *s, const char *instance,
                     int (*fn)(const char *id, int64_t created, int people, const char *entry,
                               void *arg),
                     void *arg)
{
    (void)s, (void)instance, (void)fn, (void)arg;
    return 0;
}

int store_get_entry(store *s, const char *id, char **entry)
{
    (void)s, (void)id;
    *entry = NULL;
    return 1;
}

int store_notify(store *s, const char *text)
{
    (void)s, (void)text;
    return 0;
}

int store_listen_start(store *s, void (*notify)(void *), void *arg)
{
    (void)s, (void)notify, (void)arg;
    return 0;
}

store_message *store_messages(store *s)
{
    (void)s;
    return NULL;
}

void store_messages_free(store_message *m)
{
    while (m) {
        store_message *next = m->next;
        free(m);
        m = next;
    }
}

/* --- people and how they meet: the real store's rules, in memory --- */

int store_account_seen(store *s, int64_t account_id, int64_t now_ms)
{
    fake_account *a = find_account(s, account_id);
    if (a)
        a->seen_at = now_ms;
    return 0;
}

int store_follow(store *s, int64_t account_id, int64_t follows_id, int64_t at)
{
    (void)at;
    for (int i = 0; i < s->nfollows; i++)
        if (s->follows[i].account_id == account_id && s->follows[i].follows_id == follows_id)
            return 1;
    s->follows = grow(s->follows, s->nfollows, sizeof *s->follows);
    s->follows[s->nfollows++] = (struct fake_follow){account_id, follows_id};
    return 0;
}

int store_unfollow(store *s, int64_t account_id, int64_t follows_id)
{
    for (int i = 0; i < s->nfollows; i++)
        if (s->follows[i].account_id == account_id && s->follows[i].follows_id == follows_id) {
            s->follows[i] = s->follows[--s->nfollows];
            return 0;
        }
    return 1;
}

static stored_person person_of(const fake_account *a)
{
    stored_person p = {.id = a->id, .computer = a->computer, .bot = a->bot, .seen_at = a->seen_at};
    snprintf(p.name, sizeof p.name, "%s", a->name);
    return p;
}

int store_each_followed(store *s, int64_t account_id, int (*fn)(const stored_person *p, void *arg),
                        void *arg)
{
    for (int i = 0; i < s->nfollows; i++) {
        fake_account *a = s->follows[i].account_id == account_id
                              ? find_account(s, s->follows[i].follows_id)
                              : NULL;
        stored_person p;
        if (a && (p = person_of(a), fn(&p, arg)))
            break;
    }
    return 0;
}

int store_search_players(store *s, const char *key_prefix, int max,
                         int (*fn)(const stored_person *p, void *arg), void *arg)
{
    int n = 0;
    for (int i = 0; i < s->naccounts && n < max; i++)
        if (strncmp(s->accounts[i].key, key_prefix, strlen(key_prefix)) == 0) {
            stored_person p = person_of(&s->accounts[i]);
            n++;
            if (fn(&p, arg))
                break;
        }
    return 0;
}

int store_each_open_game_of(store *s, int64_t account_id, int max,
                            int (*fn)(const char *id, int seat, void *arg), void *arg)
{
    int n = 0;
    for (int i = s->ngames - 1; i >= 0 && n < max; i--) {
        const stored_game *g = &s->games[i].row;
        if (strcmp(g->status, "waiting") && strcmp(g->status, "running"))
            continue;
        for (int k = 0; k < g->players && n < max; k++)
            if (g->seats[k].account_id == account_id) {
                n++;
                if (fn(g->id, k, arg))
                    return 0;
            }
    }
    return 0;
}

static stored_challenge *find_challenge(store *s, const char *id)
{
    for (int i = 0; i < s->nchallenges; i++)
        if (strcmp(s->challenges[i].id, id) == 0)
            return &s->challenges[i];
    return NULL;
}

int store_challenge_create(store *s, const stored_challenge *c)
{
    s->challenges = grow(s->challenges, s->nchallenges, sizeof *s->challenges);
    stored_challenge *n = &s->challenges[s->nchallenges++];
    *n = *c;
    snprintf(n->status, sizeof n->status, "open");
    return 0;
}

static void challenge_names(store *s, stored_challenge *c)
{
    fake_account *from = find_account(s, c->from_id), *to = find_account(s, c->to_id);
    snprintf(c->from_name, sizeof c->from_name, "%s", from ? from->name : "");
    snprintf(c->to_name, sizeof c->to_name, "%s", to ? to->name : "");
}

int store_challenge_get(store *s, const char *id, stored_challenge *out)
{
    stored_challenge *c = find_challenge(s, id);
    if (!c)
        return 1;
    *out = *c;
    challenge_names(s, out);
    return 0;
}

int store_challenge_settle(store *s, const char *id, const char *from_status, const char *status,
                           const char *game_id, const char *reason)
{
    stored_challenge *c = find_challenge(s, id);
    if (!c || strcmp(c->status, from_status) != 0)
        return 1;
    snprintf(c->status, sizeof c->status, "%s", status);
    snprintf(c->game_id, sizeof c->game_id, "%s", game_id ? game_id : "");
    snprintf(c->reason, sizeof c->reason, "%s", reason ? reason : "");
    return 0;
}

int store_each_challenge(store *s, int64_t account_id, int64_t now_ms, int64_t settled_since_ms,
                         int (*fn)(const stored_challenge *c, void *arg), void *arg)
{
    for (int i = s->nchallenges - 1; i >= 0; i--) {
        stored_challenge *c = &s->challenges[i];
        if (strcmp(c->status, "open") == 0 && c->expires < now_ms)
            snprintf(c->status, sizeof c->status, "expired");
        if ((c->from_id != account_id && c->to_id != account_id) ||
            (strcmp(c->status, "open") != 0 && c->created < settled_since_ms))
            continue;
        stored_challenge copy = *c;
        challenge_names(s, &copy);
        if (fn(&copy, arg))
            break;
    }
    return 0;
}

static stored_seek *find_seek(store *s, const char *id)
{
    for (int i = 0; id && i < s->nseeks; i++)
        if (strcmp(s->seeks[i].id, id) == 0)
            return &s->seeks[i];
    return NULL;
}

int store_seek_create(store *s, const stored_seek *k)
{
    s->seeks = grow(s->seeks, s->nseeks, sizeof *s->seeks);
    stored_seek *n = &s->seeks[s->nseeks++];
    *n = *k;
    n->polled = k->created;
    n->seat = -1;
    snprintf(n->status, sizeof n->status, "open");
    return 0;
}

int store_seek_get(store *s, const char *id, stored_seek *out)
{
    stored_seek *k = find_seek(s, id);
    if (!k)
        return 1;
    *out = *k;
    fake_account *a = find_account(s, k->account_id);
    snprintf(out->name, sizeof out->name, "%s", a ? a->name : "");
    return 0;
}

int store_seek_poll(store *s, const char *id, int64_t now_ms)
{
    stored_seek *k = find_seek(s, id);
    if (k)
        k->polled = now_ms;
    return 0;
}

int store_seek_partner(store *s, const stored_seek *k, int window, int64_t alive_since_ms,
                       stored_seek *out)
{
    for (int i = 0; i < s->nseeks; i++) {
        const stored_seek *o = &s->seeks[i];
        if (strcmp(o->status, "open") == 0 && strcmp(o->id, k->id) != 0 &&
            o->account_id != k->account_id && strcmp(o->variant, k->variant) == 0 &&
            o->rated == k->rated && strcmp(o->clock, k->clock) == 0 &&
            o->rating >= k->rating - window && o->rating <= k->rating + window &&
            o->polled >= alive_since_ms)
            return store_seek_get(s, o->id, out);
    }
    return 1;
}

int store_seek_match(store *s, const char *a, int seat_a, const char *b, int seat_b,
                     const char *game_id)
{
    stored_seek *ka = find_seek(s, a), *kb = b ? find_seek(s, b) : NULL;
    if (!ka || strcmp(ka->status, "open") != 0 || (b && (!kb || strcmp(kb->status, "open") != 0)))
        return 1;
    stored_seek *both[2] = {ka, kb};
    int seats[2] = {seat_a, seat_b};
    for (int i = 0; i < 2; i++)
        if (both[i]) {
            snprintf(both[i]->status, sizeof both[i]->status, "matched");
            snprintf(both[i]->game_id, sizeof both[i]->game_id, "%s", game_id);
            both[i]->seat = seats[i];
        }
    return 0;
}

int store_seek_cancel(store *s, const char *id)
{
    stored_seek *k = find_seek(s, id);
    if (!k || strcmp(k->status, "open") != 0)
        return 1;
    snprintf(k->status, sizeof k->status, "cancelled");
    return 0;
}

int store_social_prune(store *s, int64_t seeks_before_ms, int64_t challenges_before_ms)
{
    (void)s, (void)seeks_before_ms, (void)challenges_before_ms;
    return 0;
}

/* --- bots and their tokens (store_bots.c) --- */

int store_account_make_bot(store *s, int64_t account_id, const char *about)
{
    if (call_fails(s))
        return -1;
    fake_account *a = find_account(s, account_id);
    if (!a || a->bot || a->computer)
        return 1;
    for (int i = 0; i < s->ngames; i++) /* a rated game's seat: its rating history */
        for (int k = 0; k < 4; k++)
            if (s->games[i].row.seats[k].account_id == account_id && s->games[i].row.seats[k].rated)
                return 1;
    a->bot = true;
    snprintf(a->about, sizeof a->about, "%s", about);
    return 0;
}

int store_token_create(store *s, const stored_token *t, const char *hash)
{
    if (call_fails(s))
        return -1;
    for (int i = 0; i < s->ntokens; i++)
        if (strcmp(s->tokens[i].t.id, t->id) == 0 || strcmp(s->tokens[i].hash, hash) == 0)
            return fail(s, "storing a token: not unique");
    s->tokens = grow(s->tokens, s->ntokens, sizeof *s->tokens);
    fake_token *f = &s->tokens[s->ntokens++];
    f->t = *t;
    snprintf(f->hash, sizeof f->hash, "%s", hash);
    return 0;
}

int store_token_account(store *s, const char *hash, int64_t now_ms, stored_token *token,
                        stored_account *account)
{
    if (call_fails(s))
        return -1;
    for (int i = 0; i < s->ntokens; i++) {
        fake_token *f = &s->tokens[i];
        const fake_account *a = find_account(s, f->t.account_id);
        if (strcmp(f->hash, hash) != 0 || !a)
            continue;
        if (!f->t.used || f->t.used < now_ms - 60000)
            f->t.used = now_ms;
        *token = f->t;
        account_out(a, account);
        return 0;
    }
    return 1;
}

int store_each_token(store *s, int64_t account_id, int (*fn)(const stored_token *t, void *arg),
                     void *arg)
{
    if (call_fails(s))
        return -1;
    for (int i = s->ntokens - 1; i >= 0; i--)
        if (s->tokens[i].t.account_id == account_id && fn(&s->tokens[i].t, arg))
            break;
    return 0;
}

int store_token_delete(store *s, int64_t account_id, const char *id)
{
    if (call_fails(s))
        return -1;
    for (int i = 0; i < s->ntokens; i++)
        if (s->tokens[i].t.account_id == account_id && strcmp(s->tokens[i].t.id, id) == 0) {
            s->tokens[i] = s->tokens[--s->ntokens];
            return 0;
        }
    return 1;
}

static fake_token *token_by_id(store *s, const char *id)
{
    for (int i = 0; i < s->ntokens; i++)
        if (strcmp(s->tokens[i].t.id, id) == 0)
            return &s->tokens[i];
    return NULL;
}

int store_token_stream_set(store *s, const char *token_id, const char *stream)
{
    if (call_fails(s))
        return -1;
    fake_token *f = token_by_id(s, token_id);
    if (f)
        snprintf(f->stream, sizeof f->stream, "%s", stream);
    return 0;
}

int store_token_stream(store *s, const char *token_id, const char *stream)
{
    if (call_fails(s))
        return -1;
    fake_token *f = token_by_id(s, token_id);
    return f && strcmp(f->stream, stream) == 0 ? 0 : 1;
}

int store_each_bot(store *s, int max, int (*fn)(const stored_bot *b, void *arg), void *arg)
{
    if (call_fails(s))
        return -1;
    for (int i = 0, n = 0; i < s->naccounts && n < max; i++) {
        const fake_account *a = &s->accounts[i];
        if (!a->bot)
            continue;
        stored_bot b = {.id = a->id, .seen_at = a->seen_at};
        snprintf(b.name, sizeof b.name, "%s", a->name);
        snprintf(b.about, sizeof b.about, "%s", a->about);
        n++;
        if (fn(&b, arg))
            break;
    }
    return 0;
}

int store_each_game_of(store *s, int64_t account_id, int max,
                       int (*fn)(const stored_game_of *g, void *arg), void *arg)
{
    if (call_fails(s))
        return -1;
    int n = 0;
    for (int i = s->ngames - 1; i >= 0 && n < max; i--) {
        const stored_game *g = &s->games[i].row;
        if (strcmp(g->status, "waiting") && strcmp(g->status, "running"))
            continue;
        for (int k = 0; k < g->players && n < max; k++) {
            if (g->seats[k].account_id != account_id)
                continue;
            stored_game_of o = {.seat = k, .players = g->players, .rated = g->rated};
            snprintf(o.id, sizeof o.id, "%s", g->id);
            snprintf(o.status, sizeof o.status, "%s", g->status);
            snprintf(o.variant, sizeof o.variant, "%s", g->variant);
            snprintf(o.mode, sizeof o.mode, "%s", g->mode);
            snprintf(o.clock, sizeof o.clock, "%s", g->clock);
            n++;
            if (fn(&o, arg))
                return 0;
        }
    }
    return 0;
}

/* --- events (store_events.c): the fake store holds none; events are
 * tested against the real store (tests/server/test_events.py) --- */

static int no_events(store *s)
{
    (void)s;
    return -1;
}

int store_event_create(store *s, const stored_event *e) { return (void)e, no_events(s); }
int store_event_get(store *s, const char *id, stored_event *out)
{
    (void)s, (void)id, (void)out;
    return 1;
}
int store_each_event(store *s, const char *status, int max,
                     int (*fn)(const stored_event *e, void *arg), void *arg)
{
    (void)status, (void)max, (void)fn, (void)arg;
    return (void)s, 0;
}
int store_events_organised(store *s, int64_t account_id, const char *creator_addr, int64_t since_ms,
                           int *organised, int *by_addr)
{
    (void)account_id, (void)creator_addr, (void)since_ms;
    *organised = *by_addr = 0;
    return (void)s, 0;
}
int store_each_event_of(store *s, int64_t account_id, int (*fn)(const stored_event *e, void *arg),
                        void *arg)
{
    (void)account_id, (void)fn, (void)arg;
    return (void)s, 0;
}
int store_event_join(store *s, const char *id, int64_t account_id, int64_t now_ms,
                     bool allow_running, int max_players)
{
    (void)id, (void)account_id, (void)now_ms, (void)allow_running, (void)max_players;
    return no_events(s);
}
int store_event_withdraw(store *s, const char *id, int64_t account_id)
{
    (void)id, (void)account_id;
    return no_events(s);
}
int store_event_set_status(store *s, const stored_event *e, const char *from_status)
{
    (void)e, (void)from_status;
    return no_events(s);
}
int store_event_entrants(store *s, const char *id, stored_entrant **list, int *n)
{
    (void)id;
    *list = NULL;
    *n = 0;
    return no_events(s);
}
int store_event_tables(store *s, const char *id, stored_event_table **list, int *n)
{
    (void)id;
    *list = NULL;
    *n = 0;
    return no_events(s);
}
int store_event_tables_ended(store *s, const char *id, stored_event_table **list, int *n)
{
    return store_event_tables(s, id, list, n);
}
int store_event_lease(store *s, const char *id, const char *instance, int64_t now_ms,
                      int64_t until_ms)
{
    (void)id, (void)instance, (void)now_ms, (void)until_ms;
    return no_events(s);
}
int store_event_add_tables(store *s, const stored_event *e, const char *instance,
                           const stored_event_table *tables, int n)
{
    (void)e, (void)instance, (void)tables, (void)n;
    return no_events(s);
}
int store_event_end_table(store *s, const char *id, const char *instance,
                          const stored_event_table *t, const int64_t *missed, int n_missed,
                          int max_misses)
{
    (void)id, (void)instance, (void)t, (void)missed, (void)n_missed, (void)max_misses;
    return no_events(s);
}
int store_event_of_game(store *s, const char *game_id, char event_id[24])
{
    (void)s, (void)game_id, (void)event_id;
    return 1;
}
int store_each_due_event(store *s, int64_t now_ms, int (*fn)(const stored_event *e, void *arg),
                         void *arg)
{
    (void)now_ms, (void)fn, (void)arg;
    return (void)s, 0;
}
