/* Compiled kernel of hexwar's line of sight (R3.2-R3.6; issue 35).
 *
 * The same integer decisions as the numpy paths of hexwar.model.los (see its docstring): a
 * hex with scaled centre c is crossed by the segment from the origin to B = (3 dq, 2 dr + dq)
 * iff |f(c)| < m, f = Bx cy - By cx, m = max(|2By|, |Bx - By|, |Bx + By|); it lies between the
 * ends iff 0 < D < N, D = cx Bx + 3 cy By, N = Bx^2 + 3 By^2; it blocks iff
 * N (T - Ea) >= D (Eb - Ea), and hinders iff its hindrance top does (R3.4, R3.5). Spine pairs
 * (|f| == m on a line along a hexside direction, R3.3) block when both sides block and hinder
 * when each side blocks or hinders.
 *
 * Off the hexside directions the crossed hexes are walked in order of D: consecutive chords of
 * the segment meet on a side or at a vertex, and any two of the three hexes at a vertex share a
 * side, so the next crossed hex is the crossed neighbour with the least D above the current
 * one (no division, no candidate list). Lines along hexside directions (6 per viewer's row,
 * column and diagonals) test every candidate hex of every column, as _bulk_geometry does.
 *
 * Arrays are the padded flat arrays of hexwar.model.los.heights (_PAD = 2 never-blocking
 * cells around the map, row-major, Wp = width + 4), int64 doubled levels.
 *
 * Every product fits int64: |T - Ea| <= 2**31 and N < 2**31 on the maps the caller passes
 * (it checks the shape).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PAD 2

typedef int64_t i64;

static inline i64 iabs64(i64 a) { return a < 0 ? -a : a; }
static inline i64 imax64(i64 a, i64 b) { return a > b ? a : b; }
static inline i64 imin64(i64 a, i64 b) { return a < b ? a : b; }
/* floor division (b > 0) */
static inline i64 floordiv(i64 a, i64 b) { i64 q = a / b; if ((a % b != 0) && (a < 0)) q -= 1; return q; }
/* floor(a / 2) for any sign */
static inline i64 half(i64 a) { return (a - (a & 1)) / 2; }

/* axial neighbours (q, r) */
static const int NQ[6] = {1, 1, 0, -1, -1, 0};
static const int NR[6] = {0, -1, -1, 0, 1, 1};

typedef struct {
    const i64 *bt, *ht, *lv;
    i64 wp;
} Map;

typedef struct {
    i64 d;
    i64 x;  /* padded flat index */
    i64 y;  /* partner of a spine side (-1 for an intervening hex) */
} Step;

static int step_cmp(const void *a, const void *b) {
    const Step *p = (const Step *)a, *q = (const Step *)b;
    if (p->d != q->d) return p->d < q->d ? -1 : 1;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    if (p->y != q->y) return p->y < q->y ? -1 : 1;
    return 0;
}

/* Padded flat displacement of axial (q, r) from a hex in a column of parity par. */
static inline i64 rel(i64 q, i64 r, int par, i64 wp) { return (r + half(q + par)) * wp + q; }

/* Every crossed hex and spine pair of the segment to axial (dq, dr) (any direction), sorted
 * by (D, x, y) like the Python single query (intervening hexes y = -1; a pair's x is its side
 * with f > 0). scratch holds cap steps. Returns the number of steps written, -1 when cap is
 * too small. */
static i64 candidate_steps(i64 dq, i64 dr, int par, i64 base, i64 wp, Step *out, Step *sides, i64 cap) {
    i64 bx = 3 * dq, by = 2 * dr + dq;
    i64 n = bx * bx + 3 * by * by;
    i64 m = imax64(iabs64(2 * by), imax64(iabs64(bx - by), iabs64(bx + by)));
    int spine = ((by == 0) || (bx == by) || (bx == -by)) && n > 0;
    i64 cnt = 0, ns = 0;
    for (i64 iq = imin64(dq, 0); iq <= imax64(dq, 0); iq++) {
        i64 lo, hi;
        if (bx == 0) {
            lo = imin64(0, by);
            hi = imax64(0, by);
        } else {
            i64 sg = bx < 0 ? -1 : 1, den = iabs64(bx);
            i64 c = 3 * by * iq * sg;
            lo = -floordiv(m - c, den);
            hi = floordiv(c + m, den);
        }
        lo += (lo - iq) & 1;
        for (i64 s = lo; s <= hi; s += 2) {
            i64 f = bx * s - by * 3 * iq;
            i64 d = 3 * iq * bx + 3 * s * by;
            if (!(d > 0 && d < n)) continue;
            i64 af = iabs64(f);
            i64 r = half(s - iq);
            if (af < m) {
                if (cnt >= cap) return -1;
                out[cnt].d = d;
                out[cnt].x = base + rel(iq, r, par, wp);
                out[cnt].y = -1;
                cnt++;
            } else if (af == m && spine) {
                if (ns >= cap) return -1;
                sides[ns].d = 2 * d + (f < 0);
                sides[ns].x = base + rel(iq, r, par, wp);
                sides[ns].y = 0;
                ns++;
            }
        }
    }
    if (ns) {
        /* by (D, f < 0): each D has one side with f > 0 and then its partner */
        qsort(sides, (size_t)ns, sizeof(Step), step_cmp);
        if (ns & 1) return -2;
        for (i64 i = 0; i < ns; i += 2) {
            if (cnt >= cap) return -1;
            if ((sides[i].d >> 1) != (sides[i + 1].d >> 1) || (sides[i].d & 1) || !(sides[i + 1].d & 1)) return -2;
            out[cnt].d = sides[i].d >> 1;
            out[cnt].x = sides[i].x;
            out[cnt].y = sides[i + 1].x;
            cnt++;
        }
    }
    qsort(out, (size_t)cnt, sizeof(Step), step_cmp);
    return cnt;
}

/* Forward steps of the walk along the segment to B: the neighbour directions with dD > 0
 * (two or three), sorted by dD, so the next crossed hex is the first of them whose |f| < m. */
typedef struct {
    i64 df[3], dd[3];
    i64 dx[6];  /* [column parity * 3 + j] */
    int odd[3];
    i64 n, m;
} Walk;

static inline int along_side(i64 dq, i64 dr) {
    i64 bx = 3 * dq, by = 2 * dr + dq;
    return by == 0 || bx == by || bx == -by;
}

static inline void walk_init(Walk *w, i64 dq, i64 dr, i64 wp) {
    i64 bx = 3 * dq, by = 2 * dr + dq;
    w->n = bx * bx + 3 * by * by;
    w->m = imax64(iabs64(2 * by), imax64(iabs64(bx - by), iabs64(bx + by)));
    int nf = 0;
    int js[3];
    i64 dds[3];
    for (int j = 0; j < 6; j++) {
        i64 cx = 3 * NQ[j], cy = 2 * NR[j] + NQ[j];
        i64 dd = cx * bx + 3 * cy * by;
        if (dd <= 0) continue;
        int k = nf++;
        while (k > 0 && dds[k - 1] > dd) { /* insertion by dD */
            dds[k] = dds[k - 1];
            js[k] = js[k - 1];
            k--;
        }
        dds[k] = dd;
        js[k] = j;
    }
    if (nf == 2) { /* never taken (one of the first two is always crossed): a copy of the last */
        js[2] = js[1];
        dds[2] = dds[1];
    }
    for (int k = 0; k < 3; k++) {
        int j = js[k];
        i64 cx = 3 * NQ[j], cy = 2 * NR[j] + NQ[j];
        w->df[k] = bx * cy - by * cx;
        w->dd[k] = dds[k];
        w->odd[k] = NQ[j] & 1;
        for (int p = 0; p < 2; p++) /* from a column of parity p, NQ columns over: the row
                                       index changes by floor((p + NQ) / 2) */
            w->dx[p * 3 + k] = (NR[j] + half(p + NQ[j])) * wp + NQ[j];
    }
}

/* The next crossed hex of a walk: updates f, d, x, cp; 0 at the far end (D = N). */
static inline int walk_next(const Walk *w, i64 *f, i64 *d, i64 *x, int *cp) {
    const i64 m = w->m;
    i64 a0 = *f + w->df[0], a1 = *f + w->df[1], a2 = *f + w->df[2];
    int c0 = (a0 < m) & (a0 > -m), c1 = (a1 < m) & (a1 > -m);
    i64 d0 = *d + w->dd[0], d1 = *d + w->dd[1], d2 = *d + w->dd[2];
    const i64 *dx = w->dx + *cp * 3;
    i64 x0 = *x + dx[0], x1 = *x + dx[1], x2 = *x + dx[2];
    int p0 = *cp ^ w->odd[0], p1 = *cp ^ w->odd[1], p2 = *cp ^ w->odd[2];
    i64 fn = c1 ? a1 : a2, dn = c1 ? d1 : d2, xn = c1 ? x1 : x2;
    int pn = c1 ? p1 : p2;
    fn = c0 ? a0 : fn;
    dn = c0 ? d0 : dn;
    xn = c0 ? x0 : xn;
    pn = c0 ? p0 : pn;
    if (dn >= w->n) return 0;
    *f = fn;
    *d = dn;
    *x = xn;
    *cp = pn;
    return 1;
}

/* Padded flat displacement of neighbour direction j (0..5) from a column of parity p:
 * dxt[p * 6 + j] (one table per map width). */
static inline void dx_table(i64 wp, i64 *dxt) {
    for (int p = 0; p < 2; p++)
        for (int j = 0; j < 6; j++) dxt[p * 6 + j] = (NR[j] + half(p + NQ[j])) * wp + NQ[j];
}

/* Status (0 clear, 1 hindered, 2 blocked) of a line off the hexside directions; *hind gets
 * the hindrance count (0 when blocked). gb, gh: T - Ea per padded cell (block and hindrance
 * tops). The line is walked from both ends at once (a block next to either end ends it
 * early); the two walks meet and every crossed hex is judged once, at its D from a. The walk
 * from b takes the opposite directions with the same steps in f and D (f and D of the
 * reversed segment: B -> -B and e -> -e leave Bx ey - By ex and e . B unchanged). */
static inline int judge_walk(const int32_t *gb, const int32_t *gh, const i64 *dxt, i64 fa, int pa, i64 fb,
                             int pb, i64 dq, i64 dr, i64 k, int any_hind, i64 *hind_out) {
    const i64 bx = 3 * dq, by = 2 * dr + dq;
    const i64 n = bx * bx + 3 * by * by;
    const i64 m = imax64(iabs64(2 * by), imax64(iabs64(bx - by), iabs64(bx + by)));
    /* the three direction pairs (1,0)/(-1,0), (1,-1)/(-1,1), (0,-1)/(0,1): scaled (3,1), (3,-1), (0,-2) */
    i64 dd[3] = {3 * bx + 3 * by, 3 * bx - 3 * by, -6 * by};
    i64 df[3] = {bx - 3 * by, -bx - 3 * by, -2 * bx};
    int jf[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++)
        if (dd[i] < 0) {
            dd[i] = -dd[i];
            df[i] = -df[i];
            jf[i] += 3;
        }
    /* sort by dd; a zero step (a direction square to B) goes last, never taken */
    i64 key[3];
    for (int i = 0; i < 3; i++) key[i] = dd[i] > 0 ? dd[i] : INT64_MAX;
#define SWAP(i, j)                                                               \
    if (key[j] < key[i]) {                                                       \
        i64 t_ = key[i]; key[i] = key[j]; key[j] = t_;                           \
        t_ = dd[i]; dd[i] = dd[j]; dd[j] = t_;                                   \
        t_ = df[i]; df[i] = df[j]; df[j] = t_;                                   \
        int u_ = jf[i]; jf[i] = jf[j]; jf[j] = u_;                               \
    }
    SWAP(0, 1) SWAP(1, 2) SWAP(0, 1)
#undef SWAP
    if (dd[2] == 0) { /* a copy of the second: one of the first two is always crossed */
        dd[2] = dd[1];
        df[2] = df[1];
        jf[2] = jf[1];
    }
    const i64 df0 = df[0], df1 = df[1], df2 = df[2], dd0 = dd[0], dd1 = dd[1], dd2 = dd[2];
    const int od0 = NQ[jf[0] % 6] & 1, od1 = NQ[jf[1] % 6] & 1, od2 = NQ[jf[2] % 6] & 1;
    /* steps of the padded flat index: forward direction jf[i], backward the opposite one */
    const i64 *xa0 = dxt + jf[0] % 6, *xa1 = dxt + jf[1] % 6, *xa2 = dxt + jf[2] % 6;
    const i64 *xb0 = dxt + (jf[0] + 3) % 6, *xb1 = dxt + (jf[1] + 3) % 6, *xb2 = dxt + (jf[2] + 3) % 6;
    i64 f = 0, d = 0, x = fa, g = 0, e = 0, y = fb, hind = 0;
    int cp = pa, cq = pb;
    for (;;) {
        /* forward: the first of the sorted directions whose hex the segment crosses */
        i64 a0 = f + df0, a1 = f + df1;
        int c0 = (a0 < m) & (a0 > -m), c1 = (a1 < m) & (a1 > -m);
        i64 fn = c1 ? a1 : f + df2, dn = c1 ? d + dd1 : d + dd2, xn = c1 ? x + xa1[cp * 6] : x + xa2[cp * 6];
        int pn = c1 ? cp ^ od1 : cp ^ od2;
        if (c0) {
            fn = a0;
            dn = d + dd0;
            xn = x + xa0[cp * 6];
            pn = cp ^ od0;
        }
        if (dn >= n - e) break; /* reached the other walk (or b) */
        f = fn;
        d = dn;
        x = xn;
        cp = pn;
        i64 dk = d * k;
        if (n * gb[x] >= dk) {
            *hind_out = 0;
            return 2;
        }
        if (any_hind && n * gh[x] >= dk) hind++;
        /* backward from b */
        a0 = g + df0;
        a1 = g + df1;
        c0 = (a0 < m) & (a0 > -m);
        c1 = (a1 < m) & (a1 > -m);
        fn = c1 ? a1 : g + df2;
        dn = c1 ? e + dd1 : e + dd2;
        xn = c1 ? y + xb1[cq * 6] : y + xb2[cq * 6];
        pn = c1 ? cq ^ od1 : cq ^ od2;
        if (c0) {
            fn = a0;
            dn = e + dd0;
            xn = y + xb0[cq * 6];
            pn = cq ^ od0;
        }
        if (n - dn <= d) break;
        g = fn;
        e = dn;
        y = xn;
        cq = pn;
        dk = (n - e) * k; /* D from a */
        if (n * gb[y] >= dk) {
            *hind_out = 0;
            return 2;
        }
        if (any_hind && n * gh[y] >= dk) hind++;
    }
    *hind_out = hind;
    return hind ? 1 : 0;
}

/* Status of a line given its sorted steps (candidate_steps); *blk gets the index of the first
 * blocking step or -1. */
static int judge_steps(const Map *mp, const Step *st, i64 cnt, i64 n, i64 ea, i64 k, i64 *hind_out, i64 *blk) {
    const i64 *bt = mp->bt, *ht = mp->ht;
    i64 hind = 0;
    for (i64 i = 0; i < cnt; i++) {
        i64 dk = st[i].d * k, x = st[i].x, y = st[i].y;
        if (y < 0) {
            if (n * (bt[x] - ea) >= dk) { *blk = i; *hind_out = 0; return 2; }
            if (n * (ht[x] - ea) >= dk) hind++;
        } else {
            int bxx = n * (bt[x] - ea) >= dk, byy = n * (bt[y] - ea) >= dk;
            if (bxx && byy) { *blk = i; *hind_out = 0; return 2; }
            if ((bxx || n * (ht[x] - ea) >= dk) && (byy || n * (ht[y] - ea) >= dk)) hind++;
        }
    }
    *blk = -1;
    *hind_out = hind;
    return hind ? 1 : 0;
}

/* ---------------------------------------------------------------------------------------- */
static int get_map(Py_buffer *b, Py_buffer *h, Py_buffer *l, i64 wp, i64 H, i64 W, Map *mp) {
    i64 cells = (H + 2 * PAD) * wp;
    if (wp != W + 2 * PAD || b->len < cells * 8 || h->len < cells * 8 || l->len < cells * 8) {
        PyErr_SetString(PyExc_ValueError, "height arrays do not match the map shape");
        return -1;
    }
    mp->bt = (const i64 *)b->buf;
    mp->ht = (const i64 *)h->buf;
    mp->lv = (const i64 *)l->buf;
    mp->wp = wp;
    return 0;
}

/* visibility(bt, ht, lv, H, W, col, row, any_hind, status, counts) */
static PyObject *k_visibility(PyObject *self, PyObject *args) {
    Py_buffer b, h, l, so, co;
    Py_ssize_t H, W, col, row;
    int any_hind;
    if (!PyArg_ParseTuple(args, "y*y*y*nnnnpw*w*", &b, &h, &l, &H, &W, &col, &row, &any_hind, &so, &co))
        return NULL;
    PyObject *ret = NULL;
    Map mp;
    i64 wp = W + 2 * PAD;
    Step *buf = NULL, *side = NULL;
    if (get_map(&b, &h, &l, wp, H, W, &mp) < 0) goto done;
    if (so.len < H * W || co.len < H * W * 8) {
        PyErr_SetString(PyExc_ValueError, "output arrays too small");
        goto done;
    }
    i64 cap = 4 * (H + W) + 64;
    buf = (Step *)malloc(sizeof(Step) * cap);
    side = (Step *)malloc(sizeof(Step) * cap);
    if (!buf || !side) {
        PyErr_NoMemory();
        goto done;
    }
    i64 cells = (H + 2 * PAD) * wp;
    int32_t *gb = (int32_t *)malloc(sizeof(int32_t) * cells), *gh = (int32_t *)malloc(sizeof(int32_t) * cells);
    if (!gb || !gh) {
        free(gb);
        free(gh);
        PyErr_NoMemory();
        goto done;
    }
    int8_t *status = (int8_t *)so.buf;
    i64 *counts = (i64 *)co.buf;
    int par = (int)(col & 1);
    i64 fa = (row + PAD) * wp + col + PAD;
    i64 ea = mp.lv[fa] + 1;
    i64 ra = row - half(col);
    int bad = 0;
    i64 dxt[12];
    dx_table(wp, dxt);
    Py_BEGIN_ALLOW_THREADS
    for (i64 i = 0; i < cells; i++) { /* tops are doubled levels, or +-10**9: int32 */
        gb[i] = (int32_t)(mp.bt[i] - ea);
        gh[i] = (int32_t)(mp.ht[i] - ea);
    }
    for (i64 tc = 0; tc < W && !bad; tc++) {
        i64 dq = tc - col;
        for (i64 tr = 0; tr < H; tr++) {
            i64 dr = (tr - half(tc)) - ra;
            i64 fb = (tr + PAD) * wp + tc + PAD;
            i64 o = tr * W + tc, hind = 0;
            int s;
            if (iabs64(dq) <= 1 && iabs64(dr) <= 1 && iabs64(dq + dr) <= 1) {
                s = 0;
            } else {
                i64 k = mp.lv[fb] + 1 - ea;
                if (!along_side(dq, dr)) {
                    s = judge_walk(gb, gh, dxt, fa, par, fb, (int)(tc & 1), dq, dr, k, any_hind, &hind);
                } else {
                    i64 blk, cnt = candidate_steps(dq, dr, par, fa, wp, buf, side, cap);
                    if (cnt < 0) { bad = 1; break; }
                    i64 bx = 3 * dq, by = 2 * dr + dq;
                    s = judge_steps(&mp, buf, cnt, bx * bx + 3 * by * by, ea, k, &hind, &blk);
                }
            }
            status[o] = (int8_t)s;
            counts[o] = hind;
        }
    }
    Py_END_ALLOW_THREADS
    free(gb);
    free(gh);
    if (bad) {
        PyErr_SetString(PyExc_RuntimeError, "hexside line longer than the kernel's buffer");
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    free(buf);
    free(side);
    PyBuffer_Release(&b);
    PyBuffer_Release(&h);
    PyBuffer_Release(&l);
    PyBuffer_Release(&so);
    PyBuffer_Release(&co);
    return ret;
}

/* query(bt, ht, lv, H, W, ca, ra, cb, rb, out_i, out_l, out_r)
 *   -> (n, n_inter, n_pairs, blocking flat or -1, its D, hindrances)
 * out_i gets the padded flat index of each intervening hex in order from a, out_l / out_r
 * those of each spine pair (int64). */
static PyObject *k_query(PyObject *self, PyObject *args) {
    Py_buffer b, h, l, oi, ol, orr;
    Py_ssize_t H, W, ca, ra, cb, rb;
    if (!PyArg_ParseTuple(args, "y*y*y*nnnnnnw*w*w*", &b, &h, &l, &H, &W, &ca, &ra, &cb, &rb, &oi, &ol, &orr))
        return NULL;
    PyObject *ret = NULL;
    Map mp;
    i64 wp = W + 2 * PAD;
    Step *buf = NULL, *side = NULL;
    if (get_map(&b, &h, &l, wp, H, W, &mp) < 0) goto done;
    i64 cap = oi.len / 8;
    if (ol.len / 8 < cap || orr.len / 8 < cap) {
        PyErr_SetString(PyExc_ValueError, "output arrays differ in size");
        goto done;
    }
    i64 *pi = (i64 *)oi.buf, *pl = (i64 *)ol.buf, *pr = (i64 *)orr.buf;
    int par = (int)(ca & 1);
    i64 fa = (ra + PAD) * wp + ca + PAD, fb = (rb + PAD) * wp + cb + PAD;
    i64 dq = cb - ca, dr = (rb - half(cb)) - (ra - half(ca));
    i64 ea = mp.lv[fa] + 1, k = mp.lv[fb] + 1 - ea;
    i64 bx = 3 * dq, by = 2 * dr + dq, n = bx * bx + 3 * by * by;
    i64 ni = 0, np_ = 0, blk = -1, blk_d = 0, hind = 0;
    if (!along_side(dq, dr)) {
        Walk w;
        walk_init(&w, dq, dr, wp);
        i64 f = 0, d = 0, x = fa;
        int cp = par;
        while (walk_next(&w, &f, &d, &x, &cp)) {
            if (ni >= cap) goto small;
            pi[ni++] = x;
            if (blk >= 0) continue;
            i64 dk = d * k;
            if (n * (mp.bt[x] - ea) >= dk) {
                blk = x;
                blk_d = d;
            } else if (n * (mp.ht[x] - ea) >= dk) {
                hind++;
            }
        }
    } else {
        buf = (Step *)malloc(sizeof(Step) * cap);
        side = (Step *)malloc(sizeof(Step) * cap);
        if (!buf || !side) {
            PyErr_NoMemory();
            goto done;
        }
        i64 cnt = candidate_steps(dq, dr, par, fa, wp, buf, side, cap);
        if (cnt < 0) goto small;
        i64 bi;
        judge_steps(&mp, buf, cnt, n, ea, k, &hind, &bi);
        if (bi >= 0) {
            blk = buf[bi].x;
            blk_d = buf[bi].d;
        }
        for (i64 i = 0; i < cnt; i++) {
            if (buf[i].y < 0) pi[ni++] = buf[i].x;
            else {
                pl[np_] = buf[i].x;
                pr[np_++] = buf[i].y;
            }
        }
    }
    if (blk >= 0) hind = 0;
    ret = Py_BuildValue("(LLLLLL)", (long long)n, (long long)ni, (long long)np_, (long long)blk,
                        (long long)blk_d, (long long)hind);
    goto done;
small:
    PyErr_SetString(PyExc_ValueError, "output arrays too small for the line");
done:
    free(buf);
    free(side);
    PyBuffer_Release(&b);
    PyBuffer_Release(&h);
    PyBuffer_Release(&l);
    PyBuffer_Release(&oi);
    PyBuffer_Release(&ol);
    PyBuffer_Release(&orr);
    return ret;
}

/* geometry(dq, dr, out_q, out_r, out_d) -> n_inter: the intervening hexes (axial, relative)
 * and D of a line off the hexside directions, by the walk (for the tests). */
static PyObject *k_geometry(PyObject *self, PyObject *args) {
    Py_ssize_t dq, dr;
    Py_buffer oq, orr, od;
    if (!PyArg_ParseTuple(args, "nnw*w*w*", &dq, &dr, &oq, &orr, &od)) return NULL;
    PyObject *ret = NULL;
    i64 cap = oq.len / 8;
    if (along_side(dq, dr)) {
        PyErr_SetString(PyExc_ValueError, "a line along a hexside direction");
        goto done;
    }
    if (orr.len / 8 < cap || od.len / 8 < cap) {
        PyErr_SetString(PyExc_ValueError, "output arrays differ in size");
        goto done;
    }
    {
        /* walk with a unit-free index: x = r * stride + q on a wide virtual grid */
        Walk w;
        const i64 stride = 1 << 20;
        walk_init(&w, dq, dr, stride);
        i64 f = 0, d = 0, x = 0, q = 0, ni = 0;
        int cp = 0;
        i64 *pq = (i64 *)oq.buf, *pr = (i64 *)orr.buf, *pd = (i64 *)od.buf;
        while (walk_next(&w, &f, &d, &x, &cp)) {
            if (ni >= cap) {
                PyErr_SetString(PyExc_ValueError, "output arrays too small for the line");
                goto done;
            }
            (void)q;
            /* x = (r + floor(q / 2)) * stride + q with |q| < stride / 2 */
            i64 qq = x - floordiv(x + stride / 2, stride) * stride;
            i64 row = (x - qq) / stride;
            pq[ni] = qq;
            pr[ni] = row - half(qq);
            pd[ni] = d;
            ni++;
        }
        ret = PyLong_FromLongLong((long long)ni);
    }
done:
    PyBuffer_Release(&oq);
    PyBuffer_Release(&orr);
    PyBuffer_Release(&od);
    return ret;
}

static PyMethodDef methods[] = {
    {"visibility", k_visibility, METH_VARARGS, "One viewer against every hex of the map (R3)."},
    {"query", k_query, METH_VARARGS, "One line of sight (R3)."},
    {"geometry", k_geometry, METH_VARARGS, "Intervening hexes of one offset by the walk (R3.2)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_ckernel",
                                       "Compiled line-of-sight kernel of hexwar.model.los (issue 35).", -1,
                                       methods};

PyMODINIT_FUNC PyInit__ckernel(void) { return PyModule_Create(&moduledef); }
