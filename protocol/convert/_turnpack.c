/* The C twin of scopa.protocol.convert.seatview.pack_your_turn: the msgpack bytes of a your_turn
 * body (the server's most frequent message), written from an event number, the legal
 * actions and the seat's projection (scopa.engine.SeatProjection, a tuple of integers
 * and tuples of them).
 *
 * It reads no game object, holds no rule and decides nothing a seat may see: the
 * projection is what the seat may see, and this writes what msgpack makes of the data
 * seatview.your_turn_data builds from it, byte for byte (tests/protocol/test_protocol_turn_data.py
 * runs both twins over every turn of many games, and over arbitrary values).
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
static PyObject *declaration_points; /* kind -> points */
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

/* An array of the integers of a sequence. */
static int
w_ints(Buf *b, PyObject *seq)
{
    PyObject *fast = PySequence_Fast(seq, "a sequence of integers is needed");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    int rc = w_array(b, n);
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        long long v;
        rc = as_ll(items[i], &v);
        if (rc == 0)
            rc = w_int(b, v);
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
    if (!PyTuple_Check(play) || PyTuple_GET_SIZE(play) != 3) {
        PyErr_SetString(PyExc_TypeError, "a round play is a (seat, card, capture) tuple");
        return -1;
    }
    TRY(as_ll(PyTuple_GET_ITEM(play, 0), &seat));
    TRY(as_ll(PyTuple_GET_ITEM(play, 1), &card));
    TRY(as_mask(PyTuple_GET_ITEM(play, 2), &m));
    TRY(w_map(b, 3));
    TRY(w_key_int(b, "seat", seat));
    TRY(w_key(b, "card"));
    TRY(w_card(b, (long)card));
    TRY(w_key(b, "captured"));
    TRY(w_mask(b, m));
    return 0;
fail:
    return -1;
}

/* One declared hand: (seat, hand mask). */
static int
w_declared(Buf *b, PyObject *declared)
{
    long long seat;
    unsigned long long m;
    PyObject *hand = NULL;
    TRY(item_ll(declared, 0, &seat));
    hand = PySequence_GetItem(declared, 1);
    if (hand == NULL)
        goto fail;
    TRY(as_mask(hand, &m));
    Py_CLEAR(hand);
    TRY(w_map(b, 2));
    TRY(w_key_int(b, "seat", seat));
    TRY(w_key(b, "hand"));
    TRY(w_mask(b, m));
    return 0;
fail:
    Py_XDECREF(hand);
    return -1;
}

/* The numbers of one side's pile. */
static int
w_pile(Buf *b, PyObject *pile, PyObject *primiera_sum, PyObject *scope_count)
{
    unsigned long long m;
    long long primiera, scope;
    TRY(as_mask(pile, &m));
    TRY(as_ll(primiera_sum, &primiera));
    TRY(as_ll(scope_count, &scope));
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

/* A str, as msgpack writes it (UTF-8, the shortest header). */
static int
w_str(Buf *b, PyObject *o)
{
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(o, &len);
    if (s == NULL)
        return -1;
    if (len < 32) {
        unsigned char c = (unsigned char)(0xa0 | len);
        if (put(b, &c, 1) < 0)
            return -1;
    } else if (len < 0x100) {
        if (put_be(b, 0xd9, len, 1) < 0)
            return -1;
    } else if (w_head(b, len, 0xa0, 0xda, 0xdb) < 0)
        return -1;
    return put(b, s, len);
}

/* One declaration the seat may make: (kind, wild value or None). */
static int
w_declaration(Buf *b, PyObject *decl)
{
    PyObject *kind = PyTuple_GET_ITEM(decl, 0), *wild = PyTuple_GET_ITEM(decl, 1);
    PyObject *points = PyDict_GetItemWithError(declaration_points, kind);
    long long v;
    if (points == NULL) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "%R is not a declaration", kind);
        return -1;
    }
    TRY(w_map(b, 3));
    TRY(w_key(b, "kind"));
    TRY(w_str(b, kind));
    TRY(w_key(b, "wild"));
    if (wild == Py_None)
        TRY(w_nil(b));
    else {
        TRY(as_ll(wild, &v));
        TRY(w_int(b, v));
    }
    TRY(w_key_obj(b, "points", points));
    return 0;
fail:
    return -1;
}

/* The fields of scopa.engine.SeatProjection, in its order. */
enum {
    P_ROUND, P_DEALER, P_TURN, P_TABLE, P_STOCK, P_HAND_SIZES, P_PILES, P_SCOPE, P_SCOPA_CARDS, P_TOTALS,
    P_DECLARED, P_ROUND_PLAYS, P_LAST_CAPTURER, P_PRIMIERA, P_SEAT, P_SIDE, P_HAND, P_COUNT
};

/* The body (0), or -1 on error.  The keys go in the order seatview.your_turn_data
 * gives them. */
static int
write_turn(Buf *b, PyObject *event, PyObject *legal_seq, PyObject *proj)
{
    long long v;
    unsigned long long m;
    Py_ssize_t i, n, nplays = 0, npiles;
    PyObject **items, **pile_items;
    PyObject *legal = NULL, *piles = NULL, *sides = NULL, *plays = NULL, *declared = NULL, *primieras = NULL,
             *scopes = NULL;
    PyObject *const *f;
    int rc = -1;

    if (!PyTuple_Check(proj) || PyTuple_GET_SIZE(proj) != P_COUNT) {
        PyErr_Format(PyExc_TypeError, "the projection must be a SeatProjection (a tuple of %d fields)", P_COUNT);
        goto done;
    }
    f = ((PyTupleObject *)proj)->ob_item;
    legal = PySequence_Fast(legal_seq, "legal must be a sequence");
    if (legal == NULL)
        goto done;
    n = PySequence_Fast_GET_SIZE(legal);
    items = PySequence_Fast_ITEMS(legal);
    for (i = 0; i < n; i++) {
        PyObject *mv = items[i];
        if (!PyTuple_Check(mv) || PyTuple_GET_SIZE(mv) != 2) {
            PyErr_SetString(PyExc_TypeError, "legal holds (card, capture) plays and (kind, wild) declarations");
            goto done;
        }
        if (!PyUnicode_Check(PyTuple_GET_ITEM(mv, 0)))
            nplays++;
    }
    TRY(w_map(b, 4));
    TRY(w_key_obj(b, "event", event));
    TRY(w_key(b, "legal"));
    TRY(w_array(b, nplays));
    for (i = 0, nplays = 0; i < n; i++) {
        if (PyUnicode_Check(PyTuple_GET_ITEM(items[i], 0)))
            continue;
        TRY(as_ll(PyTuple_GET_ITEM(items[i], 0), &v));
        TRY(as_mask(PyTuple_GET_ITEM(items[i], 1), &m));
        TRY(w_map(b, 3));
        TRY(w_key_int(b, "index", nplays++));
        TRY(w_key(b, "card"));
        TRY(w_card(b, (long)v));
        TRY(w_key(b, "capture"));
        TRY(w_mask(b, m));
    }
    TRY(w_key(b, "declarations"));
    TRY(w_array(b, n - nplays));
    for (i = 0; i < n; i++)
        if (PyUnicode_Check(PyTuple_GET_ITEM(items[i], 0)))
            TRY(w_declaration(b, items[i]));

    TRY(w_key(b, "view"));
    TRY(w_map(b, 17));
    TRY(as_ll(f[P_ROUND], &v));
    TRY(w_key_int(b, "round", v < 1 ? 1 : v));
    TRY(w_key_obj(b, "dealer", f[P_DEALER]));
    TRY(w_key_obj(b, "turn", f[P_TURN]));
    TRY(w_key_mask(b, "table", f[P_TABLE]));
    TRY(w_key_obj(b, "stock", f[P_STOCK]));
    TRY(w_key(b, "hand_sizes"));
    TRY(w_ints(b, f[P_HAND_SIZES]));

    piles = PySequence_Fast(f[P_PILES], "piles must be a sequence");
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
    TRY(w_ints(b, f[P_SCOPE]));

    sides = PySequence_Fast(f[P_SCOPA_CARDS], "scopa_cards must be a sequence");
    if (sides == NULL)
        goto fail;
    TRY(w_key(b, "scopa_cards"));
    TRY(w_array(b, PySequence_Fast_GET_SIZE(sides)));
    for (i = 0; i < PySequence_Fast_GET_SIZE(sides); i++)
        TRY(w_cards(b, PySequence_Fast_GET_ITEM(sides, i)));
    TRY(w_key(b, "totals"));
    TRY(w_ints(b, f[P_TOTALS]));

    declared = PySequence_Fast(f[P_DECLARED], "declared must be a sequence");
    if (declared == NULL)
        goto fail;
    TRY(w_key(b, "declared"));
    TRY(w_array(b, PySequence_Fast_GET_SIZE(declared)));
    for (i = 0; i < PySequence_Fast_GET_SIZE(declared); i++)
        TRY(w_declared(b, PySequence_Fast_GET_ITEM(declared, i)));

    plays = PySequence_Fast(f[P_ROUND_PLAYS], "round_plays must be a sequence");
    if (plays == NULL)
        goto fail;
    TRY(w_key(b, "round_plays"));
    TRY(w_array(b, PySequence_Fast_GET_SIZE(plays)));
    for (i = 0; i < PySequence_Fast_GET_SIZE(plays); i++)
        TRY(w_round_play(b, PySequence_Fast_GET_ITEM(plays, i)));
    TRY(as_ll(f[P_LAST_CAPTURER], &v));
    TRY(w_key(b, "last_capture_side"));
    TRY(v < 0 ? w_nil(b) : w_int(b, v));
    primieras = PySequence_Fast(f[P_PRIMIERA], "primiera must be a sequence");
    scopes = PySequence_Fast(f[P_SCOPE], "scope must be a sequence");
    if (primieras == NULL || scopes == NULL)
        goto fail;
    if (PySequence_Fast_GET_SIZE(primieras) < npiles || PySequence_Fast_GET_SIZE(scopes) < npiles) {
        PyErr_SetString(PyExc_IndexError, "a pile without its primiera or scope");
        goto fail;
    }
    TRY(w_key(b, "piles"));
    TRY(w_array(b, npiles));
    for (i = 0; i < npiles; i++)
        TRY(w_pile(b, pile_items[i], PySequence_Fast_GET_ITEM(primieras, i), PySequence_Fast_GET_ITEM(scopes, i)));

    TRY(w_key_obj(b, "seat", f[P_SEAT]));
    TRY(w_key_obj(b, "side", f[P_SIDE]));
    TRY(w_key_mask(b, "hand", f[P_HAND]));
    rc = 0;
    goto done;
fail:
    rc = -1;
done:
    Py_XDECREF(legal);
    Py_XDECREF(piles);
    Py_XDECREF(sides);
    Py_XDECREF(declared);
    Py_XDECREF(plays);
    Py_XDECREF(primieras);
    Py_XDECREF(scopes);
    return rc;
}

/* your_turn(event, legal, projection) -> bytes */
static PyObject *
your_turn(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "init() first");
        return NULL;
    }
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "your_turn takes 3 arguments");
        return NULL;
    }
    Buf b = {NULL, 0, 0};
    int rc = write_turn(&b, args[0], args[1], args[2]);
    PyObject *out = NULL;
    if (rc == 0)
        out = PyBytes_FromStringAndSize((const char *)b.p, b.n);
    PyMem_Free(b.p);
    return out;
}

/* init(card_strs, denari_mask, settebello, declaration_points): the notation of the 40
 * cards (in id order), the engine's masks and each declaration's points, so that this
 * file keeps no copy of them. */
static PyObject *
init(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "init takes 4 arguments");
        return NULL;
    }
    if (!PyDict_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "declaration_points must be a dict");
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
    Py_INCREF(args[3]);
    Py_XSETREF(declaration_points, args[3]);
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"your_turn", (PyCFunction)(void (*)(void))your_turn, METH_FASTCALL,
     "The packed body of a your_turn (see seatview.pack_your_turn)."},
    {"init", (PyCFunction)(void (*)(void))init, METH_FASTCALL,
     "The card notations, the engine's masks and the declarations' points the packer writes with."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_turnpack", "The C twin of scopa.protocol.convert.seatview.pack_your_turn.", -1, methods,
};

PyMODINIT_FUNC
PyInit__turnpack(void)
{
    return PyModule_Create(&module);
}
