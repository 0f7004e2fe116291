/*
 * matching.c - a perfect matching of least total cost on the complete graph
 * of the players (2-player Swiss: who meets whom).
 *
 * Edmonds' blossom algorithm for maximum-weight matching, in the primal-dual
 * form of Galil ("Efficient algorithms for finding maximum matching in
 * graphs", 1986), with the bookkeeping of least-slack edges per blossom that
 * makes it O(n^3): at most n stages, each O(n^2) on a dense graph. The
 * weight of an edge is (largest cost - its cost), so the heaviest matching
 * is the cheapest; in maximum-cardinality mode it is also perfect (every
 * player seated: the graph is complete and the count even). Integer weights
 * and duals doubled (slacks are dual(i) + dual(j) - 2 w) keep every step in
 * integers: weights are made even and every vertex dual starts even, so the
 * slack of an edge between two S-blossoms is always even and halves
 * exactly. A warm start (each vertex dual lowered until one of its edges is
 * tight, then a greedy matching on tight edges) leaves the algorithm only
 * the vertices the greedy left free.
 *
 * Vocabulary: a vertex or blossom labelled S (1) is at an even distance
 * from a free vertex along an alternating tree, T (2) at an odd one. An
 * endpoint p is 2k or 2k + 1 for edge k: endpoint[p] is the vertex,
 * p ^ 1 the other end. Blossoms are numbered m..2m-1; a blossom's children
 * form an odd cycle starting at its base, endps[b][i] being the endpoint
 * that links child i to child i + 1.
 */
#include "seating.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int n;      /* vertices */
    long nedge; /* n (n - 1) / 2 */
    int *endpt; /* 2 nedge: endpoint[p] */
    int64_t *w; /* nedge */
    int *neigh; /* n (n - 1): the remote endpoints of v's edges */
    int *mate;  /* n: the remote endpoint of v's matched edge, or -1 */
    int *label; /* 2n */
    int *labelend, *inblossom, *parent, *base, *bestedge; /* 2n (inblossom: n) */
    int **childs, **endps, *nchild;                       /* 2n */
    int **bestedges, *nbest;                              /* 2n (blossoms only) */
    int *unused, nunused;                                 /* free blossom numbers */
    int64_t *dual;                                        /* 2n */
    uint8_t *allowed;                                     /* nedge */
    int *queue, nqueue, capqueue;
    int *bestto; /* 2n: scratch of add_blossom */
    int *leaves; /* n: scratch of blossom_leaves */
    bool failed; /* out of memory on the way */
} bm;

static int64_t slack(const bm *g, long k)
{
    return g->dual[g->endpt[2 * k]] + g->dual[g->endpt[2 * k + 1]] - 2 * g->w[k];
}

/* the vertices inside b, into out (returns how many); iterative */
static int blossom_leaves(const bm *g, int b, int *out)
{
    if (b < g->n) {
        out[0] = b;
        return 1;
    }
    /* a stack of (blossom, next child) */
    int cnt = 0;
    int stack_b[64], stack_i[64], top = 0;
    int *sb = stack_b, *si = stack_i;
    int cap = 64;
    int *heap_b = NULL, *heap_i = NULL;
    sb[0] = b;
    si[0] = 0;
    top = 1;
    while (top > 0) {
        int cb = sb[top - 1];
        if (si[top - 1] >= g->nchild[cb]) {
            top--;
            continue;
        }
        int t = g->childs[cb][si[top - 1]++];
        if (t < g->n) {
            out[cnt++] = t;
            continue;
        }
        if (top == cap) {
            int ncap = cap * 2;
            int *nb = malloc(sizeof(int) * (size_t)ncap), *ni = malloc(sizeof(int) * (size_t)ncap);
            if (!nb || !ni) { /* cannot happen below 10^7 nested blossoms; stop short */
                free(nb), free(ni);
                break;
            }
            memcpy(nb, sb, sizeof(int) * (size_t)top);
            memcpy(ni, si, sizeof(int) * (size_t)top);
            free(heap_b), free(heap_i);
            sb = heap_b = nb;
            si = heap_i = ni;
            cap = ncap;
        }
        sb[top] = t;
        si[top] = 0;
        top++;
    }
    free(heap_b), free(heap_i);
    return cnt;
}

static void push_queue(bm *g, int v)
{
    if (g->nqueue == g->capqueue) {
        int ncap = g->capqueue * 2;
        int *q = realloc(g->queue, sizeof(int) * (size_t)ncap);
        if (!q) {
            g->failed = true;
            return;
        }
        g->queue = q;
        g->capqueue = ncap;
    }
    g->queue[g->nqueue++] = v;
}

static void assign_label(bm *g, int w, int t, int p)
{
    for (;;) {
        int b = g->inblossom[w];
        g->label[w] = g->label[b] = t;
        g->labelend[w] = g->labelend[b] = p;
        g->bestedge[w] = g->bestedge[b] = -1;
        if (t == 1) {
            int cnt = blossom_leaves(g, b, g->leaves);
            for (int i = 0; i < cnt; i++)
                push_queue(g, g->leaves[i]);
            return;
        }
        /* T: its base's mate becomes S */
        int mb = g->mate[g->base[b]];
        w = g->endpt[mb];
        t = 1;
        p = mb ^ 1;
    }
}

/* Traces back from v and w to find a new blossom's base, or -1 if the two
 * trees are different (an augmenting path). */
static int scan_blossom(bm *g, int v, int w)
{
    int path_len = 0, base = -1;
    int *path = g->bestto; /* scratch: at most 2n entries */
    while (v != -1 || w != -1) {
        int b = g->inblossom[v];
        if (g->label[b] & 4) {
            base = g->base[b];
            break;
        }
        path[path_len++] = b;
        g->label[b] = 5;
        if (g->labelend[b] == -1) {
            v = -1;
        } else {
            v = g->endpt[g->labelend[b]];
            b = g->inblossom[v];
            v = g->endpt[g->labelend[b]];
        }
        if (w != -1) {
            int t = v;
            v = w;
            w = t;
        }
    }
    for (int i = 0; i < path_len; i++)
        g->label[path[i]] = 1;
    return base;
}

static void set_list(bm *g, int **list, int *len, const int *src, int n)
{
    free(*list);
    *list = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!*list) {
        g->failed = true;
        *len = 0;
        return;
    }
    memcpy(*list, src, sizeof(int) * (size_t)n);
    *len = n;
}

static void add_blossom(bm *g, int base, long k)
{
    int n = g->n;
    int v = g->endpt[2 * k], w = g->endpt[2 * k + 1];
    int bb = g->inblossom[base], bv = g->inblossom[v], bw = g->inblossom[w];
    int b = g->unused[--g->nunused];
    g->base[b] = base;
    g->parent[b] = -1;
    g->parent[bb] = b;
    int *path = malloc(sizeof(int) * (size_t)(2 * n + 1));
    int *ends = malloc(sizeof(int) * (size_t)(2 * n + 1));
    if (!path || !ends) {
        free(path), free(ends);
        g->failed = true;
        return;
    }
    int len = 0, elen = 0;
    /* from v's side down to the base, reversed afterwards */
    while (bv != bb) {
        g->parent[bv] = b;
        path[len++] = bv;
        ends[elen++] = g->labelend[bv];
        v = g->endpt[g->labelend[bv]];
        bv = g->inblossom[v];
    }
    path[len++] = bb;
    for (int i = 0, j = len - 1; i < j; i++, j--) {
        int t = path[i];
        path[i] = path[j];
        path[j] = t;
    }
    for (int i = 0, j = elen - 1; i < j; i++, j--) {
        int t = ends[i];
        ends[i] = ends[j];
        ends[j] = t;
    }
    ends[elen++] = (int)(2 * k);
    while (bw != bb) {
        g->parent[bw] = b;
        path[len++] = bw;
        ends[elen++] = g->labelend[bw] ^ 1;
        w = g->endpt[g->labelend[bw]];
        bw = g->inblossom[w];
    }
    g->childs[b] = path;
    g->nchild[b] = len;
    g->endps[b] = ends;
    g->label[b] = 1;
    g->labelend[b] = g->labelend[bb];
    g->dual[b] = 0;
    int cnt = blossom_leaves(g, b, g->leaves);
    for (int i = 0; i < cnt; i++) {
        int x = g->leaves[i];
        if (g->label[g->inblossom[x]] == 2)
            push_queue(g, x); /* T-vertices inside become S */
        g->inblossom[x] = b;
    }
    /* least-slack edges from the new blossom to each neighbouring S-blossom */
    int *bestto = malloc(sizeof(int) * (size_t)(2 * n));
    if (!bestto) {
        g->failed = true;
        return;
    }
    for (int i = 0; i < 2 * n; i++)
        bestto[i] = -1;
    for (int c = 0; c < len; c++) {
        int sub = path[c];
        if (sub >= n && g->bestedges[sub]) {
            for (int e = 0; e < g->nbest[sub]; e++) {
                long kk = g->bestedges[sub][e];
                int i = g->endpt[2 * kk], j = g->endpt[2 * kk + 1];
                if (g->inblossom[j] == b)
                    j = i;
                int bj = g->inblossom[j];
                if (bj != b && g->label[bj] == 1 &&
                    (bestto[bj] == -1 || slack(g, kk) < slack(g, bestto[bj])))
                    bestto[bj] = (int)kk;
            }
        } else {
            int lc = blossom_leaves(g, sub, g->leaves);
            for (int li = 0; li < lc; li++) {
                int x = g->leaves[li];
                for (int e = 0; e < n - 1; e++) {
                    int p = g->neigh[(long)x * (n - 1) + e];
                    long kk = p / 2;
                    int j = g->endpt[p];
                    int bj = g->inblossom[j];
                    if (bj != b && g->label[bj] == 1 &&
                        (bestto[bj] == -1 || slack(g, kk) < slack(g, bestto[bj])))
                        bestto[bj] = (int)kk;
                }
            }
        }
        if (sub >= n) {
            free(g->bestedges[sub]);
            g->bestedges[sub] = NULL;
            g->nbest[sub] = 0;
        }
        g->bestedge[sub] = -1;
    }
    int nb = 0;
    for (int i = 0; i < 2 * n; i++)
        if (bestto[i] != -1)
            bestto[nb++] = bestto[i];
    set_list(g, &g->bestedges[b], &g->nbest[b], bestto, nb);
    free(bestto);
    g->bestedge[b] = -1;
    for (int e = 0; e < g->nbest[b]; e++) {
        long kk = g->bestedges[b][e];
        if (g->bestedge[b] == -1 || slack(g, kk) < slack(g, g->bestedge[b]))
            g->bestedge[b] = (int)kk;
    }
}

static int wrap(int j, int len) { return ((j % len) + len) % len; }

static int child_index(const bm *g, int b, int t)
{
    for (int i = 0; i < g->nchild[b]; i++)
        if (g->childs[b][i] == t)
            return i;
    return -1;
}

static void expand_blossom(bm *g, int b, bool endstage)
{
    int n = g->n;
    for (int c = 0; c < g->nchild[b]; c++) {
        int s = g->childs[b][c];
        g->parent[s] = -1;
        if (s < n) {
            g->inblossom[s] = s;
        } else if (endstage && g->dual[s] == 0) {
            expand_blossom(g, s, endstage);
        } else {
            int cnt = blossom_leaves(g, s, g->leaves);
            for (int i = 0; i < cnt; i++)
                g->inblossom[g->leaves[i]] = s;
        }
    }
    if (!endstage && g->label[b] == 2) {
        int len = g->nchild[b];
        int *ch = g->childs[b], *ep = g->endps[b];
        int entry = g->inblossom[g->endpt[g->labelend[b] ^ 1]];
        int j = child_index(g, b, entry), jstep, trick;
        if (j & 1) {
            j -= len;
            jstep = 1;
            trick = 0;
        } else {
            jstep = -1;
            trick = 1;
        }
        int p = g->labelend[b];
        while (j != 0) {
            g->label[g->endpt[p ^ 1]] = 0;
            g->label[g->endpt[ep[wrap(j - trick, len)] ^ trick ^ 1]] = 0;
            assign_label(g, g->endpt[p ^ 1], 2, p);
            g->allowed[ep[wrap(j - trick, len)] / 2] = 1;
            j += jstep;
            p = ep[wrap(j - trick, len)] ^ trick;
            g->allowed[p / 2] = 1;
            j += jstep;
        }
        int bv = ch[wrap(j, len)];
        g->label[g->endpt[p ^ 1]] = g->label[bv] = 2;
        g->labelend[g->endpt[p ^ 1]] = g->labelend[bv] = p;
        g->bestedge[bv] = -1;
        j += jstep;
        while (ch[wrap(j, len)] != entry) {
            bv = ch[wrap(j, len)];
            if (g->label[bv] == 1) {
                j += jstep;
                continue;
            }
            int cnt = blossom_leaves(g, bv, g->leaves), v = -1;
            for (int i = 0; i < cnt; i++)
                if (g->label[g->leaves[i]] != 0) {
                    v = g->leaves[i];
                    break;
                }
            if (v >= 0) {
                g->label[v] = 0;
                g->label[g->endpt[g->mate[g->base[bv]]]] = 0;
                assign_label(g, v, 2, g->labelend[v]);
            }
            j += jstep;
        }
    }
    g->label[b] = g->labelend[b] = -1;
    free(g->childs[b]), free(g->endps[b]), free(g->bestedges[b]);
    g->childs[b] = g->endps[b] = g->bestedges[b] = NULL;
    g->nchild[b] = g->nbest[b] = 0;
    g->base[b] = -1;
    g->bestedge[b] = -1;
    g->unused[g->nunused++] = b;
}

static void rotate(int *a, int len, int i, int *tmp)
{
    for (int k = 0; k < len; k++)
        tmp[k] = a[(k + i) % len];
    memcpy(a, tmp, sizeof(int) * (size_t)len);
}

/* Swaps matched and unmatched edges along the even path from v to b's base
 * inside b, so that v becomes the base. */
static void augment_blossom(bm *g, int b, int v)
{
    int n = g->n;
    int t = v;
    while (g->parent[t] != b)
        t = g->parent[t];
    if (t >= n)
        augment_blossom(g, t, v);
    int len = g->nchild[b];
    int *ch = g->childs[b], *ep = g->endps[b];
    int i = child_index(g, b, t), j = i, jstep, trick;
    if (i & 1) {
        j -= len;
        jstep = 1;
        trick = 0;
    } else {
        jstep = -1;
        trick = 1;
    }
    while (j != 0) {
        j += jstep;
        t = ch[wrap(j, len)];
        int p = ep[wrap(j - trick, len)] ^ trick;
        if (t >= n)
            augment_blossom(g, t, g->endpt[p]);
        j += jstep;
        t = ch[wrap(j, len)];
        if (t >= n)
            augment_blossom(g, t, g->endpt[p ^ 1]);
        g->mate[g->endpt[p]] = p ^ 1;
        g->mate[g->endpt[p ^ 1]] = p;
    }
    rotate(ch, len, i, g->leaves);
    rotate(ep, len, i, g->leaves);
    g->base[b] = g->base[ch[0]];
}

static void augment_matching(bm *g, long k)
{
    int n = g->n;
    int ends[2][2] = {{g->endpt[2 * k], (int)(2 * k + 1)}, {g->endpt[2 * k + 1], (int)(2 * k)}};
    for (int side = 0; side < 2; side++) {
        int s = ends[side][0], p = ends[side][1];
        for (;;) {
            int bs = g->inblossom[s];
            if (bs >= n)
                augment_blossom(g, bs, s);
            g->mate[s] = p;
            if (g->labelend[bs] == -1)
                break;
            int t = g->endpt[g->labelend[bs]];
            int bt = g->inblossom[t];
            s = g->endpt[g->labelend[bt]];
            int j = g->endpt[g->labelend[bt] ^ 1];
            if (bt >= n)
                augment_blossom(g, bt, j);
            g->mate[j] = g->labelend[bt];
            p = g->labelend[bt] ^ 1;
        }
    }
}

static void bm_free(bm *g)
{
    if (g->childs)
        for (int b = 0; b < 2 * g->n; b++) {
            free(g->childs[b]), free(g->endps[b]), free(g->bestedges[b]);
        }
    free(g->endpt), free(g->w), free(g->neigh), free(g->mate), free(g->label);
    free(g->labelend), free(g->inblossom), free(g->parent), free(g->base), free(g->bestedge);
    free(g->childs), free(g->endps), free(g->nchild), free(g->bestedges), free(g->nbest);
    free(g->unused), free(g->dual), free(g->allowed), free(g->queue), free(g->bestto);
    free(g->leaves);
}

/* one stage: grows trees from the free vertices until an augmentation;
 * false when none is possible any more */
static bool stage(bm *g)
{
    int n = g->n;
    for (int i = 0; i < 2 * n; i++) {
        g->label[i] = 0;
        g->bestedge[i] = -1;
    }
    for (int b = n; b < 2 * n; b++) {
        free(g->bestedges[b]);
        g->bestedges[b] = NULL;
        g->nbest[b] = 0;
    }
    memset(g->allowed, 0, (size_t)g->nedge);
    g->nqueue = 0;
    for (int v = 0; v < n; v++)
        if (g->mate[v] == -1 && g->label[g->inblossom[v]] == 0)
            assign_label(g, v, 1, -1);
    for (;;) {
        while (g->nqueue > 0 && !g->failed) {
            int v = g->queue[--g->nqueue];
            for (int e = 0; e < n - 1; e++) {
                int p = g->neigh[(long)v * (n - 1) + e];
                long k = p / 2;
                int w = g->endpt[p];
                if (g->inblossom[v] == g->inblossom[w])
                    continue;
                int64_t ks = 0;
                if (!g->allowed[k]) {
                    ks = slack(g, k);
                    if (ks <= 0)
                        g->allowed[k] = 1;
                }
                int bw = g->inblossom[w];
                if (g->allowed[k]) {
                    if (g->label[bw] == 0) {
                        assign_label(g, w, 2, p ^ 1);
                    } else if (g->label[bw] == 1) {
                        int base = scan_blossom(g, v, w);
                        if (base >= 0) {
                            add_blossom(g, base, k);
                        } else {
                            augment_matching(g, k);
                            return true;
                        }
                    } else if (g->label[w] == 0) {
                        g->label[w] = 2;
                        g->labelend[w] = p ^ 1;
                    }
                } else if (g->label[bw] == 1) {
                    int b = g->inblossom[v];
                    if (g->bestedge[b] == -1 || ks < slack(g, g->bestedge[b]))
                        g->bestedge[b] = (int)k;
                } else if (g->label[w] == 0) {
                    if (g->bestedge[w] == -1 || ks < slack(g, g->bestedge[w]))
                        g->bestedge[w] = (int)k;
                }
            }
        }
        if (g->failed)
            return false;
        /* the dual change: maximum cardinality, so no type 1 before the end */
        int type = -1, dblossom = -1;
        long dedge = -1;
        int64_t delta = 0;
        for (int v = 0; v < n; v++)
            if (g->label[g->inblossom[v]] == 0 && g->bestedge[v] != -1) {
                int64_t d = slack(g, g->bestedge[v]);
                if (type == -1 || d < delta) {
                    delta = d;
                    type = 2;
                    dedge = g->bestedge[v];
                }
            }
        for (int b = 0; b < 2 * n; b++)
            if (g->parent[b] == -1 && g->label[b] == 1 && g->bestedge[b] != -1) {
                int64_t d = slack(g, g->bestedge[b]) / 2;
                if (type == -1 || d < delta) {
                    delta = d;
                    type = 3;
                    dedge = g->bestedge[b];
                }
            }
        for (int b = n; b < 2 * n; b++)
            if (g->base[b] >= 0 && g->parent[b] == -1 && g->label[b] == 2 &&
                (type == -1 || g->dual[b] < delta)) {
                delta = g->dual[b];
                type = 4;
                dblossom = b;
            }
        if (type == -1) {
            type = 1;
            delta = INT64_MAX;
            for (int v = 0; v < n; v++)
                if (g->dual[v] < delta)
                    delta = g->dual[v];
            if (delta < 0)
                delta = 0;
        }
        for (int v = 0; v < n; v++) {
            int l = g->label[g->inblossom[v]];
            if (l == 1)
                g->dual[v] -= delta;
            else if (l == 2)
                g->dual[v] += delta;
        }
        for (int b = n; b < 2 * n; b++)
            if (g->base[b] >= 0 && g->parent[b] == -1) {
                if (g->label[b] == 1)
                    g->dual[b] += delta;
                else if (g->label[b] == 2)
                    g->dual[b] -= delta;
            }
        if (type == 1)
            return false;
        if (type == 2) {
            g->allowed[dedge] = 1;
            int i = g->endpt[2 * dedge], j = g->endpt[2 * dedge + 1];
            if (g->label[g->inblossom[i]] == 0)
                i = j;
            push_queue(g, i);
        } else if (type == 3) {
            g->allowed[dedge] = 1;
            push_queue(g, g->endpt[2 * dedge]);
        } else {
            expand_blossom(g, dblossom, false);
        }
    }
}

bool tn_match(const tn_costs *c, int *mate) { return tn_match_start(c, mate, true); }

bool tn_match_start(const tn_costs *c, int *mate, bool warm)
{
    int n = c->m;
    if (n <= 0)
        return true;
    if (n == 1) {
        mate[0] = -1;
        return true;
    }
    bm g;
    memset(&g, 0, sizeof g);
    g.n = n;
    g.nedge = (long)n * (n - 1) / 2;
    size_t n2 = (size_t)(2 * n);
    g.endpt = malloc(sizeof(int) * (size_t)(2 * g.nedge));
    g.w = malloc(sizeof(int64_t) * (size_t)g.nedge);
    g.neigh = malloc(sizeof(int) * (size_t)n * (size_t)(n - 1));
    g.mate = malloc(sizeof(int) * (size_t)n);
    g.label = malloc(sizeof(int) * n2);
    g.labelend = malloc(sizeof(int) * n2);
    g.inblossom = malloc(sizeof(int) * (size_t)n);
    g.parent = malloc(sizeof(int) * n2);
    g.base = malloc(sizeof(int) * n2);
    g.bestedge = malloc(sizeof(int) * n2);
    g.childs = calloc(n2, sizeof(int *));
    g.endps = calloc(n2, sizeof(int *));
    g.nchild = calloc(n2, sizeof(int));
    g.bestedges = calloc(n2, sizeof(int *));
    g.nbest = calloc(n2, sizeof(int));
    g.unused = malloc(sizeof(int) * (size_t)n);
    g.dual = malloc(sizeof(int64_t) * n2);
    g.allowed = malloc((size_t)g.nedge);
    g.capqueue = 2 * n;
    g.queue = malloc(sizeof(int) * (size_t)g.capqueue);
    g.bestto = malloc(sizeof(int) * n2);
    g.leaves = malloc(sizeof(int) * (size_t)n);
    if (!g.endpt || !g.w || !g.neigh || !g.mate || !g.label || !g.labelend || !g.inblossom ||
        !g.parent || !g.base || !g.bestedge || !g.childs || !g.endps || !g.nchild || !g.bestedges ||
        !g.nbest || !g.unused || !g.dual || !g.allowed || !g.queue || !g.bestto || !g.leaves) {
        bm_free(&g);
        return false;
    }
    int64_t maxcost = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (c->cost[(long)i * n + j] > maxcost)
                maxcost = c->cost[(long)i * n + j];
    long k = 0;
    int *fill = g.bestto; /* per vertex: neighbours filled so far */
    for (int i = 0; i < n; i++)
        fill[i] = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, k++) {
            g.endpt[2 * k] = i;
            g.endpt[2 * k + 1] = j;
            g.w[k] = 2 * (maxcost - c->cost[(long)i * n + j]); /* even: see above */
            g.neigh[(long)i * (n - 1) + fill[i]++] = (int)(2 * k + 1);
            g.neigh[(long)j * (n - 1) + fill[j]++] = (int)(2 * k);
        }
    /* a warm start: each vertex dual as low as the edges allow, taken in
     * order, then the tight edges matched greedily; both keep the
     * invariants (duals feasible, matched edges tight), and the stages
     * left are those of the vertices still free */
    int64_t maxw = 0;
    for (k = 0; k < g.nedge; k++)
        if (g.w[k] > maxw)
            maxw = g.w[k];
    for (int v = 0; v < n; v++) {
        g.mate[v] = -1;
        g.inblossom[v] = v;
        g.dual[v] = maxw; /* the textbook start */
        if (!warm)
            continue;
        for (int e = 0; e < n - 1; e++) {
            int64_t w = g.w[g.neigh[(long)v * (n - 1) + e] / 2];
            if (e == 0 || w > g.dual[v])
                g.dual[v] = w;
        }
    }
    for (int v = 0; v < n && warm; v++) {
        int64_t low = INT64_MIN;
        for (int e = 0; e < n - 1; e++) {
            int p = g.neigh[(long)v * (n - 1) + e];
            int64_t need = 2 * g.w[p / 2] - g.dual[g.endpt[p]];
            if (need > low)
                low = need;
        }
        g.dual[v] = low;
    }
    for (int v = 0; v < n && warm; v++)
        for (int e = 0; e < n - 1 && g.mate[v] < 0; e++) {
            int p = g.neigh[(long)v * (n - 1) + e];
            int j = g.endpt[p];
            if (g.mate[j] < 0 && slack(&g, p / 2) == 0) {
                g.mate[v] = p;
                g.mate[j] = p ^ 1;
            }
        }
    for (int b = 0; b < 2 * n; b++) {
        g.parent[b] = -1;
        g.base[b] = b < n ? b : -1;
        g.labelend[b] = -1;
        if (b >= n)
            g.dual[b] = 0;
    }
    g.nunused = 0;
    for (int b = 2 * n - 1; b >= n; b--)
        g.unused[g.nunused++] = b;
    for (int s = 0; s < n && !g.failed; s++) {
        if (!stage(&g))
            break;
        /* blossoms with a zero dual at the end of a stage are expanded */
        for (int b = n; b < 2 * n; b++)
            if (g.parent[b] == -1 && g.base[b] >= 0 && g.label[b] == 1 && g.dual[b] == 0)
                expand_blossom(&g, b, true);
    }
    bool ok = !g.failed;
    for (int v = 0; v < n; v++)
        mate[v] = g.mate[v] >= 0 ? g.endpt[g.mate[v]] : -1;
    bm_free(&g);
    return ok;
}
