/* The C twins of scopa.engine.plays (expand_plays) and scopa.engine.selections
 * (templates_by_sum): pure functions over integers and tuples of them, which read no
 * game object and hold no rule.  The Python twins are the reference;
 * tests/engine/test_engine_speedups.py runs both over the same inputs.
 *
 * A card is a bit 0..39 of a mask; value v's four cards are bits 4(v-1)..4v-1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* A new play_type(card, capture), or NULL (the capture reference is always taken). */
static PyObject *
make_play(PyTypeObject *play_type, long card, PyObject *capture)
{
    if (capture == NULL)
        return NULL;
    PyObject *obj = play_type->tp_alloc(play_type, 2);
    PyObject *c = PyLong_FromLong(card);
    if (obj == NULL || c == NULL) {
        Py_XDECREF(obj);
        Py_XDECREF(c);
        Py_DECREF(capture);
        return NULL;
    }
    PyTuple_SET_ITEM(obj, 0, c);
    PyTuple_SET_ITEM(obj, 1, capture);
    return obj;
}

static int
append_play(PyObject *out, PyTypeObject *play_type, long card, unsigned long long capture)
{
    PyObject *play = make_play(play_type, card, PyLong_FromUnsignedLongLong(capture));
    if (play == NULL)
        return -1;
    int rc = PyList_Append(out, play);
    Py_DECREF(play);
    return rc;
}

#define MAX_GROUPS 10
#define MAX_CHOICES 6 /* C(4, 2): the most ways to pick some of one value's cards */

/* The choices of ``k`` of the cards in ``cards`` (a mask), in the order
 * itertools.combinations gives them over the cards in bit order. */
static int
choices(unsigned long long cards, long k, unsigned long long *out)
{
    int bits[4], n = 0, count = 0;
    while (cards && n < 4) {
        bits[n++] = __builtin_ctzll(cards);
        cards &= cards - 1;
    }
    if (cards || k < 1 || k > n)
        return -1;
    int idx[4];
    for (int i = 0; i < k; i++)
        idx[i] = i;
    for (;;) {
        unsigned long long m = 0;
        for (int i = 0; i < k; i++)
            m |= 1ULL << bits[idx[i]];
        if (count == MAX_CHOICES)
            return -1;
        out[count++] = m;
        int i = (int)k - 1;
        while (i >= 0 && idx[i] == i + n - k)
            i--;
        if (i < 0)
            return count;
        idx[i]++;
        for (int j = i + 1; j < k; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

/* The plays of ``card`` with a template that takes some but not all cards of a value:
 * every choice of those cards, in the order of itertools.product over the groups. */
static int
append_partial(PyObject *out, PyTypeObject *play_type, long card, unsigned long long table,
               unsigned long long base, PyObject *partial)
{
    Py_ssize_t g = PyTuple_GET_SIZE(partial);
    unsigned long long options[MAX_GROUPS][MAX_CHOICES];
    int sizes[MAX_GROUPS], idx[MAX_GROUPS];
    if (g > MAX_GROUPS) {
        PyErr_SetString(PyExc_ValueError, "too many partial value groups");
        return -1;
    }
    for (Py_ssize_t i = 0; i < g; i++) {
        PyObject *vk = PyTuple_GET_ITEM(partial, i);
        if (!PyTuple_Check(vk) || PyTuple_GET_SIZE(vk) != 2) {
            PyErr_SetString(PyExc_TypeError, "a partial group is (value, how many)");
            return -1;
        }
        long v = PyLong_AsLong(PyTuple_GET_ITEM(vk, 0));
        long k = PyLong_AsLong(PyTuple_GET_ITEM(vk, 1));
        if (PyErr_Occurred())
            return -1;
        if (v < 1 || v > 10) {
            PyErr_SetString(PyExc_ValueError, "a value is 1..10");
            return -1;
        }
        sizes[i] = choices(table & (0xFULL << (4 * (v - 1))), k, options[i]);
        if (sizes[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "a partial group asks for more cards than the table has");
            return -1;
        }
        idx[i] = 0;
    }
    for (;;) {
        unsigned long long m = base;
        for (Py_ssize_t i = 0; i < g; i++)
            m |= options[i][idx[i]];
        if (append_play(out, play_type, card, m) < 0)
            return -1;
        Py_ssize_t i = g - 1;
        while (i >= 0 && ++idx[i] == sizes[i])
            idx[i--] = 0;
        if (i < 0)
            return 0;
    }
}

/* expand_plays(hand, table, by_value, wild, sette_coppe, play_type, laid) -> list[play_type]
 * (a card that captures nothing: laid[card] itself) */
static PyObject *
expand_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "expand_plays takes 7 arguments");
        return NULL;
    }
    unsigned long long hand = PyLong_AsUnsignedLongLong(args[0]);
    unsigned long long table = PyLong_AsUnsignedLongLong(args[1]);
    PyObject *by_value = args[2];
    long wild = PyLong_AsLong(args[3]);
    long sette = PyLong_AsLong(args[4]);
    if (PyErr_Occurred())
        return NULL;
    if (hand >> 40 || table >> 40) {
        PyErr_SetString(PyExc_ValueError, "not a card mask");
        return NULL;
    }
    if (!PyTuple_Check(by_value) || PyTuple_GET_SIZE(by_value) != 11) {
        PyErr_SetString(PyExc_TypeError, "by_value must be a tuple of 11");
        return NULL;
    }
    if (!PyType_Check(args[5]) || !PyType_IsSubtype((PyTypeObject *)args[5], &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "play_type must be a tuple type");
        return NULL;
    }
    PyTypeObject *play_type = (PyTypeObject *)args[5];
    PyObject *laid = args[6];
    if (!PyTuple_Check(laid) || PyTuple_GET_SIZE(laid) != 40) {
        PyErr_SetString(PyExc_TypeError, "laid must be a tuple of 40");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    while (hand) {
        long card = __builtin_ctzll(hand);
        hand &= hand - 1;
        long value = (wild && card == sette) ? wild : card / 4 + 1;
        if (value < 1 || value > 10) {
            PyErr_SetString(PyExc_ValueError, "a wild value is 1..10");
            goto fail;
        }
        PyObject *caps = PyTuple_GET_ITEM(by_value, value);
        if (!PyTuple_Check(caps)) {
            PyErr_SetString(PyExc_TypeError, "templates must be tuples");
            goto fail;
        }
        Py_ssize_t n = PyTuple_GET_SIZE(caps);
        if (n == 0 && PyList_Append(out, PyTuple_GET_ITEM(laid, card)) < 0)
            goto fail;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *tmpl = PyTuple_GET_ITEM(caps, i);
            if (!PyTuple_Check(tmpl) || PyTuple_GET_SIZE(tmpl) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(tmpl, 1))) {
                PyErr_SetString(PyExc_TypeError, "a template is (mask, partial groups)");
                goto fail;
            }
            unsigned long long whole = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(tmpl, 0));
            if (PyErr_Occurred())
                goto fail;
            PyObject *partial = PyTuple_GET_ITEM(tmpl, 1);
            int rc = PyTuple_GET_SIZE(partial)
                ? append_partial(out, play_type, card, table, table & whole, partial)
                : append_play(out, play_type, card, table & whole);
            if (rc < 0)
                goto fail;
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* One selection of table values: how many of each value (value v's count in bits
 * 4(v-1)..4v-1, as the table's counts are), their sum and their number of cards. */
typedef struct {
    unsigned long long taken;
    long total;
    long size;
} Selection;

/* A new (whole, ((value, k), ...)) template for ``taken`` out of ``counts``, or NULL. */
static PyObject *
make_template(unsigned long long counts, unsigned long long taken)
{
    unsigned long long whole = 0;
    long some_v[10], some_k[10];
    int n = 0;
    for (int v = 1; v <= 10; v++) {
        long k = (long)((taken >> (4 * (v - 1))) & 15);
        if (!k)
            continue;
        if ((unsigned long long)k == ((counts >> (4 * (v - 1))) & 15)) {
            whole |= 15ULL << (4 * (v - 1));
        } else {
            some_v[n] = v;
            some_k[n] = k;
            n++;
        }
    }
    PyObject *some = PyTuple_New(n);
    if (some == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *pair = Py_BuildValue("(ll)", some_v[i], some_k[i]);
        if (pair == NULL) {
            Py_DECREF(some);
            return NULL;
        }
        PyTuple_SET_ITEM(some, i, pair);
    }
    PyObject *mask = PyLong_FromUnsignedLongLong(whole);
    if (mask == NULL) {
        Py_DECREF(some);
        return NULL;
    }
    PyObject *template = PyTuple_Pack(2, mask, some);
    Py_DECREF(mask);
    Py_DECREF(some);
    return template;
}

/* A new tuple of the lists' items, by sum; the lists are released. */
static PyObject *
tuple_of_tuples(PyObject **lists, long count)
{
    PyObject *out = PyTuple_New(count);
    for (long s = 0; s < count; s++) {
        PyObject *t = out == NULL ? NULL : PyList_AsTuple(lists[s]);
        Py_CLEAR(lists[s]);
        if (t == NULL) {
            Py_CLEAR(out);
            continue;
        }
        PyTuple_SET_ITEM(out, s, t);
    }
    return out;
}

/* templates_by_sum(counts, max_cards, max_sum, shared) -> (templates by sum, card counts
 * by sum) (see selections.py): the same enumeration order as the Python twin's. */
static PyObject *
templates_by_sum(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "templates_by_sum takes 4 arguments");
        return NULL;
    }
    unsigned long long counts = PyLong_AsUnsignedLongLong(args[0]);
    long max_cards = PyLong_AsLong(args[1]);
    long max_sum = PyLong_AsLong(args[2]);
    PyObject *shared = args[3];
    if (PyErr_Occurred())
        return NULL;
    if (counts >> 40) {
        PyErr_SetString(PyExc_ValueError, "not a table's value counts");
        return NULL;
    }
    if (max_sum < 0 || max_sum > 40) { /* selections.MAX_SUM */
        PyErr_SetString(PyExc_ValueError, "max_sum is 0..40");
        return NULL;
    }
    if (!PyDict_Check(shared)) {
        PyErr_SetString(PyExc_TypeError, "shared must be a dict");
        return NULL;
    }
    Py_ssize_t n = 1;
    Selection *sels = PyMem_Malloc(sizeof(Selection));
    Selection *grown = NULL;
    PyObject **lists = NULL; /* templates by sum, then card counts by sum */
    PyObject *templates = NULL, *sizes = NULL, *out = NULL;
    long nlists = 2 * (max_sum + 1);
    if (sels == NULL)
        return PyErr_NoMemory();
    sels[0].taken = 0;
    sels[0].total = 0;
    sels[0].size = 0;
    for (int v = 1; v <= 10; v++) {
        long have = (long)((counts >> (4 * (v - 1))) & 15);
        if (!have)
            continue;
        Py_ssize_t g = 0;
        grown = PyMem_Malloc(n * (have + 1) * sizeof(Selection));
        if (grown == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            Selection item = sels[i];
            grown[g++] = item;
            for (long k = 1; k <= have; k++) {
                item.total += v;
                item.size += 1;
                if (item.total > max_sum || item.size > max_cards)
                    break;
                grown[g].taken = sels[i].taken | (unsigned long long)k << (4 * (v - 1));
                grown[g].total = item.total;
                grown[g].size = item.size;
                g++;
            }
        }
        PyMem_Free(sels);
        sels = grown;
        grown = NULL;
        n = g;
    }
    lists = PyMem_Calloc(nlists, sizeof(PyObject *));
    if (lists == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (long s = 0; s < nlists; s++) {
        lists[s] = PyList_New(0);
        if (lists[s] == NULL)
            goto fail;
    }
    for (Py_ssize_t i = 1; i < n; i++) { /* the first is always the empty selection */
        PyObject *template = make_template(counts, sels[i].taken);
        if (template == NULL)
            goto fail;
        PyObject *kept = PyDict_SetDefault(shared, template, template);
        Py_DECREF(template);
        if (kept == NULL || PyList_Append(lists[sels[i].total], kept) < 0)
            goto fail;
        PyObject *size = PyLong_FromLong(sels[i].size);
        if (size == NULL)
            goto fail;
        int rc = PyList_Append(lists[max_sum + 1 + sels[i].total], size);
        Py_DECREF(size);
        if (rc < 0)
            goto fail;
    }
    templates = tuple_of_tuples(lists, max_sum + 1);
    sizes = tuple_of_tuples(lists + max_sum + 1, max_sum + 1);
    if (templates != NULL && sizes != NULL)
        out = PyTuple_Pack(2, templates, sizes);
fail:
    Py_XDECREF(templates);
    Py_XDECREF(sizes);
    if (lists != NULL) {
        for (long s = 0; s < nlists; s++)
            Py_XDECREF(lists[s]);
        PyMem_Free(lists);
    }
    PyMem_Free(grown);
    PyMem_Free(sels);
    return out;
}

static PyMethodDef methods[] = {
    {"expand_plays", (PyCFunction)(void (*)(void))expand_plays, METH_FASTCALL,
     "The plays of a hand from the capture templates of each value (see plays.py)."},
    {"templates_by_sum", (PyCFunction)(void (*)(void))templates_by_sum, METH_FASTCALL,
     "Every multiset of the table's values by its sum, as capture templates and card counts (see selections.py)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", "The C twins of scopa.engine.plays and scopa.engine.selections.", -1, methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
