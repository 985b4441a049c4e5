/* The C twin of scopa.protocol.playread.read_play_python: the fields of a msgpack payload
 * that is a valid ``play`` command, or None.
 *
 * It decides nothing the codec does not: it takes only payloads made of maps with the
 * envelope's and the play body's keys (each once), unsigned integers, nil, strings and
 * one array of card strings, every value within its field's bounds, and answers None
 * for anything else (codec.unpack_command then reads the payload the general way and
 * says what is wrong).  The cards are the strings init() was given; the party names are
 * returned as they are, for the caller to check.  tests/protocol/test_protocol_playread.py
 * runs both twins over the same payloads, valid and broken.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAX_CARDS 64
#define MAX_NUMBER (1ULL << 53)

static PyObject *card_objs[MAX_CARDS];
static signed char card_at[128][128]; /* an ASCII two-character string -> its index + 1, 0 for none */
static int ready = 0;
static PyObject *envelope_keys[7], *body_keys[3], *slot_names[4], *no_args;
static PyObject *envelope_template, *body_template, *play_name; /* init()'s */
static unsigned long long protocol_version;
static const char *play_name_utf8;
static Py_ssize_t play_name_len;

typedef struct {
    const unsigned char *p, *end;
} Reader;

static int
need(Reader *r, Py_ssize_t n)
{
    return r->end - r->p >= n;
}

static unsigned long long
be(const unsigned char *p, int size)
{
    unsigned long long v = 0;
    for (int i = 0; i < size; i++)
        v = (v << 8) | p[i];
    return v;
}

/* A length-prefixed value's header: 0 and its length, -1 if the next value is not one. */
static int
header(Reader *r, unsigned char fix_lo, unsigned char fix_hi, unsigned char fix_mask, unsigned char tag8,
       unsigned char tag16, unsigned char tag32, Py_ssize_t *len)
{
    if (!need(r, 1))
        return -1;
    unsigned char t = *r->p;
    int size;
    if (t >= fix_lo && t <= fix_hi) {
        *len = t & fix_mask;
        r->p++;
        return 0;
    }
    if (tag8 && t == tag8)
        size = 1;
    else if (t == tag16)
        size = 2;
    else if (t == tag32)
        size = 4;
    else
        return -1;
    if (!need(r, 1 + size))
        return -1;
    *len = (Py_ssize_t)be(r->p + 1, size);
    r->p += 1 + size;
    return 0;
}

static int
read_str(Reader *r, const unsigned char **s, Py_ssize_t *len)
{
    if (header(r, 0xa0, 0xbf, 0x1f, 0xd9, 0xda, 0xdb, len) < 0 || !need(r, *len))
        return -1;
    *s = r->p;
    r->p += *len;
    return 0;
}

static int
read_map(Reader *r, Py_ssize_t *len)
{
    return header(r, 0x80, 0x8f, 0x0f, 0, 0xde, 0xdf, len);
}

static int
read_array(Reader *r, Py_ssize_t *len)
{
    return header(r, 0x90, 0x9f, 0x0f, 0, 0xdc, 0xdd, len);
}

/* An unsigned integer up to 2**53: 0 and its value, -1 for anything else. */
static int
read_number(Reader *r, unsigned long long *v)
{
    if (!need(r, 1))
        return -1;
    unsigned char t = *r->p;
    int size;
    if (t < 0x80) {
        *v = t;
        r->p++;
        return 0;
    }
    if (t == 0xcc)
        size = 1;
    else if (t == 0xcd)
        size = 2;
    else if (t == 0xce)
        size = 4;
    else if (t == 0xcf)
        size = 8;
    else
        return -1;
    if (!need(r, 1 + size))
        return -1;
    *v = be(r->p + 1, size);
    r->p += 1 + size;
    return *v <= MAX_NUMBER ? 0 : -1;
}

/* nil (None) or a number: 0 and a new reference, -1 for anything else. */
static int
read_optional_number(Reader *r, PyObject **out)
{
    unsigned long long v;
    if (need(r, 1) && *r->p == 0xc0) {
        r->p++;
        *out = Py_NewRef(Py_None);
        return 0;
    }
    if (read_number(r, &v) < 0)
        return -1;
    *out = PyLong_FromUnsignedLongLong(v);
    return *out == NULL ? -1 : 0;
}

/* One of init()'s cards: its index, -1 for any other value. */
static int
read_card(Reader *r)
{
    const unsigned char *s;
    Py_ssize_t len;
    if (read_str(r, &s, &len) < 0 || len != 2 || s[0] >= 128 || s[1] >= 128)
        return -1;
    return card_at[s[0]][s[1]] - 1;
}

static int
is_key(const unsigned char *s, Py_ssize_t len, const char *key)
{
    return (Py_ssize_t)strlen(key) == len && memcmp(s, key, len) == 0;
}

enum { V = 1, SEQ = 2, SENDER = 4, RECIPIENT = 8, RE = 16, NAME = 32, BODY = 64 };
enum { CARD = 1, CAPTURE = 2, TURN = 4 };
#define REQUIRED (V | SEQ | SENDER | RECIPIENT | NAME | BODY)

typedef struct {
    PyObject *seq, *sender, *recipient, *re, *card, *capture, *turn;
    int keys, body_keys;
} Play;

static void
clear(Play *play)
{
    Py_CLEAR(play->seq);
    Py_CLEAR(play->sender);
    Py_CLEAR(play->recipient);
    Py_CLEAR(play->re);
    Py_CLEAR(play->card);
    Py_CLEAR(play->capture);
    Py_CLEAR(play->turn);
}

static int
read_body(Reader *r, Play *play)
{
    Py_ssize_t n, m;
    const unsigned char *k;
    Py_ssize_t klen;
    if (read_map(r, &n) < 0)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_str(r, &k, &klen) < 0)
            return -1;
        if (is_key(k, klen, "card")) {
            int card;
            if (play->body_keys & CARD || (card = read_card(r)) < 0)
                return -1;
            play->body_keys |= CARD;
            play->card = Py_NewRef(card_objs[card]);
        }
        else if (is_key(k, klen, "capture")) {
            unsigned long long seen = 0;
            if (play->body_keys & CAPTURE || read_array(r, &m) < 0 || m > MAX_CARDS)
                return -1;
            play->body_keys |= CAPTURE;
            play->capture = PyList_New(m);
            if (play->capture == NULL)
                return -1;
            for (Py_ssize_t j = 0; j < m; j++) {
                int card = read_card(r);
                if (card < 0 || seen & (1ULL << card))
                    return -1; /* not a card, or one twice */
                seen |= 1ULL << card;
                PyList_SET_ITEM(play->capture, j, Py_NewRef(card_objs[card]));
            }
        }
        else if (is_key(k, klen, "turn")) {
            if (play->body_keys & TURN || read_optional_number(r, &play->turn) < 0)
                return -1;
            play->body_keys |= TURN;
        }
        else
            return -1;
    }
    return play->body_keys & CARD ? 0 : -1;
}

/* The party names last read, by a hash of their bytes: a connection sends the same two
 * with each move, and this gives back the same string objects (their hash computed once). */
#define PARTY_CACHE 64
static PyObject *party_cache[PARTY_CACHE];

static int
read_party(Reader *r, PyObject **out)
{
    const unsigned char *s;
    Py_ssize_t len;
    unsigned int h = 5381, ascii = 1;
    if (read_str(r, &s, &len) < 0)
        return -1;
    for (Py_ssize_t i = 0; i < len; i++) {
        h = h * 33 + s[i];
        ascii &= s[i] < 128;
    }
    if (!ascii) {
        *out = PyUnicode_DecodeUTF8((const char *)s, len, NULL);
        return *out == NULL ? -1 : 0;
    }
    PyObject **slot = &party_cache[h % PARTY_CACHE];
    if (*slot != NULL && PyUnicode_GET_LENGTH(*slot) == len && memcmp(PyUnicode_DATA(*slot), s, len) == 0) {
        *out = Py_NewRef(*slot);
        return 0;
    }
    *out = PyUnicode_New(len, 127);
    if (*out == NULL)
        return -1;
    memcpy(PyUnicode_DATA(*out), s, len);
    Py_XSETREF(*slot, Py_NewRef(*out));
    return 0;
}

static int
read_envelope(Reader *r, Play *play)
{
    Py_ssize_t n;
    const unsigned char *k, *s;
    Py_ssize_t klen, len;
    unsigned long long v;
    if (read_map(r, &n) < 0)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        int key;
        if (read_str(r, &k, &klen) < 0)
            return -1;
        if (is_key(k, klen, "v"))
            key = V;
        else if (is_key(k, klen, "seq"))
            key = SEQ;
        else if (is_key(k, klen, "sender"))
            key = SENDER;
        else if (is_key(k, klen, "recipient"))
            key = RECIPIENT;
        else if (is_key(k, klen, "re"))
            key = RE;
        else if (is_key(k, klen, "name"))
            key = NAME;
        else if (is_key(k, klen, "body"))
            key = BODY;
        else
            return -1;
        if (play->keys & key)
            return -1;
        play->keys |= key;
        switch (key) {
        case V:
            if (read_number(r, &v) < 0 || v != protocol_version)
                return -1;
            break;
        case SEQ:
            if (read_number(r, &v) < 0 || (play->seq = PyLong_FromUnsignedLongLong(v)) == NULL)
                return -1;
            break;
        case SENDER:
            if (read_party(r, &play->sender) < 0)
                return -1;
            break;
        case RECIPIENT:
            if (read_party(r, &play->recipient) < 0)
                return -1;
            break;
        case RE:
            if (read_optional_number(r, &play->re) < 0)
                return -1;
            break;
        case NAME:
            if (read_str(r, &s, &len) < 0 || len != play_name_len || memcmp(s, play_name_utf8, len) != 0)
                return -1;
            break;
        default:
            if (read_body(r, play) < 0)
                return -1;
        }
    }
    return (play->keys & REQUIRED) == REQUIRED && r->p == r->end ? 0 : -1;
}

static PyObject *
read_play(PyObject *self, PyObject *arg)
{
    Play play = {0};
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_playread.init() was not called");
        return NULL;
    }
    if (!PyBytes_Check(arg))
        Py_RETURN_NONE;
    const unsigned char *data = (const unsigned char *)PyBytes_AS_STRING(arg);
    Reader r = {data, data + PyBytes_GET_SIZE(arg)};
    int ok = read_envelope(&r, &play) == 0;
    if (!ok) {
        clear(&play);
        if (PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
                return NULL; /* out of memory */
            PyErr_Clear(); /* a party name that is not UTF-8: not a play this reads */
        }
        Py_RETURN_NONE;
    }
    if (play.capture == NULL && (play.capture = PyList_New(0)) == NULL) {
        clear(&play);
        return NULL;
    }
    /* copies of init()'s dictionaries, in the models' field order as validation makes them,
     * with the defaults of the keys left out; the envelope's body is for the caller to set */
    PyObject *envelope = PyDict_Copy(envelope_template), *body = PyDict_Copy(body_template);
    PyObject *result = NULL;
    if (envelope == NULL || body == NULL || PyDict_SetItem(envelope, envelope_keys[1], play.seq) < 0
        || PyDict_SetItem(envelope, envelope_keys[2], play.sender) < 0
        || PyDict_SetItem(envelope, envelope_keys[3], play.recipient) < 0
        || (play.re && PyDict_SetItem(envelope, envelope_keys[4], play.re) < 0)
        || PyDict_SetItem(body, body_keys[0], play.card) < 0
        || PyDict_SetItem(body, body_keys[1], play.capture) < 0
        || (play.turn && PyDict_SetItem(body, body_keys[2], play.turn) < 0))
        goto done;
    PyObject *keys = PyLong_FromLong(play.keys), *body_keys_present = PyLong_FromLong(play.body_keys);
    if (keys != NULL && body_keys_present != NULL)
        result = PyTuple_Pack(4, envelope, body, keys, body_keys_present);
    Py_XDECREF(keys);
    Py_XDECREF(body_keys_present);
done:
    Py_XDECREF(envelope);
    Py_XDECREF(body);
    clear(&play);
    return result;
}

/* object.__new__(cls) and object.__setattr__ of a model's __dict__ and its three slots:
 * what pydantic's model_construct does, with the fields set given. */
static PyObject *
model_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyType_Check(args[0]) || !PyDict_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "model_of(cls, values: dict, names)");
        return NULL;
    }
    if (((PyTypeObject *)args[0])->tp_new != PyBaseObject_Type.tp_new) {
        PyErr_SetString(PyExc_TypeError, "model_of() makes only objects that object.__new__ makes");
        return NULL;
    }
    PyObject *model = PyBaseObject_Type.tp_new((PyTypeObject *)args[0], no_args, NULL);
    if (model == NULL)
        return NULL;
    PyObject *names = PySet_New(args[2]);
    if (names == NULL || PyObject_GenericSetAttr(model, slot_names[0], args[1]) < 0
        || PyObject_GenericSetAttr(model, slot_names[1], names) < 0
        || PyObject_GenericSetAttr(model, slot_names[2], Py_None) < 0
        || PyObject_GenericSetAttr(model, slot_names[3], Py_None) < 0) {
        Py_XDECREF(names);
        Py_DECREF(model);
        return NULL;
    }
    Py_DECREF(names);
    return model;
}

static PyObject *
init(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyLong_Check(args[1]) || !PyUnicode_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "init(cards, version: int, name: str)");
        return NULL;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(args[1]);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    const char *name = PyUnicode_AsUTF8AndSize(args[2], &play_name_len);
    if (name == NULL)
        return NULL;
    PyObject *seq = PySequence_Fast(args[0], "init() needs a sequence of card strings");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAX_CARDS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return NULL;
    }
    ready = 0;
    memset(card_at, 0, sizeof card_at);
    for (int i = 0; i < MAX_CARDS; i++)
        Py_CLEAR(card_objs[i]);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *card = PySequence_Fast_GET_ITEM(seq, i);
        Py_ssize_t len;
        const char *s = PyUnicode_Check(card) ? PyUnicode_AsUTF8AndSize(card, &len) : NULL;
        if (s == NULL || len != 2 || (unsigned char)s[0] >= 128 || (unsigned char)s[1] >= 128) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "each card is a string of two ASCII characters");
            return NULL;
        }
        card_at[(unsigned char)s[0]][(unsigned char)s[1]] = (signed char)(i + 1);
        card_objs[i] = Py_NewRef(card);
    }
    Py_DECREF(seq);
    PyObject *envelope = PyDict_New(), *body = PyDict_New();
    PyObject *envelope_values[7] = {args[1], Py_None, Py_None, Py_None, Py_None, args[2], Py_None};
    for (int i = 0; i < 7 && envelope != NULL; i++)
        if (PyDict_SetItem(envelope, envelope_keys[i], envelope_values[i]) < 0)
            Py_CLEAR(envelope);
    for (int i = 0; i < 3 && body != NULL; i++)
        if (PyDict_SetItem(body, body_keys[i], Py_None) < 0)
            Py_CLEAR(body);
    if (envelope == NULL || body == NULL) {
        Py_XDECREF(envelope);
        Py_XDECREF(body);
        return NULL;
    }
    Py_XSETREF(envelope_template, envelope);
    Py_XSETREF(body_template, body);
    Py_XSETREF(play_name, Py_NewRef(args[2]));
    protocol_version = v;
    play_name_utf8 = name; /* kept alive by play_name */
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"read_play", read_play, METH_O, "The fields of a play command's payload, or None (see playread.read_play_python)."},
    {"model_of", (PyCFunction)(void (*)(void))model_of, METH_FASTCALL,
     "A model made of values its validation made (see playread.model_of_python)."},
    {"init", (PyCFunction)(void (*)(void))init, METH_FASTCALL,
     "The card strings a play may name, the protocol version and the play's command name."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_playread", "The C twin of scopa.protocol.playread.read_play_python.", -1, methods,
};

static int
intern_all(PyObject **out, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if ((out[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return -1;
    return 0;
}

PyMODINIT_FUNC
PyInit__playread(void)
{
    static const char *const envelope[7] = {"v", "seq", "sender", "recipient", "re", "name", "body"};
    static const char *const body[3] = {"card", "capture", "turn"};
    static const char *const slots[4] = {"__dict__", "__pydantic_fields_set__", "__pydantic_extra__",
                                         "__pydantic_private__"};
    if (intern_all(envelope_keys, envelope, 7) < 0 || intern_all(body_keys, body, 3) < 0
        || intern_all(slot_names, slots, 4) < 0 || (no_args = PyTuple_New(0)) == NULL)
        return NULL;
    return PyModule_Create(&module);
}
