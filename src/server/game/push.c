/*
 * push.c - notifications by Web Push (push.h; issue 52,
 * docs/notifications.md).
 *
 * The site's VAPID key pair is made once and kept as a secret of the site
 * (store_site_secret "vapid": the same on every server of a site). A
 * browser's subscription (its push service's endpoint and its keys) is
 * kept per account; a person's preferences say which kinds of notice they
 * want, and in which language.
 *
 * What is sent: "your turn" in a game with a day per move (or without a
 * clock, among people), a few seconds after the turn began (push_delay_s)
 * and only if no tab of the player watches the game then;
 * "time is running out", once per decision, when 80% of the time it had is
 * used and no tab watches; "game over" with the player's place, to a
 * player not watching; "a challenge" to the challenged account; "a
 * tournament game waiting" to each person seated at an event's new table,
 * after the same delay as "your turn" and only if no tab of theirs watches
 * the game then (it stands for the first "your turn" of that game, which
 * is then not sent as well).
 *
 * Sending happens on a thread of its own: each message is encrypted for
 * its subscription (webpush.c, RFC 8291), signed for its push service
 * (RFC 8292) and POSTed with libcurl, with a TTL. A push service that
 * answers 429 or 5xx, or cannot be reached, is asked again later (three
 * times, after 2, 8 and 30 seconds); one that answers 404 or 410 no longer
 * knows the subscription: the loop forgets it (push_collect).
 */
#include "push.h"
#include "accounts.h"
#include "api.h"
#include "clock.h"
#include "lobby.h"
#include "play.h"
#include "push_texts.h"
#include "webpush.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define RETRIES      3
#define QUEUE_MAX    2000 /* messages waiting at once: more are dropped (logged) */
#define TURNS_MAX    4096 /* "your turn" notices waiting for their delay */
#define EVENTS_MAX   1024 /* "a tournament game waiting" notices waiting for their delay */
#define WARNED_MAX   4096
#define CLOCK_MIN_MS 60000 /* a decision with less time than this gets no clock notice */
/* A game loaded again this long after its "your turn" was due gets none:
 * its server was up then and sent it (push_turn_resumed). */
#define RESUMED_LATE_S 60

typedef struct push_job {
    struct push_job *next;
    stored_subscription sub;
    char *payload;
    int ttl_s;
    bool urgent;
    int attempts;
    double due; /* CLOCK_MONOTONIC seconds */
    long status;
    bool gone;     /* 404 or 410: forget the subscription */
    char *mail_to; /* an e-mail (payload: the whole message) to this address */
} push_job;

typedef struct {
    char game_id[GAME_ID_LEN + 1];
    int seat;
    int nevents; /* the game's position when the turn began */
    double due;  /* service_now */
} turn_notice;

typedef struct {
    char game_id[GAME_ID_LEN + 1];
    int seat;
    double due; /* service_now */
    char event[STORE_EVENT_NAME_MAX + 1];
} event_notice;

typedef struct {
    char game_id[GAME_ID_LEN + 1];
    int seat, nevents;
} clock_warned;

struct push_state {
    char private_key[WP_PRIVATE_B64], public_key[WP_PUBLIC_B64];
    pthread_t thread;
    bool running, stop;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    push_job *queue, *done;
    int waiting;
    turn_notice turns[TURNS_MAX];
    int nturns;
    event_notice events[EVENTS_MAX];
    int nevents;
    clock_warned warned[WARNED_MAX];
    int nwarned;
    double last_tick;
    long sent, failed, dropped;
    long queued[PUSH_KINDS];
    int64_t last_created; /* subscriptions' times, strictly increasing: the newest stay */
    const char *subject;
    const char *smtp_url, *mail_from;
    bool allow_http;
    void (*wake)(void *);
    void *arg;
    bool curl_ready;
};

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

push_state *push_new(void)
{
    push_state *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, &attr);
    pthread_condattr_destroy(&attr);
    return p;
}

static void job_free(push_job *j)
{
    if (!j)
        return;
    free(j->mail_to);
    free(j->payload);
    free(j);
}

/* --- the sending thread --- */

static size_t discard(char *ptr, size_t size, size_t n, void *arg)
{
    (void)ptr, (void)arg;
    return size * n;
}

/* Whether an address is this machine's or a private network's: a push
 * service is on the internet, and a subscription must not make the server
 * post to what only it can reach (unless --push-http: a test's push service
 * on this machine). */
static bool private_address(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET) {
        uint32_t a = ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr);
        return (a >> 24) == 0 || (a >> 24) == 10 || (a >> 24) == 127 || (a >> 20) == 0xac1 ||
               (a >> 16) == 0xc0a8 || (a >> 16) == 0xa9fe || (a >> 22) == (100 << 2 | 1) ||
               (a >> 28) >= 0xe;
    }
    if (sa->sa_family == AF_INET6) {
        const uint8_t *b = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
        static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (memcmp(b, mapped, 12) == 0) {
            struct sockaddr_in v4 = {.sin_family = AF_INET};
            memcpy(&v4.sin_addr, b + 12, 4);
            return private_address((const struct sockaddr *)&v4);
        }
        static const uint8_t zero[15] = {0};
        return (memcmp(b, zero, 15) == 0 && b[15] <= 1) || (b[0] & 0xfe) == 0xfc ||
               (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) || b[0] == 0xff;
    }
    return true;
}

static curl_socket_t open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
    push_state *p = arg;
    (void)purpose;
    if (!p->allow_http && private_address(&a->addr))
        return CURL_SOCKET_BAD;
    return socket(a->family, a->socktype, a->protocol);
}

typedef struct {
    const char *data;
    size_t left;
} upload;

static size_t read_upload(char *buf, size_t size, size_t n, void *arg)
{
    upload *u = arg;
    size_t len = size * n < u->left ? size * n : u->left;
    memcpy(buf, u->data, len);
    u->data += len;
    u->left -= len;
    return len;
}

/* An e-mail through --smtp: 200 when the server took it, 0 when not. */
static long send_mail(push_state *p, push_job *j)
{
    CURL *curl = curl_easy_init();
    if (!curl)
        return 0;
    char from[STORE_EMAIL_MAX + 3], to[STORE_EMAIL_MAX + 3];
    snprintf(from, sizeof from, "<%s>", p->mail_from);
    snprintf(to, sizeof to, "<%s>", j->mail_to);
    struct curl_slist *rcpt = curl_slist_append(NULL, to);
    upload u = {j->payload, strlen(j->payload)};
    curl_easy_setopt(curl, CURLOPT_URL, p->smtp_url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from);
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
    curl_easy_setopt(curl, CURLOPT_READDATA, &u);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE, (long)u.left);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
    CURLcode rc = curl_easy_perform(curl);
    curl_slist_free_all(rcpt);
    curl_easy_cleanup(curl);
    return rc == CURLE_OK ? 200 : 0;
}

/* One attempt: the push service's status, or 0 when it could not be
 * reached (or the message could not be made: -1, not retried). */
static long send_once(push_state *p, push_job *j)
{
    char audience[STORE_ENDPOINT_MAX + 1], vapid[1200];
    uint8_t *body = NULL;
    size_t len = 0;
    if (wp_origin(j->sub.endpoint, audience, sizeof audience) < 0 ||
        wp_vapid_header(p->private_key, p->public_key, audience, p->subject,
                        (int64_t)time(NULL) + 12 * 3600, vapid, sizeof vapid) < 0 ||
        wp_encrypt((const uint8_t *)j->payload, strlen(j->payload), j->sub.p256dh, j->sub.auth,
                   &body, &len) < 0)
        return -1;
    CURL *curl = curl_easy_init();
    if (!curl) {
        free(body);
        return 0;
    }
    char ttl[32], auth[1300];
    snprintf(ttl, sizeof ttl, "TTL: %d", j->ttl_s);
    snprintf(auth, sizeof auth, "Authorization: %s", vapid);
    struct curl_slist *h = NULL;
    h = curl_slist_append(h, ttl);
    h = curl_slist_append(h, auth);
    h = curl_slist_append(h, "Content-Encoding: aes128gcm");
    h = curl_slist_append(h, "Content-Type: application/octet-stream");
    h = curl_slist_append(h, j->urgent ? "Urgency: high" : "Urgency: normal");
    curl_easy_setopt(curl, CURLOPT_URL, j->sub.endpoint);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, p->allow_http ? "http,https" : "https");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 15L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)len);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "axio");
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, p);
    long status = 0;
    if (curl_easy_perform(curl) == CURLE_OK)
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(curl);
    curl_slist_free_all(h);
    free(body);
    return status;
}

/* The job due first, taken off the queue, if it is due by now; else
 * when the first is due in *wait (or -1 for none). Under the lock. */
static push_job *take_due(push_state *p, double now, double *wait)
{
    push_job **best = NULL;
    for (push_job **j = &p->queue; *j; j = &(*j)->next)
        if (!best || (*j)->due < (*best)->due)
            best = j;
    *wait = -1;
    if (!best)
        return NULL;
    if ((*best)->due > now) {
        *wait = (*best)->due - now;
        return NULL;
    }
    push_job *j = *best;
    *best = j->next;
    j->next = NULL;
    return j;
}

static void *sender(void *arg)
{
    push_state *p = arg;
    static const double backoff[RETRIES] = {2, 8, 30};
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        double wait;
        push_job *j = take_due(p, mono(), &wait);
        if (!j) {
            if (wait < 0) {
                pthread_cond_wait(&p->cond, &p->lock);
            } else {
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                double until = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + wait;
                ts.tv_sec = (time_t)until;
                ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
                pthread_cond_timedwait(&p->cond, &p->lock, &ts);
            }
            continue;
        }
        pthread_mutex_unlock(&p->lock);
        long status = j->mail_to ? send_mail(p, j) : send_once(p, j);
        j->status = status;
        j->attempts++;
        bool retry = (status == 0 || status == 429 || status >= 500) && j->attempts <= RETRIES;
        j->gone = status == 404 || status == 410;
        pthread_mutex_lock(&p->lock);
        if (retry && !p->stop) {
            j->due = mono() + backoff[j->attempts - 1];
            j->next = p->queue;
            p->queue = j;
            continue;
        }
        j->next = p->done;
        p->done = j;
        if (p->wake)
            p->wake(p->arg);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int push_start(service *svc)
{
    push_state *p = svc->push;
    char fresh[WP_PRIVATE_B64 + WP_PUBLIC_B64 + 2], kept[sizeof fresh + 64];
    char priv[WP_PRIVATE_B64], pub[WP_PUBLIC_B64];
    if (wp_keypair(priv, pub) < 0) {
        fprintf(stderr, "axio serve: cannot make the site's VAPID keys (OpenSSL)\n");
        return -1;
    }
    snprintf(fresh, sizeof fresh, "%s.%s", priv, pub);
    if (store_site_secret(svc->db, "vapid", fresh, kept, sizeof kept)) {
        fprintf(stderr, "axio serve: %s\n", store_error(svc->db));
        return -1;
    }
    char *dot = strchr(kept, '.');
    if (!dot || (size_t)(dot - kept) >= sizeof p->private_key ||
        strlen(dot + 1) >= sizeof p->public_key) {
        fprintf(stderr, "axio serve: the site's VAPID keys in the store are damaged\n");
        return -1;
    }
    memcpy(p->private_key, kept, (size_t)(dot - kept));
    p->private_key[dot - kept] = 0;
    snprintf(p->public_key, sizeof p->public_key, "%s", dot + 1);
    if (!wp_public_key_valid(p->public_key)) {
        fprintf(stderr, "axio serve: the site's VAPID keys in the store are damaged\n");
        return -1;
    }
    p->subject = svc->cfg.push_contact;
    p->smtp_url = svc->cfg.smtp_url;
    p->mail_from = svc->cfg.mail_from;
    p->allow_http = svc->cfg.push_http;
    p->wake = svc->hooks.wake;
    p->arg = svc->hooks.arg;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        fprintf(stderr, "axio serve: libcurl cannot start\n");
        return -1;
    }
    p->curl_ready = true;
    if (pthread_create(&p->thread, NULL, sender, p)) {
        fprintf(stderr, "axio serve: cannot start the notifications' thread\n");
        return -1;
    }
    p->running = true;
    return 0;
}

void push_stop(service *svc)
{
    push_state *p = svc->push;
    if (!p || !p->running)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    p->running = false;
}

void push_free(service *svc)
{
    push_state *p = svc->push;
    if (!p)
        return;
    push_stop(svc);
    for (push_job *list[2] = {p->queue, p->done}, **l = list; l < list + 2; l++)
        while (*l) {
            push_job *next = (*l)->next;
            job_free(*l);
            *l = next;
        }
    if (p->curl_ready)
        curl_global_cleanup();
    pthread_cond_destroy(&p->cond);
    pthread_mutex_destroy(&p->lock);
    free(p);
    svc->push = NULL;
}

void push_collect(service *svc)
{
    push_state *p = svc->push;
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    push_job *done = p->done;
    p->done = NULL;
    pthread_mutex_unlock(&p->lock);
    while (done) {
        push_job *j = done;
        done = j->next;
        p->waiting--;
        if (j->status >= 200 && j->status < 300) {
            p->sent++;
        } else if (j->mail_to) {
            p->failed++;
            service_log(svc, "mail: a message to account %lld was not sent (--smtp)",
                        (long long)j->sub.account_id);
        } else if (j->gone) {
            p->dropped++;
            /* the endpoint is a capability: it is not logged */
            if (store_push_unsubscribe(svc->db, j->sub.account_id, j->sub.endpoint) < 0)
                service_log(svc, "push: forgetting a subscription failed: %s",
                            store_error(svc->db));
            else
                service_log(svc, "push: a subscription of account %lld is gone (%ld): forgotten",
                            (long long)j->sub.account_id, j->status);
        } else {
            p->failed++;
            service_log(svc, "push: a notice to account %lld was not delivered (%s %ld)",
                        (long long)j->sub.account_id, j->status > 0 ? "status" : "error",
                        j->status);
        }
        job_free(j);
    }
}

/* --- preferences --- */

/* Which channels a kind goes to: push by default, e-mail never (no
 * digest is sent by this version). */
typedef struct {
    char lang[8];
    bool push[PUSH_KINDS], email[PUSH_KINDS];
} prefs;

static void prefs_default(prefs *pr)
{
    memset(pr, 0, sizeof *pr);
    snprintf(pr->lang, sizeof pr->lang, "en");
    for (int k = 0; k < PUSH_KINDS; k++)
        pr->push[k] = true;
}

/* The preferences from their JSON ({"turn":{"push":true,"email":false},...}),
 * over what pr holds: -1 with err for anything else. */
static int prefs_apply(prefs *pr, const json_t *v, api_error *err)
{
    if (!json_is_object(v))
        return api_fail(err, 400, "bad_message", "prefs must be an object of kinds");
    const char *key;
    const json_t *kv;
    json_object_foreach((json_t *)v, key, kv)
    {
        int k = push_kind(key);
        if (k < 0)
            return api_fail(err, 400, "bad_message",
                            "prefs' kinds are turn, clock, over, challenge and event");
        if (!json_is_object(kv))
            return api_fail(err, 400, "bad_message", "a kind's prefs must be {\"push\":true,...}");
        const char *ch;
        const json_t *cv;
        json_object_foreach((json_t *)kv, ch, cv)
        {
            bool push = strcmp(ch, "push") == 0;
            if ((!push && strcmp(ch, "email") != 0) || !json_is_boolean(cv))
                return api_fail(err, 400, "bad_message",
                                "a kind's channels are push and email, each true or false");
            (push ? pr->push : pr->email)[k] = json_is_true(cv);
        }
    }
    return 0;
}

static json_t *prefs_json(const prefs *pr)
{
    json_t *o = json_object();
    for (int k = 0; k < PUSH_KINDS; k++)
        json_object_set_new(o, push_kind_names[k],
                            json_pack("{s:b,s:b}", "push", pr->push[k], "email", pr->email[k]));
    return o;
}

/* An account's preferences (the defaults when it has none stored or they
 * cannot be read). */
static void prefs_of(service *svc, int64_t account_id, prefs *pr)
{
    prefs_default(pr);
    char lang[8], text[STORE_PREFS_MAX + 1];
    if (store_notify_settings(svc->db, account_id, lang, text) != 0)
        return;
    if (push_lang_known(lang))
        snprintf(pr->lang, sizeof pr->lang, "%s", lang);
    json_t *v = json_loads(text, 0, NULL);
    api_error err;
    prefs saved = *pr;
    if (v && prefs_apply(pr, v, &err) < 0)
        *pr = saved;
    json_decref(v);
}

void push_prefs(service *svc, int64_t account_id, char lang[8], bool push[PUSH_KINDS],
                bool email[PUSH_KINDS])
{
    prefs pr;
    prefs_of(svc, account_id, &pr);
    memcpy(lang, pr.lang, sizeof pr.lang);
    memcpy(push, pr.push, sizeof pr.push);
    memcpy(email, pr.email, sizeof pr.email);
}

int push_enqueue_mail(service *svc, int64_t account_id, const char *to, char *message)
{
    push_state *p = svc->push;
    push_job *j =
        p && p->running && p->smtp_url && p->waiting < QUEUE_MAX ? calloc(1, sizeof *j) : NULL;
    char *copy = j ? strdup(to) : NULL;
    if (!j || !copy) {
        free(j);
        free(message);
        return -1;
    }
    j->sub.account_id = account_id;
    j->mail_to = copy;
    j->payload = message;
    pthread_mutex_lock(&p->lock);
    j->next = p->queue;
    p->queue = j;
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
    p->waiting++;
    return 0;
}

/* --- what is sent --- */

const char *push_variant_title(int variant)
{
    const char *name = ax_variant_name(variant);
    return strcmp(name, "rota") == 0 ? "AXIO ROTA" : strcmp(name, "hex") == 0 ? "AXIO Hex" : "AXIO";
}

typedef struct {
    service *svc;
    const char *payload;
    int kind, ttl_s;
    bool urgent;
} enqueue_arg;

static int enqueue(const stored_subscription *sub, void *arg)
{
    enqueue_arg *e = arg;
    push_state *p = e->svc->push;
    if (p->waiting >= QUEUE_MAX) {
        p->failed++;
        service_log(e->svc, "push: too many notices waiting; one is dropped");
        return 1;
    }
    push_job *j = calloc(1, sizeof *j);
    char *payload = strdup(e->payload);
    if (!j || !payload) {
        free(j);
        free(payload);
        return 1;
    }
    j->sub = *sub;
    j->payload = payload;
    j->ttl_s = e->ttl_s;
    j->urgent = e->urgent;
    j->due = 0;
    pthread_mutex_lock(&p->lock);
    j->next = p->queue;
    p->queue = j;
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
    p->waiting++;
    p->queued[e->kind]++;
    return 0;
}

/* Sends a notice of a kind to every subscription of an account that wants
 * it. vars: the text's {names} and values, NULL-terminated. Whether the
 * account wants that kind by push (and it could be made). */
static bool notify(service *svc, int64_t account_id, int kind, const char *const *vars,
                   const char *url, const char *tag, int ttl_s, bool urgent)
{
    if (!svc->push || !svc->push->running || account_id <= 0)
        return false;
    prefs pr;
    prefs_of(svc, account_id, &pr);
    if (!pr.push[kind])
        return false;
    const char *title_t, *body_t;
    char title[160], body[512];
    if (push_text(kind, pr.lang, &title_t, &body_t) < 0 ||
        push_fill(title_t, vars, title, sizeof title) < 0 ||
        push_fill(body_t, vars, body, sizeof body) < 0)
        return false;
    json_t *msg = json_pack("{s:s,s:s,s:s,s:s,s:s}", "kind", push_kind_names[kind], "title", title,
                            "body", body, "url", url, "tag", tag);
    char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
    json_decref(msg);
    if (!text)
        return false;
    enqueue_arg e = {svc, text, kind, ttl_s, urgent};
    if (strlen(text) <= WP_PLAINTEXT_MAX &&
        store_each_subscription(svc->db, account_id, enqueue, &e) < 0)
        service_log(svc, "push: reading subscriptions failed: %s", store_error(svc->db));
    free(text);
    return true;
}

/* Whether a tab of the seat's player watches the game: a connection
 * holding the seat, or one of the seat's account. */
static bool watched(const game *gm, int seat)
{
    if (gm->seats[seat].conns > 0)
        return true;
    for (const viewer *v = gm->viewers; v; v = v->next)
        if (!v->closed && v->account_id > 0 && v->account_id == gm->seats[seat].account_id)
            return true;
    return false;
}

/* A seat played by a person with an account (not a bot's program, not a
 * computer playing for someone who left). */
static bool notifiable(const game *gm, int seat)
{
    const game_seat *s = &gm->seats[seat];
    return s->kind == SEAT_HUMAN && s->taken && s->account_id > 0 && !s->bot && !s->ai;
}

static void game_url(const game *gm, int seat, char *out, size_t size)
{
    snprintf(out, size, "/#/game/%s?seat=%d", gm->id, seat);
}

/* Whether a game's turns are news: a day per move, or no clock and other
 * people at the table (a realtime game is played at the table; one against
 * the computers alone waits for nobody). */
static bool turns_matter(const game *gm)
{
    if (gm->clock.kind == GAME_CLOCK_DAILY)
        return true;
    if (gm->clock.kind != GAME_CLOCK_NONE)
        return false;
    int people = 0;
    for (int i = 0; i < gm->g.players; i++)
        people += gm->seats[i].kind == SEAT_HUMAN;
    return people > 1;
}

static double turn_delay_s(const game *gm)
{
    return gm->svc->cfg.push_delay_s > 0 ? gm->svc->cfg.push_delay_s : 10;
}

/* Schedules the seat to move's "your turn" for `due` (mono time). */
static void schedule_turn(game *gm, double due)
{
    push_state *p = gm->svc->push;
    if (!p || !p->running || gm->status != GAME_RUNNING || !turns_matter(gm))
        return;
    int seat = gm->g.to_move;
    if (seat < 0 || seat >= gm->g.players || !notifiable(gm, seat))
        return;
    int i = 0;
    while (i < p->nturns && strcmp(p->turns[i].game_id, gm->id) != 0)
        i++;
    if (i == p->nturns) {
        if (p->nturns == TURNS_MAX)
            return;
        p->nturns++;
    }
    turn_notice *t = &p->turns[i];
    memcpy(t->game_id, gm->id, sizeof t->game_id);
    t->seat = seat;
    t->nevents = gm->nevents;
    t->due = due;
}

void push_turn(game *gm) { schedule_turn(gm, service_now(gm->svc) + turn_delay_s(gm)); }

void push_turn_resumed(game *gm, int64_t turn_began)
{
    int64_t due = turn_began + (int64_t)turn_delay_s(gm), now = unix_ms() / 1000;
    if (turn_began <= 0 || now > due + RESUMED_LATE_S)
        return;
    schedule_turn(gm, service_now(gm->svc) + (double)(due > now ? due - now : 0));
}

/* How long a turn stays news: a daily game's for its day; a realtime
 * one's not long. */
static int turn_ttl(const game *gm)
{
    return gm->clock.kind == GAME_CLOCK_DAILY  ? gm->clock.per_move_s
           : gm->clock.kind == GAME_CLOCK_NONE ? 86400
                                               : 600;
}

static void send_turn(game *gm, int seat)
{
    char url[64], tag[48];
    game_url(gm, seat, url, sizeof url);
    snprintf(tag, sizeof tag, "turn-%s", gm->id);
    const char *vars[] = {"variant", push_variant_title(gm->g.variant), NULL};
    notify(gm->svc, gm->seats[seat].account_id, PUSH_TURN, vars, url, tag, turn_ttl(gm), false);
}

void push_event_game(game *gm, const char *event_name)
{
    push_state *p = gm->svc->push;
    if (!p || !p->running || gm->status != GAME_RUNNING)
        return;
    double due = service_now(gm->svc) + turn_delay_s(gm);
    for (int seat = 0; seat < gm->g.players; seat++) {
        if (!notifiable(gm, seat) || p->nevents == EVENTS_MAX)
            continue;
        event_notice *e = &p->events[p->nevents++];
        memcpy(e->game_id, gm->id, sizeof e->game_id);
        e->seat = seat;
        e->due = due;
        snprintf(e->event, sizeof e->event, "%s", event_name);
    }
    /* the first "your turn" waits as long: push_tick sees both together */
    for (int i = 0; i < p->nturns; i++)
        if (strcmp(p->turns[i].game_id, gm->id) == 0 && p->turns[i].due < due)
            p->turns[i].due = due;
}

/* Forgets the waiting "your turn" of a game's seat (a notice of the event's
 * game said it already). */
static void drop_turn(push_state *p, const game *gm, int seat)
{
    for (int i = 0; i < p->nturns; i++)
        if (p->turns[i].seat == seat && p->turns[i].nevents == gm->nevents &&
            strcmp(p->turns[i].game_id, gm->id) == 0) {
            p->turns[i] = p->turns[--p->nturns];
            return;
        }
}

/* The event notices that are due: sent to whoever is not watching. */
static void send_events(service *svc, double now)
{
    push_state *p = svc->push;
    int kept = 0;
    for (int i = 0; i < p->nevents; i++) {
        event_notice *e = &p->events[i];
        if (e->due > now) {
            if (kept != i)
                p->events[kept] = *e;
            kept++;
            continue;
        }
        game *gm = lobby_local(svc, e->game_id);
        if (!gm || gm->status != GAME_RUNNING || !notifiable(gm, e->seat) || watched(gm, e->seat))
            continue;
        char url[64], tag[48];
        game_url(gm, e->seat, url, sizeof url);
        snprintf(tag, sizeof tag, "event-%s", gm->id);
        const char *vars[] = {"variant", push_variant_title(gm->g.variant), "event", e->event,
                              NULL};
        if (notify(svc, gm->seats[e->seat].account_id, PUSH_EVENT, vars, url, tag, turn_ttl(gm),
                   false))
            drop_turn(p, gm, e->seat);
    }
    p->nevents = kept;
}

void push_game_over(game *gm)
{
    ax_ranking rank;
    ax_rank(&gm->g, &rank);
    char players[16];
    snprintf(players, sizeof players, "%d", gm->g.players);
    for (int k = 0; k < rank.n; k++) {
        int seat = rank.order[k];
        if (!notifiable(gm, seat) || watched(gm, seat))
            continue;
        char place[16], url[64], tag[48];
        snprintf(place, sizeof place, "%d", rank.place[k] + 1);
        game_url(gm, seat, url, sizeof url);
        snprintf(tag, sizeof tag, "over-%s", gm->id);
        const char *vars[] = {
            "variant", push_variant_title(gm->g.variant), "place", place, "players", players, NULL};
        notify(gm->svc, gm->seats[seat].account_id, PUSH_OVER, vars, url, tag, 7 * 86400, false);
    }
}

void push_challenge(service *svc, int64_t to_account, const char *from_name, const char *variant)
{
    int v = ax_variant_parse(variant);
    const char *vars[] = {"variant", v >= 0 ? push_variant_title(v) : variant, "name", from_name,
                          NULL};
    notify(svc, to_account, PUSH_CHALLENGE, vars, "/#/", "challenge", 86400, false);
}

static bool warned_already(push_state *p, const game *gm, int seat)
{
    for (int i = 0; i < p->nwarned; i++)
        if (p->warned[i].seat == seat && p->warned[i].nevents == gm->nevents &&
            strcmp(p->warned[i].game_id, gm->id) == 0)
            return true;
    return false;
}

/* Forgets the warnings of turns that are over. */
static void prune_warned(service *svc)
{
    push_state *p = svc->push;
    int kept = 0;
    for (int i = 0; i < p->nwarned; i++) {
        game *gm = lobby_local(svc, p->warned[i].game_id);
        if (gm && gm->status == GAME_RUNNING && gm->nevents == p->warned[i].nevents)
            p->warned[kept++] = p->warned[i];
    }
    p->nwarned = kept;
}

static void check_clocks(service *svc)
{
    push_state *p = svc->push;
    prune_warned(svc);
    for (game *gm = lobby_first(svc); gm; gm = gm->next) {
        int seat = gm->clock.running;
        if (seat < 0 || gm->status != GAME_RUNNING || !notifiable(gm, seat))
            continue;
        int64_t had = gm->clock.left_ms[seat]; /* when its clock started */
        if (had < CLOCK_MIN_MS || clock_left_now(gm, seat) > had / 5 || watched(gm, seat) ||
            warned_already(p, gm, seat) || p->nwarned == WARNED_MAX)
            continue;
        clock_warned *w = &p->warned[p->nwarned++];
        memcpy(w->game_id, gm->id, sizeof w->game_id);
        w->seat = seat;
        w->nevents = gm->nevents;
        char url[64], tag[48];
        game_url(gm, seat, url, sizeof url);
        snprintf(tag, sizeof tag, "clock-%s", gm->id);
        const char *vars[] = {"variant", push_variant_title(gm->g.variant), NULL};
        int ttl = (int)(clock_left_now(gm, seat) / 1000);
        notify(svc, gm->seats[seat].account_id, PUSH_CLOCK, vars, url, tag, ttl > 0 ? ttl : 1,
               true);
    }
}

void push_tick(service *svc, double now)
{
    push_state *p = svc->push;
    if (!p || !p->running || svc->stopping)
        return;
    send_events(svc, now);
    int kept = 0;
    for (int i = 0; i < p->nturns; i++) {
        turn_notice t = p->turns[i];
        game *gm = lobby_local(svc, t.game_id);
        bool current =
            gm && gm->status == GAME_RUNNING && gm->g.to_move == t.seat && gm->nevents == t.nevents;
        if (current && t.due > now) {
            p->turns[kept++] = t;
            continue;
        }
        if (current && notifiable(gm, t.seat) && !watched(gm, t.seat))
            send_turn(gm, t.seat);
    }
    p->nturns = kept;
    if (now - p->last_tick >= 1) {
        p->last_tick = now;
        check_clocks(svc);
    }
}

long push_queued(const service *svc, int kind)
{
    return svc->push && kind >= 0 && kind < PUSH_KINDS ? svc->push->queued[kind] : 0;
}

/* --- the HTTP API --- */

static int count_one(const stored_subscription *sub, void *arg)
{
    (void)sub;
    (*(int *)arg)++;
    return 0;
}

static int reply_prefs(service *svc, int64_t account_id, int status, api_answer *out)
{
    prefs pr;
    prefs_of(svc, account_id, &pr);
    int n = 0;
    if (store_each_subscription(svc->db, account_id, count_one, &n) < 0)
        return api_reply_error(out, 500, "internal", "the subscriptions cannot be read");
    return api_reply_json(
        out, status,
        json_pack("{s:s,s:o,s:i,s:b}", "lang", pr.lang, "prefs", prefs_json(&pr), "subscriptions",
                  n, "email_available",
                  svc->cfg.smtp_url && svc->cfg.mail_from && svc->cfg.public_url));
}

/* POST /api/me/notifications {"lang":"de","prefs":{...}}: either or both. */
static int set_prefs(service *svc, const api_request *r, int64_t account_id, api_answer *out)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    prefs pr;
    prefs_of(svc, account_id, &pr);
    const json_t *lang = json_object_get(body, "lang"), *v = json_object_get(body, "prefs");
    int rc = 0;
    if (!json_is_object(body) || (!lang && !v))
        rc = api_fail(&err, 400, "bad_message", "give lang, prefs or both");
    else if (lang && (!json_is_string(lang) || !push_lang_known(json_string_value(lang))))
        rc = api_fail(&err, 400, "bad_message", "lang must be en, de or hu");
    else if (v)
        rc = prefs_apply(&pr, v, &err);
    if (rc == 0 && lang)
        snprintf(pr.lang, sizeof pr.lang, "%s", json_string_value(lang));
    json_decref(body);
    if (rc)
        return api_reply_fail(out, &err);
    json_t *pj = prefs_json(&pr);
    char *text = json_dumps(pj, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(pj);
    int stored = text ? store_notify_settings_set(svc->db, account_id, pr.lang, text) : -1;
    free(text);
    if (stored)
        return api_reply_error(out, 500, "internal", "the settings could not be stored");
    return reply_prefs(svc, account_id, 200, out);
}

/* Whether an endpoint may be sent to: an https URL (http too with
 * --push-http, for a push service on this machine) of at most
 * STORE_ENDPOINT_MAX printable characters. */
static bool endpoint_ok(service *svc, const char *e)
{
    char origin[STORE_ENDPOINT_MAX + 1];
    size_t n = strlen(e);
    if (n > STORE_ENDPOINT_MAX || wp_origin(e, origin, sizeof origin) < 0)
        return false;
    if (strncmp(e, "https://", 8) != 0 && !svc->cfg.push_http)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)e[i] <= ' ' || e[i] == 0x7f)
            return false;
    return true;
}

/* POST /api/me/push: a browser's PushSubscription as JSON
 * ({"endpoint","keys":{"p256dh","auth"}}), and optionally "lang". */
static int subscribe(service *svc, const api_request *r, int64_t account_id, api_answer *out)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    const char *endpoint = json_string_value(json_object_get(body, "endpoint"));
    json_t *keys = json_object_get(body, "keys");
    const char *p256dh = json_string_value(json_object_get(keys, "p256dh"));
    const char *auth = json_string_value(json_object_get(keys, "auth"));
    const char *lang = json_string_value(json_object_get(body, "lang"));
    push_state *ps = svc->push;
    int64_t now = unix_ms();
    stored_subscription sub = {.account_id = account_id,
                               .created = now > ps->last_created ? now : ps->last_created + 1};
    uint8_t a[WP_AUTH_LEN + 1];
    int rc = 0;
    if (!endpoint || !endpoint_ok(svc, endpoint))
        rc = api_fail(&err, 400, "bad_message",
                      svc->cfg.push_http ? "endpoint must be an http(s) URL"
                                         : "endpoint must be an https URL");
    else if (!p256dh || strlen(p256dh) >= sizeof sub.p256dh || !wp_public_key_valid(p256dh))
        rc = api_fail(&err, 400, "bad_message", "keys.p256dh must be a P-256 public key");
    else if (!auth || strlen(auth) >= sizeof sub.auth ||
             wp_b64url_decode(auth, a, sizeof a) != WP_AUTH_LEN)
        rc = api_fail(&err, 400, "bad_message", "keys.auth must be 16 bytes in base64url");
    else if (json_object_get(body, "lang") && (!lang || !push_lang_known(lang)))
        rc = api_fail(&err, 400, "bad_message", "lang must be en, de or hu");
    if (rc == 0) {
        snprintf(sub.endpoint, sizeof sub.endpoint, "%s", endpoint);
        snprintf(sub.p256dh, sizeof sub.p256dh, "%s", p256dh);
        snprintf(sub.auth, sizeof sub.auth, "%s", auth);
    }
    char lang_copy[8] = "";
    if (lang && rc == 0)
        snprintf(lang_copy, sizeof lang_copy, "%s", lang);
    json_decref(body);
    if (rc)
        return api_reply_fail(out, &err);
    if (store_push_subscribe(svc->db, &sub, PUSH_MAX_SUBSCRIPTIONS))
        return api_reply_error(out, 500, "internal", "the subscription could not be stored");
    ps->last_created = sub.created;
    if (lang_copy[0]) {
        prefs pr;
        prefs_of(svc, account_id, &pr);
        snprintf(pr.lang, sizeof pr.lang, "%s", lang_copy);
        json_t *pj = prefs_json(&pr);
        char *text = json_dumps(pj, JSON_COMPACT | JSON_SORT_KEYS);
        json_decref(pj);
        if (!text || store_notify_settings_set(svc->db, account_id, pr.lang, text))
            service_log(svc, "push: storing a language failed");
        free(text);
    }
    return api_reply_json(out, 201, json_pack("{s:b}", "subscribed", true));
}

/* DELETE /api/me/push?endpoint=URL */
static int unsubscribe(service *svc, const api_request *r, int64_t account_id, api_answer *out)
{
    char endpoint[STORE_ENDPOINT_MAX + 1];
    if (!api_query_arg(r, "endpoint", endpoint, sizeof endpoint))
        return api_reply_error(out, 400, "bad_message", "endpoint must be the subscription's URL");
    int rc = store_push_unsubscribe(svc->db, account_id, endpoint);
    if (rc < 0)
        return api_reply_error(out, 500, "internal", "the subscription could not be forgotten");
    if (rc > 0)
        return api_reply_error(out, 404, "not_found", "no such subscription of this account");
    return api_reply_empty(out, 204);
}

int push_route(service *svc, const api_request *r, api_answer *out)
{
    bool key = strcmp(r->path, "/push/key") == 0;
    bool sub = strcmp(r->path, "/me/push") == 0;
    bool settings = strcmp(r->path, "/me/notifications") == 0;
    if (!key && !sub && !settings)
        return API_NOT_MINE;
    if (key) {
        if (r->method != API_GET)
            return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
        if (!svc->push || !svc->push->running)
            return api_reply_error(out, 503, "unavailable", "notifications are not running");
        return api_reply_json(out, 200, json_pack("{s:s}", "key", svc->push->public_key));
    }
    stored_account me;
    if (!accounts_session_by_hash(svc, r->session_hash, &me))
        return api_reply_error(out, 401, "unauthorized", "log in first");
    if (me.computer)
        return api_reply_error(out, 403, "forbidden", "a computer level has no notifications");
    if (settings) {
        if (r->method == API_GET)
            return reply_prefs(svc, me.id, 200, out);
        if (r->method == API_POST)
            return set_prefs(svc, r, me.id, out);
        return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
    }
    if (r->method == API_POST)
        return subscribe(svc, r, me.id, out);
    if (r->method == API_DELETE)
        return unsubscribe(svc, r, me.id, out);
    return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
}
