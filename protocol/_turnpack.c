/* The C twin of scopa.protocol.seatdata.your_turn: the msgpack bytes of a your_turn body
 * (the server's most frequent message), written from integers and sequences of them.
 *
 * It reads no game object, holds no rule and decides nothing a seat may see: the caller
 * hands it the fields seatdata.seat_view_fields_data reads, and it writes what msgpack
 * makes of the data the Python twin builds from them, byte for byte
 * (tests/test_protocol_turn_data.py runs both twins over every turn of many games, and
 * over arbitrary values).  Like its twin it packs plays only: a turn with a declaration
 * or a declared hand is the caller's to pack the general way.
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

/* A key, then an integer: given, or read from a Python int. */
static int
w_key_int(Buf *b, const char *key, long long v)
{
    return w_key(b, key) < 0 ? -1 : w_int(b, v);
}

static int
w_key_obj(Buf *b, const char *key, PyObject *o)
{
    long long v;
    return as_ll(o, &v) < 0 ? -1 : w_key_int(b, key, v);
}

/* A key, then the cards of a mask (a Python int). */
static int
w_key_mask(Buf *b, const char *key, PyObject *o)
{
    unsigned long long m;
    if (as_mask(o, &m) < 0 || w_key(b, key) < 0)
        return -1;
    return w_mask(b, m);
}

/* The cards of a sequence of card ids, in its order. */
static int
w_cards(Buf *b, PyObject *seq)
{
    PyObject *cards = PySequence_Fast(seq, "cards must be a sequence");
    if (cards == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(cards);
    int rc = w_array(b, n);
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        long long card;
        rc = as_ll(PySequence_Fast_GET_ITEM(cards, i), &card);
        if (rc == 0)
            rc = w_card(b, (long)card);
    }
    Py_DECREF(cards);
    return rc;
}

#define TRY(x)              \
    do {                    \
        if ((x) < 0)        \
            goto fail;      \
    } while (0)

/* One play of the round: (seat, card, capture mask). */
static int
w_round_play(Buf *b, PyObject *play)
{
    long long seat, card;
    unsigned long long m;
    PyObject *capture = NULL;
    TRY(item_ll(play, 0, &seat));
    TRY(item_ll(play, 1, &card));
    capture = PySequence_GetItem(play, 2);
    if (capture == NULL)
        goto fail;
    TRY(as_mask(capture, &m));
    Py_CLEAR(capture);
    TRY(w_map(b, 3));
    TRY(w_key_int(b, "seat", seat));
    TRY(w_key(b, "card"));
    TRY(w_card(b, (long)card));
    TRY(w_key(b, "captured"));
    TRY(w_mask(b, m));
    return 0;
fail:
    Py_XDECREF(capture);
    return -1;
}

/* The numbers of side ``i``'s pile. */
static int
w_pile(Buf *b, PyObject *pile, PyObject *primieras, PyObject *scopes, Py_ssize_t i)
{
    unsigned long long m;
    long long primiera, scope;
    TRY(as_mask(pile, &m));
    TRY(item_ll(primieras, i, &primiera));
    TRY(item_ll(scopes, i, &scope));
    TRY(w_map(b, 5));
    TRY(w_key_int(b, "cards", __builtin_popcountll(m)));
    TRY(w_key_int(b, "denari", __builtin_popcountll(m & denari_mask)));
    TRY(w_key(b, "settebello"));
    TRY(w_bool(b, (int)(m >> settebello_bit & 1)));
    TRY(w_key_int(b, "primiera", primiera));
    TRY(w_key_int(b, "scope", scope));
    return 0;
fail:
    return -1;
}

enum {
    A_EVENT, A_LEGAL, A_ROUND, A_DEALER, A_TURN, A_TABLE, A_STOCK, A_HANDS, A_PILES, A_SCOPE,
    A_SCOPA_CARDS, A_TOTALS, A_ROUND_PLAYS, A_LAST_CAPTURER, A_PRIMIERA, A_SEAT, A_SIDE, A_COUNT
};

/* The body (0), or -1 on error.  The keys
 * go in the order your_turn_data_of gives them. */
static int
write_turn(Buf *b, PyObject *const *a)
{
    long long v, seat;
    unsigned long long m;
    Py_ssize_t i, n, npiles;
    PyObject **items, **pile_items;
    PyObject *legal = NULL, *piles = NULL, *sides = NULL, *plays = NULL, *hand = NULL;
    int rc = -1;

    legal = PySequence_Fast(a[A_LEGAL], "legal must be a sequence");
    if (legal == NULL)
        goto done;
    n = PySequence_Fast_GET_SIZE(legal);
    items = PySequence_Fast_ITEMS(legal);
    for (i = 0; i < n; i++) {
        PyObject *mv = items[i];
        if (!PyTuple_Check(mv) || PyTuple_GET_SIZE(mv) != 2) {
            PyErr_SetString(PyExc_TypeError, "legal holds (card, capture) pairs");
            goto done;
        }
    }
    TRY(w_map(b, 4));
    TRY(w_key_obj(b, "event", a[A_EVENT]));
    TRY(w_key(b, "legal"));
    TRY(w_array(b, n));
    for (i = 0; i < n; i++) {
        TRY(as_ll(PyTuple_GET_ITEM(items[i], 0), &v));
        TRY(as_mask(PyTuple_GET_ITEM(items[i], 1), &m));
        TRY(w_map(b, 3));
        TRY(w_key_int(b, "index", i));
        TRY(w_key(b, "card"));
        TRY(w_card(b, (long)v));
        TRY(w_key(b, "capture"));
        TRY(w_mask(b, m));
    }
    TRY(w_key(b, "declarations"));
    TRY(w_array(b, 0));

    TRY(w_key(b, "view"));
    TRY(w_map(b, 17));
    TRY(as_ll(a[A_ROUND], &v));
    TRY(w_key_int(b, "round", v < 1 ? 1 : v));
    TRY(w_key_obj(b, "dealer", a[A_DEALER]));
    TRY(w_key_obj(b, "turn", a[A_TURN]));
    TRY(w_key_mask(b, "table", a[A_TABLE]));
    TRY(w_key_obj(b, "stock", a[A_STOCK]));
    TRY(w_key(b, "hand_sizes"));
    TRY(w_ints(b, a[A_HANDS], 1));

    piles = PySequence_Fast(a[A_PILES], "piles must be a sequence");
    if (piles == NULL)
        goto fail;
    npiles = PySequence_Fast_GET_SIZE(piles);
    pile_items = PySequence_Fast_ITEMS(piles);
    TRY(w_key(b, "captured"));
    TRY(w_array(b, npiles));
    for (i = 0; i < npiles; i++) {
        TRY(as_mask(pile_items[i], &m));
        TRY(w_mask(b, m));
    }
    TRY(w_key(b, "scope"));
    TRY(w_ints(b, a[A_SCOPE], 0));

    sides = PySequence_Fast(a[A_SCOPA_CARDS], "scopa_cards must be a sequence");
    if (sides == NULL)
        goto fail;
    TRY(w_key(b, "scopa_cards"));
    TRY(w_array(b, PySequence_Fast_GET_SIZE(sides)));
    for (i = 0; i < PySequence_Fast_GET_SIZE(sides); i++)
        TRY(w_cards(b, PySequence_Fast_GET_ITEM(sides, i)));
    TRY(w_key(b, "totals"));
    TRY(w_ints(b, a[A_TOTALS], 0));
    TRY(w_key(b, "declared"));
    TRY(w_array(b, 0)); /* the caller sends a game with declared hands the Python way */

    plays = PySequence_Fast(a[A_ROUND_PLAYS], "round_plays must be a sequence");
    if (plays == NULL)
        goto fail;
    TRY(w_key(b, "round_plays"));
    TRY(w_array(b, PySequence_Fast_GET_SIZE(plays)));
    for (i = 0; i < PySequence_Fast_GET_SIZE(plays); i++)
        TRY(w_round_play(b, PySequence_Fast_GET_ITEM(plays, i)));
    TRY(as_ll(a[A_LAST_CAPTURER], &v));
    TRY(w_key(b, "last_capture_side"));
    TRY(v < 0 ? w_nil(b) : w_int(b, v));
    TRY(w_key(b, "piles"));
    TRY(w_array(b, npiles));
    for (i = 0; i < npiles; i++)
        TRY(w_pile(b, pile_items[i], a[A_PRIMIERA], a[A_SCOPE], i));

    TRY(as_ll(a[A_SEAT], &seat));
    TRY(w_key_int(b, "seat", seat));
    TRY(w_key_obj(b, "side", a[A_SIDE]));
    hand = PySequence_GetItem(a[A_HANDS], (Py_ssize_t)seat);
    if (hand == NULL)
        goto fail;
    TRY(w_key_mask(b, "hand", hand));
    rc = 0;
    goto done;
fail:
    rc = -1;
done:
    Py_XDECREF(legal);
    Py_XDECREF(piles);
    Py_XDECREF(sides);
    Py_XDECREF(plays);
    Py_XDECREF(hand);
    return rc;
}

/* your_turn(event, legal, round_no, dealer, to_move, table, stock, hands, piles, scope,
 *           scopa_cards, totals, round_plays, last_capturer, primiera, seat, side)
 *   -> bytes */
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
     "The packed body of a your_turn of plays only (see seatdata.your_turn)."},
    {"init", (PyCFunction)(void (*)(void))init, METH_FASTCALL,
     "The card notations and the engine's masks the packer writes with."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_turnpack", "The C twin of scopa.protocol.seatdata.your_turn.", -1, methods,
};

PyMODINIT_FUNC
PyInit__turnpack(void)
{
    return PyModule_Create(&module);
}
