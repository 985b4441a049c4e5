/* Optional C accelerator for the engine's hot path.  It holds no rule:
 *
 * - legal_plays expands the capture templates (decided in captures.py) into the plays of
 *   a hand, the mechanical work GameState.legal_plays does in Python otherwise;
 * - push_plain moves the cards of an ordinary play (not a sweep, not the last card of a
 *   hand, no variant bookkeeping) and passes the turn on; anything else it declines
 *   without touching the state, and GameState.push (Python) decides it: scopa (R18),
 *   redeal (R11), round end (R20), Cirulla, refill, instant wins.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

static PyObject *
make_play(PyTypeObject *play_type, int card, PyObject *mask)
{
    /* Play is a NamedTuple: a tuple subclass without a __dict__. */
    PyObject *obj = play_type->tp_alloc(play_type, 2);
    if (obj == NULL) {
        Py_DECREF(mask);
        return NULL;
    }
    PyTuple_SET_ITEM(obj, 0, PyLong_FromLong(card));
    PyTuple_SET_ITEM(obj, 1, mask);
    return obj;
}

static int
append_play(PyObject *out, PyTypeObject *play_type, int card, PyObject *mask)
{
    if (mask == NULL)
        return -1;
    PyObject *play = make_play(play_type, card, mask);
    if (play == NULL)
        return -1;
    int rc = PyList_Append(out, play);
    Py_DECREF(play);
    return rc;
}

/* legal_plays(hand, table, first_play, cache, by_value, wild, sette_coppe, Play, expand)
 *   -> list[Play]
 * ``cache`` maps value_counts(table) << 1 | first_play to the templates of every value;
 * ``by_value(key)`` fills it on a miss (captures.CaptureRules). */
static PyObject *
legal_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "legal_plays takes 9 arguments");
        return NULL;
    }
    unsigned long long hand = PyLong_AsUnsignedLongLong(args[0]);
    unsigned long long table = PyLong_AsUnsignedLongLong(args[1]);
    int first = PyObject_IsTrue(args[2]);
    PyObject *cache = args[3];
    long wild = PyLong_AsLong(args[5]);
    long sette = PyLong_AsLong(args[6]);
    if (PyErr_Occurred() || first < 0)
        return NULL;
    if (!PyDict_Check(cache) || !PyType_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError, "bad template cache or Play type");
        return NULL;
    }
    /* the card count of each value: 4-bit groups, as captures.value_counts */
    unsigned long long m = table - ((table >> 1) & 0x5555555555ULL);
    unsigned long long counts = (m & 0x3333333333ULL) + ((m >> 2) & 0x3333333333ULL);
    PyObject *key = PyLong_FromUnsignedLongLong(counts << 1 | (unsigned long long)first);
    if (key == NULL)
        return NULL;
    PyObject *by_value = PyDict_GetItemWithError(cache, key);  /* borrowed */
    if (by_value != NULL) {
        Py_INCREF(by_value);
    } else if (!PyErr_Occurred()) {
        by_value = PyObject_CallOneArg(args[4], key);
    }
    Py_DECREF(key);
    if (by_value == NULL)
        return NULL;
    if (!PyTuple_Check(by_value) || PyTuple_GET_SIZE(by_value) != 11) {
        Py_DECREF(by_value);
        PyErr_SetString(PyExc_TypeError, "templates must be a tuple of 11");
        return NULL;
    }
    PyTypeObject *play_type = (PyTypeObject *)args[7];
    PyObject *expand = args[8];
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        Py_DECREF(by_value);
        return NULL;
    }
    while (hand) {
        int card = __builtin_ctzll(hand);
        hand &= hand - 1;
        long value = (wild && card == sette) ? wild : card / 4 + 1;
        PyObject *caps = PyTuple_GET_ITEM(by_value, value);
        Py_ssize_t n = PyTuple_GET_SIZE(caps);
        if (n == 0) {
            if (append_play(out, play_type, card, PyLong_FromLong(0)) < 0)
                goto fail;
            continue;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *tmpl = PyTuple_GET_ITEM(caps, i);
            PyObject *partial = PyTuple_GET_ITEM(tmpl, 1);
            if (PyTuple_GET_SIZE(partial) == 0) {
                unsigned long long whole = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(tmpl, 0));
                if (PyErr_Occurred())
                    goto fail;
                if (append_play(out, play_type, card, PyLong_FromUnsignedLongLong(table & whole)) < 0)
                    goto fail;
                continue;
            }
            /* Some but not all cards of a value are taken: let Python list the choices. */
            PyObject *masks = PyObject_CallFunction(expand, "KO", table, tmpl);
            if (masks == NULL)
                goto fail;
            Py_ssize_t m = PyList_GET_SIZE(masks);
            for (Py_ssize_t j = 0; j < m; j++) {
                PyObject *mask = PyList_GET_ITEM(masks, j);
                Py_INCREF(mask);
                if (append_play(out, play_type, card, mask) < 0) {
                    Py_DECREF(masks);
                    goto fail;
                }
            }
            Py_DECREF(masks);
        }
    }
    Py_DECREF(by_value);
    return out;
fail:
    Py_DECREF(by_value);
    Py_DECREF(out);
    return NULL;
}

/* ---- push_plain: GameState's __slots__ read and written at their offsets ---- */

static PyTypeObject *state_type = NULL;
enum { S_HANDS, S_TABLE, S_IN_HANDS, S_PLAYS, S_TO_MOVE, S_N, S_SIDE, S_PILES,
       S_LAST_CAPTURER, S_LAST_SCOPA, S_SPECIAL, S_INSTANT, S_COUNT };
static const char *slot_names[S_COUNT] = {
    "hands", "table", "in_hands", "plays", "to_move", "n", "side", "piles",
    "last_capturer", "last_scopa", "special", "instant",
};
static Py_ssize_t offsets[S_COUNT];

#define SLOT(obj, i) (*(PyObject **)((char *)(obj) + offsets[i]))

static int
load_offsets(PyTypeObject *tp)
{
    for (int i = 0; i < S_COUNT; i++) {
        PyObject *d = PyDict_GetItemString(tp->tp_dict, slot_names[i]);  /* borrowed */
        if (d == NULL || !PyObject_TypeCheck(d, &PyMemberDescr_Type)) {
            PyErr_Format(PyExc_TypeError, "%s has no slot %s", tp->tp_name, slot_names[i]);
            return -1;
        }
        offsets[i] = ((PyMemberDescrObject *)d)->d_member->offset;
    }
    Py_XSETREF(state_type, (PyTypeObject *)Py_NewRef(tp));
    return 0;
}

/* Store a new reference in a slot (NULL: an allocation failed). */
static int
set_slot(PyObject *obj, int i, PyObject *value)
{
    if (value == NULL)
        return -1;
    PyObject *old = SLOT(obj, i);
    SLOT(obj, i) = value;
    Py_XDECREF(old);
    return 0;
}

/* push_plain(state, play) -> bool: True if the play was applied here. */
static PyObject *
push_plain(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != 2) {
        PyErr_SetString(PyExc_TypeError, "push_plain(state, (card, capture))");
        return NULL;
    }
    PyObject *st = args[0];
    if (Py_TYPE(st) != state_type && load_offsets(Py_TYPE(st)) < 0)
        return NULL;
    for (int i = 0; i < S_COUNT; i++) {
        if (SLOT(st, i) == NULL)
            Py_RETURN_FALSE;  /* a state not fully set up: Python knows what to say */
    }
    if (SLOT(st, S_SPECIAL) != Py_False || SLOT(st, S_INSTANT) != Py_False)
        Py_RETURN_FALSE;
    long in_hands = PyLong_AsLong(SLOT(st, S_IN_HANDS));
    long card = PyLong_AsLong(PyTuple_GET_ITEM(args[1], 0));
    unsigned long long capture = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args[1], 1));
    unsigned long long table = PyLong_AsUnsignedLongLong(SLOT(st, S_TABLE));
    long seat = PyLong_AsLong(SLOT(st, S_TO_MOVE));
    long n = PyLong_AsLong(SLOT(st, S_N));
    long plays = PyLong_AsLong(SLOT(st, S_PLAYS));
    if (PyErr_Occurred())
        return NULL;
    if (in_hands <= 1 || (capture && !(table ^ capture)) || card < 0 || card >= 40)
        Py_RETURN_FALSE;  /* the hand's last card, or a sweep: the rules decide (Python) */
    PyObject *hands = SLOT(st, S_HANDS), *piles = SLOT(st, S_PILES), *sides = SLOT(st, S_SIDE);
    if (!PyList_Check(hands) || !PyList_Check(piles) || !PyTuple_Check(sides)
        || seat < 0 || seat >= PyList_GET_SIZE(hands) || seat >= PyTuple_GET_SIZE(sides))
        Py_RETURN_FALSE;
    unsigned long long bit = 1ULL << card;
    unsigned long long hand = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(hands, seat));
    long side = PyLong_AsLong(PyTuple_GET_ITEM(sides, seat));
    if (PyErr_Occurred())
        return NULL;
    if (side < 0 || side >= PyList_GET_SIZE(piles))
        Py_RETURN_FALSE;
    PyObject *v = PyLong_FromUnsignedLongLong(hand ^ bit);
    if (v == NULL || PyList_SetItem(hands, seat, v) < 0)
        return NULL;
    if (capture) {
        unsigned long long pile = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(piles, side));
        if (PyErr_Occurred())
            return NULL;
        v = PyLong_FromUnsignedLongLong(pile | capture | bit);
        if (v == NULL || PyList_SetItem(piles, side, v) < 0)
            return NULL;
        if (set_slot(st, S_TABLE, PyLong_FromUnsignedLongLong(table ^ capture)) < 0
            || set_slot(st, S_LAST_CAPTURER, PyLong_FromLong(side)) < 0)
            return NULL;
    } else if (set_slot(st, S_TABLE, PyLong_FromUnsignedLongLong(table | bit)) < 0) {
        return NULL;
    }
    if (set_slot(st, S_LAST_SCOPA, Py_NewRef(Py_False)) < 0
        || set_slot(st, S_IN_HANDS, PyLong_FromLong(in_hands - 1)) < 0
        || set_slot(st, S_PLAYS, PyLong_FromLong(plays + 1)) < 0
        || set_slot(st, S_TO_MOVE, PyLong_FromLong(seat + 1 < n ? seat + 1 : 0)) < 0)  /* R8 */
        return NULL;
    Py_RETURN_TRUE;
}

static PyMethodDef methods[] = {
    {"legal_plays", (PyCFunction)(void (*)(void))legal_plays, METH_FASTCALL,
     "Expand capture templates into the legal plays of a hand."},
    {"push_plain", (PyCFunction)(void (*)(void))push_plain, METH_FASTCALL,
     "Apply an ordinary play (no sweep, not a hand's last card, plain rules); False: declined."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", "C accelerator for scopa.engine's legal plays.", -1, methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
