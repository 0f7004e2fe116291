/*
 * value.c - inference and the weights files of the learned evaluation
 * (value.h): a few dot products, tanh and a logistic, in plain C, in
 * float (the weights are floats, written so that they read back exactly).
 *
 * File format (text, one item a line, '#' lines are comments):
 *   axio-value 2
 *   variant hex
 *   players 2
 *   features N hidden H        (N = AI_FEATURES, H = AI_VALUE_HIDDEN)
 *   linear w0 ... wN-1
 *   hidden J w0 ... wN-1       (H lines, J = 0 .. H-1)
 *   output v0 ... vH-1
 *   check SEED PLY SEAT VALUE  (0 to AI_VALUE_CHECKS lines)
 *   checksum HEX               (FNV-1a 64 of every byte before this line)
 */
#include "value.h"

#include "../engine/reason.h"
#include "evaluate.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float dot(const float *w, const float *x)
{
    float z = 0;
    for (int i = 0; i < AI_FEATURES; i++)
        z += w[i] * x[i];
    return z;
}

double ai_value_forward(const ai_value_model *m, const float x[AI_FEATURES],
                        float h[AI_VALUE_HIDDEN])
{
    float a[AI_VALUE_HIDDEN];
    if (m->ready) {
        /* The hidden units' sums side by side, feature by feature: each is
         * the same sum in the same order as its dot product (the same
         * float), but they no longer wait for each other. */
        /* A feature of 0 is left out: its terms are +-0 (the weights are
         * finite), and adding +-0 changes no sum that starts at +0 (no
         * sum of those becomes -0). Many features are 0. */
        memset(a, 0, sizeof a);
        int used[AI_FEATURES], n = 0;
        for (int i = 0; i < AI_FEATURES; i++) {
            used[n] = i;
            n += x[i] != 0;
        }
        for (int k = 0; k < n; k++) {
            const float *w = m->hid_t[used[k]];
            float xi = x[used[k]];
            for (int j = 0; j < AI_VALUE_HIDDEN; j++)
                a[j] += w[j] * xi;
        }
    } else {
        for (int j = 0; j < AI_VALUE_HIDDEN; j++)
            a[j] = dot(m->hid[j], x);
    }
    float z = dot(m->lin, x);
    for (int j = 0; j < AI_VALUE_HIDDEN; j++) {
        h[j] = tanhf(a[j]);
        z += m->out[j] * h[j];
    }
    return 1.0 / (1.0 + exp(-(double)z));
}

double ai_value_of(const ai_value_model *m, const float x[AI_FEATURES])
{
    float h[AI_VALUE_HIDDEN];
    return ai_value_forward(m, x, h);
}

double ai_value(const ai_value_model *m, const ax_game *g, int seat)
{
    if (g->phase == AX_PHASE_OVER)
        return ai_outcome(g, seat);
    float x[AI_FEATURES];
    ai_features(g, seat, x);
    return ai_value_of(m, x);
}

uint64_t ai_value_checksum(const char *text, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* The line starting at p, copied into buf without its newline. */
static const char *next_line(const char *p, char *buf, size_t len)
{
    size_t n = strcspn(p, "\n");
    size_t k = n < len - 1 ? n : len - 1;
    memcpy(buf, p, k);
    buf[k] = 0;
    return p[n] ? p + n + 1 : p + n;
}

/* n floats from the text at *q; false when one is missing or not finite. */
static bool read_floats(const char **q, float *w, int n)
{
    for (int i = 0; i < n; i++) {
        char *end;
        double v = strtod(*q, &end);
        if (end == *q || !isfinite(v) || fabs(v) > 1e30)
            return false;
        w[i] = (float)v;
        *q = end;
    }
    return strspn(*q, " \t") == strlen(*q);
}

int ai_value_parse(const char *text, ai_value_model *m, char *err, size_t errlen)
{
    *m = (ai_value_model){.variant = -1};
    bool version = false, shape = false, lin = false, out = false;
    bool hid[AI_VALUE_HIDDEN] = {false};
    char buf[8192]; /* a hidden line is about a kilobyte */
    int rc = -1;
#define REFUSE(...)                                                                                \
    do {                                                                                           \
        ax_fail(err, errlen, -1, __VA_ARGS__);                                                     \
        goto done;                                                                                 \
    } while (0)
    for (const char *p = text; *p;) {
        const char *start = p;
        p = next_line(p, buf, sizeof buf);
        if (buf[0] == '#' || buf[0] == 0)
            continue;
        char word[32];
        int used = 0;
        if (sscanf(buf, "%31s%n", word, &used) != 1)
            REFUSE("malformed line '%.40s'", buf);
        const char *rest = buf + used;
        if (strcmp(word, "checksum") == 0) {
            uint64_t want;
            if (sscanf(rest, "%" SCNx64, &want) != 1)
                REFUSE("malformed checksum line");
            uint64_t have = ai_value_checksum(text, (size_t)(start - text));
            if (have != want)
                REFUSE("bad checksum (the file says %016" PRIx64 ", its contents give %016" PRIx64
                       ")",
                       want, have);
            bool all = lin && out;
            for (int j = 0; j < AI_VALUE_HIDDEN; j++)
                all &= hid[j];
            if (!version || !shape || !all || m->variant < 0 || m->players < 1)
                REFUSE("incomplete: needs version, variant, players, features, every layer");
            for (int i = 0; i < AI_FEATURES; i++)
                for (int j = 0; j < AI_VALUE_HIDDEN; j++)
                    m->hid_t[i][j] = m->hid[j][i];
            m->ready = true;
            rc = 0;
            goto done;
        }
        if (strcmp(word, "axio-value") == 0) {
            int v;
            if (sscanf(rest, "%d", &v) != 1 || v != AI_VALUE_VERSION)
                REFUSE("unsupported version '%s' (this build reads %d)", rest + strspn(rest, " "),
                       AI_VALUE_VERSION);
            version = true;
        } else if (!version) {
            REFUSE("not a weights file (no 'axio-value %d' line first)", AI_VALUE_VERSION);
        } else if (strcmp(word, "variant") == 0) {
            char name[16];
            if (sscanf(rest, "%15s", name) != 1 || (m->variant = ax_variant_parse(name)) < 0)
                REFUSE("unknown variant '%s'", rest + strspn(rest, " "));
        } else if (strcmp(word, "players") == 0) {
            if (sscanf(rest, "%d", &m->players) != 1 || m->players < 2 || m->players > 4)
                REFUSE("players must be 2 to 4");
        } else if (strcmp(word, "features") == 0) {
            int nf, nh;
            if (sscanf(rest, "%d hidden %d", &nf, &nh) != 2 || nf != AI_FEATURES ||
                nh != AI_VALUE_HIDDEN)
                REFUSE("the shape '%s' is not this build's (features %d hidden %d)",
                       rest + strspn(rest, " "), AI_FEATURES, AI_VALUE_HIDDEN);
            shape = true;
        } else if (strcmp(word, "linear") == 0) {
            if (!read_floats(&rest, m->lin, AI_FEATURES))
                REFUSE("linear: %d weights expected, missing or malformed", AI_FEATURES);
            lin = true;
        } else if (strcmp(word, "hidden") == 0) {
            int j, k = 0;
            if (sscanf(rest, "%d%n", &j, &k) != 1 || j < 0 || j >= AI_VALUE_HIDDEN || hid[j])
                REFUSE("a hidden line with a bad or repeated unit number");
            rest += k;
            if (!read_floats(&rest, m->hid[j], AI_FEATURES))
                REFUSE("hidden %d: %d weights expected, missing or malformed", j, AI_FEATURES);
            hid[j] = true;
        } else if (strcmp(word, "output") == 0) {
            if (!read_floats(&rest, m->out, AI_VALUE_HIDDEN))
                REFUSE("output: %d weights expected, missing or malformed", AI_VALUE_HIDDEN);
            out = true;
        } else if (strcmp(word, "check") == 0) {
            ai_value_check *c = &m->checks[m->nchecks];
            if (m->nchecks == AI_VALUE_CHECKS ||
                sscanf(rest, "%" SCNu64 " %d %d %lf", &c->seed, &c->ply, &c->seat, &c->value) != 4)
                REFUSE("malformed or too many check lines");
            m->nchecks++;
        } else {
            REFUSE("unknown line '%.40s'", buf);
        }
    }
    ax_fail(err, errlen, -1, "no checksum line");
done:
#undef REFUSE
    return rc;
}

int ai_value_format(const ai_value_model *m, const char *comment, char *out, size_t len)
{
    size_t n = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        int k = snprintf(out + n, n < len ? len - n : 0, __VA_ARGS__);                             \
        if (k < 0)                                                                                 \
            return -1;                                                                             \
        n += (size_t)k;                                                                            \
    } while (0)
    if (comment)
        PUT("# %s\n", comment);
    PUT("axio-value %d\nvariant %s\nplayers %d\nfeatures %d hidden %d\nlinear", AI_VALUE_VERSION,
        ax_variant_name(m->variant), m->players, AI_FEATURES, AI_VALUE_HIDDEN);
    /* %.9g: a float written so, read back by strtod and rounded, is itself */
    for (int i = 0; i < AI_FEATURES; i++)
        PUT(" %.9g", (double)m->lin[i]);
    for (int j = 0; j < AI_VALUE_HIDDEN; j++) {
        PUT("\nhidden %d", j);
        for (int i = 0; i < AI_FEATURES; i++)
            PUT(" %.9g", (double)m->hid[j][i]);
    }
    PUT("\noutput");
    for (int j = 0; j < AI_VALUE_HIDDEN; j++)
        PUT(" %.9g", (double)m->out[j]);
    PUT("\n");
    for (int i = 0; i < m->nchecks; i++)
        PUT("check %" PRIu64 " %d %d %.17g\n", m->checks[i].seed, m->checks[i].ply,
            m->checks[i].seat, m->checks[i].value);
    if (n >= len)
        return -1;
    PUT("checksum %016" PRIx64 "\n", ai_value_checksum(out, n));
#undef PUT
    return n < len ? (int)n : -1;
}

void ai_value_check_position(int variant, int players, uint64_t seed, int ply, ax_game *out)
{
    ax_game_init(out, variant, players, AX_STANDARD, seed, NULL);
    ai_scratch *s = ai_scratch_new();
    ax_rng rng;
    ax_rng_seed(&rng, seed);
    for (int i = 0; i < ply && out->phase != AX_PHASE_OVER && s; i++) {
        ax_move m;
        ai_policy_move(out, &ai_default_params, &rng, s, &m);
        ax_apply(out, &m, NULL);
    }
    ai_scratch_free(s);
}

int ai_value_builtin(int variant, int players, ai_value_model *m, char *err, size_t errlen)
{
    char name[32];
    snprintf(name, sizeof name, "%s-%dp", ax_variant_name(variant), players);
    for (int i = 0; i < ai_weights_count; i++) {
        if (strcmp(ai_weights_files[i].name, name) != 0)
            continue;
        char why[200];
        if (ai_value_parse(ai_weights_files[i].text, m, why, sizeof why) != 0)
            return ax_fail(err, errlen, -1, "weights %s: %s", name, why);
        if (m->variant != variant || m->players != players)
            return ax_fail(err, errlen, -1, "weights %s: made for another game", name);
        return 1;
    }
    return 0;
}
