/*
 * match.c - LZ77 match finder for lz_compress: a multiplicative hash of the
 * next three bytes heads a chain of earlier positions (head/prev arrays over
 * a 32 KB window); greedy parsing for fast levels, one-step lazy evaluation
 * (as in deflate) otherwise.  Produces tokens in resumable batches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lz.h"

#define HASH_BITS 15
#define HASH_SIZE (1 << HASH_BITS)
#define WMASK (WSIZE - 1)
#define TOO_FAR 4096

struct matcher {
    const uint8_t *data;
    size_t n, pos;
    level_t lv;
    int32_t *head, *prev;
    int match_len, prev_len;
    int match_dist, prev_dist;
    int match_available;
    uint64_t chain_steps;
};

static void *zalloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p) {
        fprintf(stderr, "lz_compress: out of memory\n");
        exit(2);
    }
    return p;
}

matcher_t *matcher_new(const uint8_t *data, size_t n, const level_t *lv)
{
    matcher_t *m = zalloc(sizeof(*m));
    m->data = data;
    m->n = n;
    m->lv = *lv;
    m->head = zalloc(HASH_SIZE * sizeof(int32_t));
    m->prev = zalloc(WSIZE * sizeof(int32_t));
    memset(m->head, 0xFF, HASH_SIZE * sizeof(int32_t));
    m->match_len = m->prev_len = MIN_MATCH - 1;
    return m;
}

void matcher_free(matcher_t *m)
{
    free(m->head);
    free(m->prev);
    free(m);
}

uint64_t matcher_chain_steps(const matcher_t *m)
{
    return m->chain_steps;
}

static inline uint32_t hash3(const uint8_t *p)
{
    uint32_t v = ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* Link position pos into its hash chain; returns the previous chain head. */
static int32_t insert_string(matcher_t *m, size_t pos)
{
    if (pos + MIN_MATCH > m->n)
        return -1;
    uint32_t h = hash3(m->data + pos);
    int32_t old = m->head[h];
    m->prev[pos & WMASK] = old;
    m->head[h] = (int32_t)pos;
    return old;
}

static int common_length(const uint8_t *a, const uint8_t *b, int maxlen)
{
    int len = 0;
    while (len + 4 <= maxlen && a[len] == b[len] && a[len + 1] == b[len + 1] &&
           a[len + 2] == b[len + 2] && a[len + 3] == b[len + 3])
        len += 4;
    while (len < maxlen && a[len] == b[len])
        len++;
    return len;
}

/* Walk the chain from cur; returns best length (> prev best) in m->match_*. */
static int longest_match(matcher_t *m, int32_t cur, int best_len)
{
    const uint8_t *scan = m->data + m->pos;
    int maxlen = (int)(m->n - m->pos < MAX_MATCH ? m->n - m->pos : MAX_MATCH);
    long limit = (long)m->pos - MAX_DIST;
    int chain = m->lv.max_chain;
    int found = MIN_MATCH - 1;
    if (best_len >= m->lv.good_len)
        chain >>= 2;
    if (maxlen <= best_len)
        return found;
    while (cur >= 0 && cur > limit && chain-- > 0) {
        const uint8_t *match = m->data + cur;
        m->chain_steps++;
        if (match[best_len] == scan[best_len] &&
            match[best_len - 1] == scan[best_len - 1] &&
            match[0] == scan[0] && match[1] == scan[1]) {
            int len = common_length(scan, match, maxlen);
            if (len > best_len) {
                best_len = found = len;
                m->match_dist = (int)(m->pos - (size_t)cur);
                if (len >= m->lv.nice_len || len >= maxlen)
                    break;
            }
        }
        cur = m->prev[cur & WMASK];
    }
    return found;
}

static void put_literal(token_t *t, uint8_t c)
{
    t->lit_or_len = c;
    t->dist = 0;
}

static void put_match(token_t *t, int len, int dist)
{
    t->lit_or_len = TOKEN_MATCH | (uint32_t)len;
    t->dist = (uint16_t)dist;
}

static size_t tokens_greedy(matcher_t *m, token_t *tok, size_t maxtok)
{
    size_t nt = 0;
    while (m->pos < m->n && nt < maxtok) {
        int32_t head = insert_string(m, m->pos);
        int len = MIN_MATCH - 1;
        if (head >= 0)
            len = longest_match(m, head, MIN_MATCH - 1);
        if (len >= MIN_MATCH) {
            put_match(&tok[nt++], len, m->match_dist);
            size_t end = m->pos + (size_t)len;
            if (len <= m->lv.nice_len / 4)
                for (m->pos++; m->pos < end; m->pos++)
                    insert_string(m, m->pos);
            m->pos = end;
        } else {
            put_literal(&tok[nt++], m->data[m->pos++]);
        }
    }
    return nt;
}

static size_t tokens_lazy(matcher_t *m, token_t *tok, size_t maxtok)
{
    size_t nt = 0;
    while (m->pos < m->n && nt < maxtok) {
        int32_t head = insert_string(m, m->pos);
        m->prev_len = m->match_len;
        m->prev_dist = m->match_dist;
        m->match_len = MIN_MATCH - 1;
        if (head >= 0 && m->prev_len < m->lv.lazy_limit) {
            m->match_len = longest_match(m, head, m->prev_len);
            if (m->match_len == MIN_MATCH && m->match_dist > TOO_FAR)
                m->match_len = MIN_MATCH - 1;
        }
        if (m->prev_len >= MIN_MATCH && m->match_len <= m->prev_len) {
            put_match(&tok[nt++], m->prev_len, m->prev_dist);
            size_t end = m->pos - 1 + (size_t)m->prev_len;
            for (m->pos++; m->pos < end; m->pos++)
                insert_string(m, m->pos);
            m->match_available = 0;
            m->match_len = MIN_MATCH - 1;
        } else if (m->match_available) {
            put_literal(&tok[nt++], m->data[m->pos - 1]);
            m->pos++;
        } else {
            m->match_available = 1;
            m->pos++;
        }
    }
    if (m->pos >= m->n && m->match_available && nt < maxtok) {
        put_literal(&tok[nt++], m->data[m->pos - 1]);
        m->match_available = 0;
    }
    return nt;
}

size_t matcher_tokens(matcher_t *m, token_t *tok, size_t maxtok, int *done)
{
    size_t nt = m->lv.lazy_limit ? tokens_lazy(m, tok, maxtok)
                                 : tokens_greedy(m, tok, maxtok);
    *done = m->pos >= m->n && !m->match_available;
    return nt;
}
