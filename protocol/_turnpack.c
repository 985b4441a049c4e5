/* Optional C accelerator for the server's most frequent message: the msgpack bytes of a
 * your_turn body, written straight from the game state's fields.
 *
 * It holds no rule and decides nothing a seat may see: convert.your_turn_payload hands it
 * the fields seat_view_data_of reads, and it writes what msgpack makes of the data
 * your_turn_data_of builds from them, byte for byte (tests/test_protocol_turn_data.py
 * compares the two at every turn of many games, and on arbitrary values).  Anything
 * unusual (a declaration among the moves) it declines by returning None, and the Python
 * path makes the message.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

typedef struct {
    unsigned char *p;
    Py_ssize_t n, cap;
} Buf;

static unsigned char card_bytes[40][8]; /* each card's notation, packed as msgpack str */
static Py_ssize_t card_len[40];
static unsigned long long denari_mask;
static int settebello_bit = -1;
static int ready = 0;

static int
grow(Buf *b, Py_ssize_t extra)
{
    if (b->n + extra <= b->cap)
        return 0;
    Py_ssize_t cap = b->cap ? b->cap : 1024;
    while (cap < b->n + extra)
        cap *= 2;
    unsigned char *p = PyMem_Realloc(b->p, cap);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

static int
put(Buf *b, const void *s, Py_ssize_t len)
{
    if (grow(b, len) < 0)
        return -1;
    memcpy(b->p + b->n, s, len);
    b->n += len;
    return 0;
}

static int
put_be(Buf *b, unsigned char tag, unsigned long long v, int size)
{
    unsigned char t[9];
    t[0] = tag;
    for (int i = 0; i < size; i++)
        t[1 + i] = (unsigned char)(v >> (8 * (size - 1 - i)));
    return put(b, t, 1 + size);
}

/* Integers in their shortest form, as msgpack's packer writes them. */
static int
w_int(Buf *b, long long v)
{
    if (v < -(1LL << 5)) {
        if (v < -(1LL << 15))
            return v < -(1LL << 31) ? put_be(b, 0xd3, (unsigned long long)v, 8)
                                    : put_be(b, 0xd2, (unsigned long long)v, 4);
        return v < -(1LL << 7) ? put_be(b, 0xd1, (unsigned long long)v, 2)
                               : put_be(b, 0xd0, (unsigned long long)v, 1);
    }
    if (v < (1LL << 7)) {
        unsigned char c = (unsigned char)(v & 0xff);
        return put(b, &c, 1);
    }
    if (v < (1LL << 16))
        return v < (1LL << 8) ? put_be(b, 0xcc, v, 1) : put_be(b, 0xcd, v, 2);
    return v < (1LL << 32) ? put_be(b, 0xce, v, 4) : put_be(b, 0xcf, v, 8);
}

static int
w_head(Buf *b, Py_ssize_t n, unsigned char fix, unsigned char tag16, unsigned char tag32)
{
    if (n < 16) {
        unsigned char c = (unsigned char)(fix | n);
        return put(b, &c, 1);
    }
    return n < 0x10000 ? put_be(b, tag16, n, 2) : put_be(b, tag32, n, 4);
}

#define w_array(b, n) w_head((b), (n), 0x90, 0xdc, 0xdd)
#define w_map(b, n) w_head((b), (n), 0x80, 0xde, 0xdf)

/* A short ASCII key (fixstr). */
static int
w_key(Buf *b, const char *key)
{
    Py_ssize_t len = (Py_ssize_t)strlen(key);
    unsigned char c = (unsigned char)(0xa0 | len);
    if (put(b, &c, 1) < 0)
        return -1;
    return put(b, key, len);
}

static int
w_nil(Buf *b)
{
    unsigned char c = 0xc0;
    return put(b, &c, 1);
}

static int
w_bool(Buf *b, int v)
{
    unsigned char c = v ? 0xc3 : 0xc2;
    return put(b, &c, 1);
}

static int
w_card(Buf *b, long card)
{
    if (card < 0 || card >= 40) {
        PyErr_SetString(PyExc_ValueError, "not a card");
        return -1;
    }
    return put(b, card_bytes[card], card_len[card]);
}

/* The cards of a mask in id order, as an array of their notations. */
static int
w_mask(Buf *b, unsigned long long mask)
{
    if (mask >> 40) {
        PyErr_SetString(PyExc_ValueError, "not a card mask");
        return -1;
    }
    if (w_array(b, __builtin_popcountll(mask)) < 0)
        return -1;
    while (mask) {
        int card = __builtin_ctzll(mask);
        if (put(b, card_bytes[card], card_len[card]) < 0)
            return -1;
        mask &= mask - 1;
    }
    return 0;
}

static int
as_ll(PyObject *o, long long *out)
{
    *out = PyLong_AsLongLong(o);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int
as_mask(PyObject *o, unsigned long long *out)
{
    *out = PyLong_AsUnsignedLongLong(o);
    return (*out == (unsigned long long)-1 && PyErr_Occurred()) ? -1 : 0;
}

/* An array of the integers of a sequence (``transform``: 0 as they are, 1 their bit counts). */
static int
w_ints(Buf *b, PyObject *seq, int popcounts)
{
    PyObject *fast = PySequence_Fast(seq, "a sequence of integers is needed");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    int rc = w_array(b, n);
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        if (popcounts) {
            unsigned long long m;
            rc = as_mask(items[i], &m);
            if (rc == 0)
                rc = w_int(b, __builtin_popcountll(m));
        } else {
            long long v;
            rc = as_ll(items[i], &v);
            if (rc == 0)
                rc = w_int(b, v);
        }
    }
    Py_DECREF(fast);
    return rc;
}

static int
item_ll(PyObject *seq, Py_ssize_t i, long long *out)
{
    PyObject *o = PySequence_GetItem(seq, i);
    if (o == NULL)
        return -1;
    int rc = as_ll(o, out);
    Py_DECREF(o);
    return rc;
}

enum {
    A_EVENT, A_LEGAL, A_ROUND, A_DEALER, A_TURN, A_TABLE, A_STOCK, A_HANDS, A_PILES, A_SCOPE,
    A_SCOPA_CARDS, A_TOTALS, A_ROUND_PLAYS, A_LAST_CAPTURER, A_PRIMIERA, A_SEAT, A_SIDE, A_COUNT
};

/* The body, or 1 when a move is not a plain play (declined), or -1 on error. */
static int
write_turn(Buf *b, PyObject *const *a)
{
    long long v;
    unsigned long long m;

    PyObject *legal = PySequence_Fast(a[A_LEGAL], "legal must be a sequence");
    if (legal == NULL)
        return -1;
    Py_ssize_t nlegal = PySequence_Fast_GET_SIZE(legal);
    PyObject **moves = PySequence_Fast_ITEMS(legal);
    for (Py_ssize_t i = 0; i < nlegal; i++) {
        PyObject *mv = moves[i];
        if (!PyTuple_Check(mv) || PyTuple_GET_SIZE(mv) != 2 || !PyLong_CheckExact(PyTuple_GET_ITEM(mv, 0))) {
            Py_DECREF(legal);
            return 1; /* a declaration: the Python path writes it */
        }
    }
    int rc = w_map(b, 4);
    if (rc == 0)
        rc = w_key(b, "event");
    if (rc == 0)
        rc = as_ll(a[A_EVENT], &v);
    if (rc == 0)
        rc = w_int(b, v);
    if (rc == 0)
        rc = w_key(b, "legal");
    if (rc == 0)
        rc = w_array(b, nlegal);
    for (Py_ssize_t i = 0; rc == 0 && i < nlegal; i++) {
        long card = PyLong_AsLong(PyTuple_GET_ITEM(moves[i], 0));
        rc = (card == -1 && PyErr_Occurred()) ? -1 : 0;
        if (rc == 0)
            rc = as_mask(PyTuple_GET_ITEM(moves[i], 1), &m);
        if (rc == 0)
            rc = w_map(b, 3);
        if (rc == 0)
            rc = w_key(b, "index");
        if (rc == 0)
            rc = w_int(b, i);
        if (rc == 0)
            rc = w_key(b, "card");
        if (rc == 0)
            rc = w_card(b, card);
        if (rc == 0)
            rc = w_key(b, "capture");
        if (rc == 0)
            rc = w_mask(b, m);
    }
    Py_DECREF(legal);
    if (rc == 0)
        rc = w_key(b, "declarations");
    if (rc == 0)
        rc = w_array(b, 0);
    if (rc == 0)
        rc = w_key(b, "view");
    if (rc == 0)
        rc = w_map(b, 17);

    /* round, dealer, turn, table, stock */
    if (rc == 0)
        rc = w_key(b, "round");
    if (rc == 0)
        rc = as_ll(a[A_ROUND], &v);
    if (rc == 0)
        rc = w_int(b, v < 1 ? 1 : v);
    if (rc == 0)
        rc = w_key(b, "dealer");
    if (rc == 0)
        rc = as_ll(a[A_DEALER], &v);
    if (rc == 0)
        rc = w_int(b, v);
    if (rc == 0)
        rc = w_key(b, "turn");
    if (rc == 0)
        rc = as_ll(a[A_TURN], &v);
    if (rc == 0)
        rc = w_int(b, v);
    if (rc == 0)
        rc = w_key(b, "table");
    if (rc == 0)
        rc = as_mask(a[A_TABLE], &m);
    if (rc == 0)
        rc = w_mask(b, m);
    if (rc == 0)
        rc = w_key(b, "stock");
    if (rc == 0)
        rc = as_ll(a[A_STOCK], &v);
    if (rc == 0)
        rc = w_int(b, v);
    if (rc == 0)
        rc = w_key(b, "hand_sizes");
    if (rc == 0)
        rc = w_ints(b, a[A_HANDS], 1);

    /* captured: each side's pile */
    PyObject *piles = rc == 0 ? PySequence_Fast(a[A_PILES], "piles must be a sequence") : NULL;
    if (piles == NULL)
        return -1;
    Py_ssize_t npiles = PySequence_Fast_GET_SIZE(piles);
    PyObject **pile_items = PySequence_Fast_ITEMS(piles);
    rc = w_key(b, "captured");
    if (rc == 0)
        rc = w_array(b, npiles);
    for (Py_ssize_t i = 0; rc == 0 && i < npiles; i++) {
        rc = as_mask(pile_items[i], &m);
        if (rc == 0)
            rc = w_mask(b, m);
    }
    if (rc == 0)
        rc = w_key(b, "scope");
    if (rc == 0)
        rc = w_ints(b, a[A_SCOPE], 0);

    /* scopa_cards: each side's sweeping cards, in the order they swept */
    if (rc == 0)
        rc = w_key(b, "scopa_cards");
    if (rc == 0) {
        PyObject *sides = PySequence_Fast(a[A_SCOPA_CARDS], "scopa_cards must be a sequence");
        if (sides == NULL)
            rc = -1;
        else {
            Py_ssize_t ns = PySequence_Fast_GET_SIZE(sides);
            rc = w_array(b, ns);
            for (Py_ssize_t i = 0; rc == 0 && i < ns; i++) {
                PyObject *cards = PySequence_Fast(PySequence_Fast_GET_ITEM(sides, i), "cards must be a sequence");
                if (cards == NULL) {
                    rc = -1;
                    break;
                }
                Py_ssize_t nc = PySequence_Fast_GET_SIZE(cards);
                rc = w_array(b, nc);
                for (Py_ssize_t j = 0; rc == 0 && j < nc; j++) {
                    rc = as_ll(PySequence_Fast_GET_ITEM(cards, j), &v);
                    if (rc == 0)
                        rc = w_card(b, (long)v);
                }
                Py_DECREF(cards);
            }
            Py_DECREF(sides);
        }
    }
    if (rc == 0)
        rc = w_key(b, "totals");
    if (rc == 0)
        rc = w_ints(b, a[A_TOTALS], 0);
    if (rc == 0)
        rc = w_key(b, "declared");
    if (rc == 0)
        rc = w_array(b, 0); /* the caller sends a game with declared hands the Python way */

    /* round_plays: (seat, card, capture mask) of each play of the round */
    if (rc == 0)
        rc = w_key(b, "round_plays");
    if (rc == 0) {
        PyObject *plays = PySequence_Fast(a[A_ROUND_PLAYS], "round_plays must be a sequence");
        if (plays == NULL)
            rc = -1;
        else {
            Py_ssize_t np = PySequence_Fast_GET_SIZE(plays);
            rc = w_array(b, np);
            for (Py_ssize_t i = 0; rc == 0 && i < np; i++) {
                PyObject *play = PySequence_Fast_GET_ITEM(plays, i);
                long long seat, card;
                rc = item_ll(play, 0, &seat);
                if (rc == 0)
                    rc = item_ll(play, 1, &card);
                PyObject *cap = rc == 0 ? PySequence_GetItem(play, 2) : NULL;
                if (cap == NULL) {
                    rc = -1;
                    break;
                }
                rc = as_mask(cap, &m);
                Py_DECREF(cap);
                if (rc == 0)
                    rc = w_map(b, 3);
                if (rc == 0)
                    rc = w_key(b, "seat");
                if (rc == 0)
                    rc = w_int(b, seat);
                if (rc == 0)
                    rc = w_key(b, "card");
                if (rc == 0)
                    rc = w_card(b, (long)card);
                if (rc == 0)
                    rc = w_key(b, "captured");
                if (rc == 0)
                    rc = w_mask(b, m);
            }
            Py_DECREF(plays);
        }
    }
    if (rc == 0)
        rc = w_key(b, "last_capture_side");
    if (rc == 0)
        rc = as_ll(a[A_LAST_CAPTURER], &v);
    if (rc == 0)
        rc = v < 0 ? w_nil(b) : w_int(b, v);

    /* piles: the numbers of each side's pile */
    if (rc == 0)
        rc = w_key(b, "piles");
    if (rc == 0)
        rc = w_array(b, npiles);
    for (Py_ssize_t i = 0; rc == 0 && i < npiles; i++) {
        long long primiera, scope;
        rc = as_mask(pile_items[i], &m);
        if (rc == 0)
            rc = item_ll(a[A_PRIMIERA], i, &primiera);
        if (rc == 0)
            rc = item_ll(a[A_SCOPE], i, &scope);
        if (rc == 0)
            rc = w_map(b, 5);
        if (rc == 0)
            rc = w_key(b, "cards");
        if (rc == 0)
            rc = w_int(b, __builtin_popcountll(m));
        if (rc == 0)
            rc = w_key(b, "denari");
        if (rc == 0)
            rc = w_int(b, __builtin_popcountll(m & denari_mask));
        if (rc == 0)
            rc = w_key(b, "settebello");
        if (rc == 0)
            rc = w_bool(b, (int)(m >> settebello_bit & 1));
        if (rc == 0)
            rc = w_key(b, "primiera");
        if (rc == 0)
            rc = w_int(b, primiera);
        if (rc == 0)
            rc = w_key(b, "scope");
        if (rc == 0)
            rc = w_int(b, scope);
    }
    Py_DECREF(piles);

    /* seat, side, hand */
    long long seat = 0;
    if (rc == 0)
        rc = w_key(b, "seat");
    if (rc == 0)
        rc = as_ll(a[A_SEAT], &seat);
    if (rc == 0)
        rc = w_int(b, seat);
    if (rc == 0)
        rc = w_key(b, "side");
    if (rc == 0)
        rc = as_ll(a[A_SIDE], &v);
    if (rc == 0)
        rc = w_int(b, v);
    if (rc == 0)
        rc = w_key(b, "hand");
    if (rc == 0) {
        PyObject *hand = PySequence_GetItem(a[A_HANDS], (Py_ssize_t)seat);
        if (hand == NULL)
            rc = -1;
        else {
            rc = as_mask(hand, &m);
            Py_DECREF(hand);
            if (rc == 0)
                rc = w_mask(b, m);
        }
    }
    return rc;
}

/* your_turn(event, legal, round_no, dealer, to_move, table, stock, hands, piles, scope,
 *           scopa_cards, totals, round_plays, last_capturer, primiera, seat, side)
 *   -> bytes | None */
static PyObject *
your_turn(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "init() first");
        return NULL;
    }
    if (nargs != A_COUNT) {
        PyErr_Format(PyExc_TypeError, "your_turn takes %d arguments", A_COUNT);
        return NULL;
    }
    Buf b = {NULL, 0, 0};
    int rc = write_turn(&b, args);
    PyObject *out = NULL;
    if (rc == 0)
        out = PyBytes_FromStringAndSize((const char *)b.p, b.n);
    else if (rc > 0)
        out = Py_NewRef(Py_None);
    PyMem_Free(b.p);
    return out;
}

/* init(card_strs, denari_mask, settebello): the notation of the 40 cards (in id order)
 * and the engine's masks, so that this file keeps no copy of them. */
static PyObject *
init(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "init takes 3 arguments");
        return NULL;
    }
    PyObject *strs = PySequence_Fast(args[0], "card_strs must be a sequence");
    if (strs == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(strs) != 40) {
        Py_DECREF(strs);
        PyErr_SetString(PyExc_ValueError, "40 card notations are needed");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < 40; i++) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(PySequence_Fast_GET_ITEM(strs, i), &len);
        if (s == NULL || len > 7) {
            Py_DECREF(strs);
            if (s != NULL)
                PyErr_SetString(PyExc_ValueError, "a card notation is too long");
            return NULL;
        }
        card_bytes[i][0] = (unsigned char)(0xa0 | len);
        memcpy(card_bytes[i] + 1, s, len);
        card_len[i] = len + 1;
    }
    Py_DECREF(strs);
    denari_mask = PyLong_AsUnsignedLongLong(args[1]);
    long bit = PyLong_AsLong(args[2]);
    if (PyErr_Occurred())
        return NULL;
    if (bit < 0 || bit >= 40) {
        PyErr_SetString(PyExc_ValueError, "settebello must be a card");
        return NULL;
    }
    settebello_bit = (int)bit;
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"your_turn", (PyCFunction)(void (*)(void))your_turn, METH_FASTCALL,
     "The packed body of a your_turn, from the game state's fields (None: declined)."},
    {"init", (PyCFunction)(void (*)(void))init, METH_FASTCALL,
     "The card notations and the engine's masks the packer writes with."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_turnpack", "The packed your_turn, written in C.", -1, methods,
};

PyMODINIT_FUNC
PyInit__turnpack(void)
{
    return PyModule_Create(&module);
}
