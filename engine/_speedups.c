/* Optional C accelerator for the engine's hot path: expanding cached capture templates
 * into the legal plays of a hand.  It holds no rule: which captures are legal is decided
 * in captures.py (the templates); this only does the mechanical work that
 * GameState.legal_plays does in Python when this module is not built.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

static PyMethodDef methods[] = {
    {"legal_plays", (PyCFunction)(void (*)(void))legal_plays, METH_FASTCALL,
     "Expand capture templates into the legal plays of a hand."},
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
