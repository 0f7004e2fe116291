/*
 * owners.c - one site on several servers: which server holds a game, where
 * the others reach it, and when a game moves (docs/server.md, "Several
 * servers").
 *
 * The servers share one PostgreSQL database. A game is held, decided and
 * kept in memory by one server at a time, through a lease in the store
 * (store.h, "the servers of one site") taken before the game is loaded and
 * renewed every RENEW_S for all the server holds; every write of the game
 * is fenced by it, so a server that lost a game (it froze past its lease)
 * can never write to it again. nginx sends a game's requests to one server
 * by hashing its id, so a game normally lives where its players are.
 *
 * A connection or a request that reaches a server that does not hold its
 * game is passed on to the holder (the transport relays it, lobby_hold
 * says where: each server records its address, and the site's key proves
 * a passed-on request comes from one of its servers): a request never
 * moves a game, and a game whose players reach two servers plays on at
 * full speed. A game moves only when its holder sees that everyone
 * watching it comes through one other server (the game was created
 * elsewhere, or adopted by a server nginx does not send it to): once idle,
 * and held MIN_HOLD_S or not yet touched by a person (a new game), it lets
 * the game go and closes those viewers (1012), which reconnect and find it
 * free where they are. A rematch's
 * seat, the one change made for a game held elsewhere, asks its holder to
 * let it go (a NOTIFY "release"). When a server dies its leases expire
 * after LEASE_S and the others adopt its games (ORPHAN_S scans): clients
 * reconnect by themselves, the clocks go on from what was stored (the gap
 * is not charged), computer players resume where their game is now held.
 * Lobby entries of held games are written to the store (ENTRY_S) so that
 * every server lists every game.
 */
#include "owners.h"
#include "lobby.h"
#include "moderation.h"
#include "people.h"
#include "play.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEASE_S      5.0 /* a dead server's games are adopted this long after its last renewal */
#define RENEW_S      1.0 /* four renewals may fail (a slow commit) before a lease runs out */
#define ORPHAN_S     1.0
#define ENTRY_S      1.0
#define HANDOVER_S   2.0 /* a game let go is adopted after this if no server asked for it */
#define MIN_HOLD_S   2.0 /* a watched game stays this long where it was taken: no bouncing */
#define ADOPT_MAX    100 /* games adopted per scan: the others take their share too */
#define REMOTE_MAX_S 1.0 /* the other servers' lobby entries are read at most this often */

static int64_t ms_of(double unix_s) { return (int64_t)(unix_s * 1000.0); }

struct remote_entry {
    char id[GAME_ID_LEN + 1];
    int64_t created;
    int group;
    json_t *entry;
};

struct peer_server {
    char instance[STORE_INSTANCE_LEN + 1];
    char address[STORE_ADDRESS_MAX + 1];
};

struct owners {
    bool shared;   /* the store is a site's */
    bool released; /* owners_stop has run */
    char instance[STORE_INSTANCE_LEN + 1];
    char site_key[65]; /* the site's secret: signs passed-on requests, keys stored addresses */
    struct peer_server *peers; /* the site's live servers and their addresses */
    int npeers;
    double next_renew, next_orphans, next_entries;
    struct remote_entry *remote; /* the other servers' lobby entries, cached */
    int nremote;
    double remote_at;
};

owners *owners_new(void) { return calloc(1, sizeof(owners)); }

bool owners_shared(const service *svc) { return svc->owners->shared; }

const char *service_instance(const service *svc) { return svc->owners->instance; }

const char *service_site_key(const service *svc) { return svc->owners->site_key; }

static void hex_of(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

void owners_start(service *svc)
{
    uint8_t b[32];
    if (secret_bytes(b, STORE_INSTANCE_LEN / 2))
        memset(b, 0, sizeof b);
    hex_of(b, STORE_INSTANCE_LEN / 2, svc->owners->instance);
    svc->owners->shared = store_shared(svc->db);
    /* the site's key: the first server makes it, the others read it */
    char fresh[65];
    if (secret_bytes(b, sizeof b) == 0) {
        hex_of(b, sizeof b, fresh);
        if (store_site_secret(svc->db, "site_key", fresh, svc->owners->site_key,
                              sizeof svc->owners->site_key))
            service_log(svc, "cannot read the site's key: %s", store_error(svc->db));
    }
    if (!svc->owners->shared)
        return;
    if (svc->cfg.address &&
        store_instance_register(svc->db, svc->owners->instance, svc->cfg.address, unix_ms()))
        service_log(svc, "cannot record this server's address: %s", store_error(svc->db));
}

/* --- where the site's servers are --- */

static int add_peer(const char *instance, const char *address, void *arg)
{
    service *svc = arg;
    struct peer_server *grown =
        realloc(svc->owners->peers, (size_t)(svc->owners->npeers + 1) * sizeof *grown);
    if (!grown)
        return -1;
    svc->owners->peers = grown;
    struct peer_server *p = &svc->owners->peers[svc->owners->npeers++];
    snprintf(p->instance, sizeof p->instance, "%s", instance);
    snprintf(p->address, sizeof p->address, "%s", address);
    return 0;
}

static void read_peers(service *svc)
{
    free(svc->owners->peers);
    svc->owners->peers = NULL;
    svc->owners->npeers = 0;
    if (store_each_peer(svc->db, unix_ms() - ms_of(LEASE_S), add_peer, svc))
        service_log(svc, "cannot read the site's servers: %s", store_error(svc->db));
}

int owners_address(service *svc, const char *instance, char address[STORE_ADDRESS_MAX + 1])
{
    if (!svc->owners->shared || !instance || !instance[0])
        return -1;
    for (int i = 0; i < svc->owners->npeers; i++)
        if (strcmp(svc->owners->peers[i].instance, instance) == 0) {
            memcpy(address, svc->owners->peers[i].address, sizeof svc->owners->peers[i].address);
            return 0;
        }
    /* a server that started since the last renewal */
    if (store_instance_address(svc->db, instance, address, STORE_ADDRESS_MAX + 1) != 0)
        return -1;
    add_peer(instance, address, svc);
    return 0;
}

bool service_peer_host(const service *svc, const char *ip)
{
    size_t n = strlen(ip);
    for (int i = 0; i < svc->owners->npeers; i++) {
        const char *a = svc->owners->peers[i].address;
        if (strcmp(svc->owners->peers[i].instance, svc->owners->instance) == 0)
            continue;
        /* "HOST:PORT", an IPv6 host in brackets */
        if (a[0] == '[' ? strncmp(a + 1, ip, n) == 0 && a[n + 1] == ']'
                        : strncmp(a, ip, n) == 0 && a[n] == ':')
            return true;
    }
    return false;
}

int owners_take(service *svc, const char *id, char holder[STORE_INSTANCE_LEN + 1])
{
    if (!svc->owners->shared)
        return 0;
    int64_t now = unix_ms();
    int rc =
        store_lease_take(svc->db, id, svc->owners->instance, now, now + ms_of(LEASE_S), holder);
    if (rc < 0) {
        service_log(svc, "game %s: cannot take its lease: %s", id, store_error(svc->db));
        return -1;
    }
    return rc;
}

void owners_ask_release(service *svc, const char *id) { owners_tell(svc, "release %s", id); }

void owners_release(service *svc, const char *id)
{
    if (svc->owners->shared &&
        store_lease_release(svc->db, id, svc->owners->instance, unix_ms() + ms_of(HANDOVER_S)))
        service_log(svc, "game %s: cannot release its lease: %s", id, store_error(svc->db));
}

void owners_submit(game *gm, store_write *w)
{
    if (gm->svc->owners->shared)
        memcpy(w->instance, gm->svc->owners->instance, sizeof w->instance);
    store_writer_submit(gm->svc->db, w);
}

void owners_lost(game *gm)
{
    if (!gm->lost)
        service_log(gm->svc, "game %s: another server holds it now; it goes", gm->id);
    gm->lost = true;
}

bool owners_leaving(const game *gm) { return gm->lost || gm->release_asked > 0; }

void owners_tell(service *svc, const char *fmt, ...)
{
    if (!svc->owners->shared)
        return;
    char text[512];
    int n = snprintf(text, sizeof text, "%s ", svc->owners->instance);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
    va_end(ap);
    if (store_notify(svc->db, text))
        service_log(svc, "cannot tell the other servers: %s", store_error(svc->db));
}

/* --- leases: renewal, and what was lost --- */

typedef struct {
    service *svc;
    char (*ids)[GAME_ID_LEN + 1];
    int n, cap;
} id_list;

static int collect_id(const char *id, void *arg)
{
    id_list *l = arg;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        void *grown = realloc(l->ids, (size_t)cap * sizeof *l->ids);
        if (!grown)
            return -1;
        l->ids = grown;
        l->cap = cap;
    }
    snprintf(l->ids[l->n++], GAME_ID_LEN + 1, "%s", id);
    return 0;
}

static bool listed(const id_list *l, const char *id)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->ids[i], id) == 0)
            return true;
    return false;
}

static void renew(service *svc)
{
    int64_t now = unix_ms(), held = 0;
    int mine = 0;
    for (game *gm = lobby_first(svc); gm; gm = gm->next)
        mine += !gm->lost;
    if (store_leases_renew(svc->db, svc->owners->instance, now, now + ms_of(LEASE_S), &held)) {
        service_log(svc, "cannot renew the leases: %s", store_error(svc->db));
        return;
    }
    read_peers(svc);
    if (held == mine)
        return;
    /* a lease went to another server while we were away, or one is left
     * of a game this server no longer has: find which */
    id_list l = {svc, NULL, 0, 0};
    if (store_each_lease(svc->db, svc->owners->instance, collect_id, &l) == 0) {
        for (game *gm = lobby_first(svc); gm; gm = gm->next)
            if (!gm->lost && !listed(&l, gm->id))
                owners_lost(gm);
        for (int i = 0; i < l.n; i++)
            if (!lobby_local(svc, l.ids[i]))
                owners_release(svc, l.ids[i]);
    }
    free(l.ids);
}

/* --- adopting the games of servers that died --- */

static int adopt(const char *id, void *arg)
{
    service *svc = arg;
    game *gm;
    if (lobby_hold(svc, id, &gm, NULL) == HOLD_HERE)
        service_log(svc, "game %s: taken over (no server held it)", id);
    return 0;
}

/* --- letting games go --- */

/* Whether no person has decided anything in the game yet: moving it then
 * costs nobody a thing (its players reconnect before their first move). */
static bool untouched(const game *gm)
{
    for (int i = 0; i < gm->nevents; i++) {
        const ax_event *e = &gm->events[i];
        if ((e->kind == AX_EV_PLACE || e->kind == AX_EV_SWAP) &&
            gm->seats[e->player].kind == SEAT_HUMAN)
            return false;
    }
    return true;
}

/* Whether everyone watching a game here came through one other server:
 * the game would better be held there. */
static bool watched_from_elsewhere(const game *gm)
{
    const viewer *first = gm->viewers;
    if (!first || !first->relayed_by[0])
        return false;
    for (const viewer *c = first->next; c; c = c->next)
        if (strcmp(c->relayed_by, first->relayed_by) != 0)
            return false;
    return true;
}

static void let_go(service *svc, double now)
{
    game *next;
    for (game *gm = lobby_first(svc); gm; gm = next) {
        next = gm->next;
        if (!lobby_idle(gm))
            continue;
        if (gm->lost) {
            lobby_drop(gm, CLOSE_MOVED);
        } else if ((gm->release_asked > 0 &&
                    (gm->nviewers == 0 || now - gm->held_since >= MIN_HOLD_S)) ||
                   ((untouched(gm) || now - gm->held_since >= MIN_HOLD_S) &&
                    watched_from_elsewhere(gm))) {
            owners_release(svc, gm->id);
            lobby_drop(gm, CLOSE_MOVED);
        }
    }
}

/* --- lobby entries, for the other servers' lists --- */

static int people_of(const game *gm)
{
    int n = 0;
    for (int i = 0; i < gm->g.players; i++)
        n += gm->seats[i].kind == SEAT_HUMAN && !gm->g.left[i] && gm->seats[i].conns > 0;
    return n;
}

static void write_entries(service *svc)
{
    for (game *gm = lobby_first(svc); gm; gm = gm->next) {
        if (gm->guided || gm->lost)
            continue;
        json_t *e = lobby_entry_json(gm);
        char *text = e ? json_dumps(e, JSON_COMPACT) : NULL;
        json_decref(e);
        if (!text || (gm->entry_written && strcmp(text, gm->entry_written) == 0)) {
            free(text);
            continue;
        }
        store_write *w = calloc(1, sizeof *w);
        char *copy = strdup(text);
        if (!w || !copy) {
            free(w);
            free(copy);
            free(text);
            continue;
        }
        w->kind = STORE_ENTRY;
        memcpy(w->game_id, gm->id, sizeof gm->id);
        w->entry = copy;
        w->people = people_of(gm);
        free(gm->entry_written);
        gm->entry_written = text;
        owners_submit(gm, w);
    }
}

static void free_remote(service *svc)
{
    for (int i = 0; i < svc->owners->nremote; i++)
        json_decref(svc->owners->remote[i].entry);
    free(svc->owners->remote);
    svc->owners->remote = NULL;
    svc->owners->nremote = 0;
}

typedef struct {
    struct remote_entry *list;
    int n, cap;
} remote_list;

static int add_remote(const char *id, int64_t created, int people, const char *entry, void *arg)
{
    remote_list *l = arg;
    json_t *e = json_loads(entry, 0, NULL);
    if (!json_is_object(e) || strlen(id) != GAME_ID_LEN) {
        json_decref(e);
        return 0;
    }
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        void *grown = realloc(l->list, (size_t)cap * sizeof *l->list);
        if (!grown) {
            json_decref(e);
            return -1;
        }
        l->list = grown;
        l->cap = cap;
    }
    struct remote_entry *r = &l->list[l->n++];
    memcpy(r->id, id, GAME_ID_LEN + 1);
    r->created = created;
    r->group = people > 0 ? 0 : 1;
    r->entry = e;
    return 0;
}

static void read_remote(service *svc)
{
    double now = service_now(svc);
    if (svc->owners->remote_at > 0 && now - svc->owners->remote_at < REMOTE_MAX_S)
        return;
    remote_list l = {NULL, 0, 0};
    if (store_each_entry(svc->db, svc->owners->instance, add_remote, &l)) {
        service_log(svc, "cannot read the other servers' games: %s", store_error(svc->db));
        for (int i = 0; i < l.n; i++)
            json_decref(l.list[i].entry);
        free(l.list);
        return; /* the last list stands */
    }
    free_remote(svc);
    svc->owners->remote = l.list;
    svc->owners->nremote = l.n;
    svc->owners->remote_at = now;
}

void owners_each_remote_entry(service *svc,
                              void (*fn)(const char *id, int64_t created, int group, json_t *entry,
                                         void *arg),
                              void *arg)
{
    if (!svc->owners->shared)
        return;
    read_remote(svc);
    for (int i = 0; i < svc->owners->nremote; i++) {
        struct remote_entry *r = &svc->owners->remote[i];
        if (!lobby_local(svc, r->id))
            fn(r->id, r->created, r->group, r->entry, arg);
    }
}

json_t *owners_remote_entry(service *svc, const char *id)
{
    char *text = NULL;
    if (!svc->owners->shared || store_get_entry(svc->db, id, &text) != 0)
        return NULL;
    json_t *e = json_loads(text, 0, NULL);
    free(text);
    if (!json_is_object(e)) {
        json_decref(e);
        return NULL;
    }
    return e;
}

int owners_adopt_all(service *svc)
{
    if (!svc->owners->shared)
        return 0;
    for (int before = -1; before != svc->ngames;) {
        before = svc->ngames;
        if (store_each_orphan(svc->db, unix_ms(), ADOPT_MAX, adopt, svc)) {
            fprintf(stderr, "axio serve: %s\n", store_error(svc->db));
            return -1;
        }
    }
    return 0;
}

void owners_tick(service *svc, double now)
{
    if (!svc->owners->shared || svc->stopping)
        return;
    if (now >= svc->owners->next_renew) {
        svc->owners->next_renew = now + RENEW_S;
        renew(svc);
    }
    if (now >= svc->owners->next_orphans) {
        svc->owners->next_orphans = now + ORPHAN_S;
        if (store_each_orphan(svc->db, unix_ms(), ADOPT_MAX, adopt, svc))
            service_log(svc, "cannot look for games nobody holds: %s", store_error(svc->db));
    }
    let_go(svc, now);
    if (now >= svc->owners->next_entries) {
        svc->owners->next_entries = now + ENTRY_S;
        write_entries(svc);
    }
}

/* --- what the other servers say: "SENDER VERB ARGS" --- */

static void heard(service *svc, const char *text)
{
    char sender[STORE_INSTANCE_LEN + 1], verb[16], id[GAME_ID_LEN + 1];
    long long account;
    int variant, rating;
    if (sscanf(text, "%16s %15s", sender, verb) != 2 || strcmp(sender, svc->owners->instance) == 0)
        return;
    const char *args = text + strlen(sender) + 1 + strlen(verb);
    if (strcmp(verb, "release") == 0 && sscanf(args, " %12s", id) == 1) {
        game *gm = lobby_local(svc, id);
        if (gm && gm->release_asked == 0)
            gm->release_asked = service_now(svc);
    } else if (strcmp(verb, "rating") == 0 &&
               sscanf(args, " %lld %d %d", &account, &variant, &rating) == 3) {
        lobby_rating_changed(svc, account, variant, rating);
    } else if (strcmp(verb, "deleted") == 0 && sscanf(args, " %lld", &account) == 1) {
        lobby_account_deleted(svc, account);
    } else if ((strcmp(verb, "moderated") == 0 || strcmp(verb, "blocks") == 0) &&
               sscanf(args, " %lld", &account) == 1) {
        moderation_heard(svc, verb, account);
    }
}

void owners_collect(service *svc)
{
    if (!svc->owners->shared)
        return;
    store_message *all = store_messages(svc->db);
    for (store_message *m = all; m; m = m->next)
        heard(svc, m->text);
    store_messages_free(all);
    if (all)
        let_go(svc, service_now(svc));
}

void owners_stop(service *svc)
{
    if (svc->owners->released)
        return;
    svc->owners->released = true;
    if (!svc->owners->shared)
        return;
    /* nobody asked for them: the others adopt them at once */
    if (store_leases_release_all(svc->db, svc->owners->instance, unix_ms()))
        service_log(svc, "cannot release the leases: %s", store_error(svc->db));
    free_remote(svc);
    free(svc->owners->peers);
    svc->owners->peers = NULL;
    svc->owners->npeers = 0;
}

void owners_free(owners *o)
{
    if (!o)
        return;
    for (int i = 0; i < o->nremote; i++)
        json_decref(o->remote[i].entry);
    free(o->remote);
    free(o->peers);
    free(o);
}
