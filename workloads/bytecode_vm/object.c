/* object.c - heap objects of the bytecode_vm workload: interned strings,
 * open-addressing hash tables keyed by ints/strings/bools, function
 * prototypes, closures and natives, plus the mark-and-sweep garbage
 * collector (explicit gray stack, weak string intern set). */
#include "vm.h"

#include <stdlib.h>
#include <string.h>

#define TOMBSTONE ((ObjString *)(uintptr_t)1)

/* ---- raw allocation ---------------------------------------------------- */

void *vm_realloc(VM *vm, void *p, size_t old, size_t nsize)
{
    vm->bytes += nsize;
    vm->bytes -= old;
    if (nsize > old && vm->gc_enabled && vm->bytes > vm->next_gc)
        gc_collect(vm);
    if (nsize == 0) {
        free(p);
        return NULL;
    }
    void *q = realloc(p, nsize);
    if (!q)
        vm_fatal(vm, "out of memory");
    return q;
}

static Obj *obj_alloc(VM *vm, size_t size, ObjType type)
{
    Obj *o = vm_realloc(vm, NULL, 0, size);
    o->type = type;
    o->marked = false;
    o->next = vm->objects;
    vm->objects = o;
    return o;
}

/* ---- strings ----------------------------------------------------------- */

uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (uint8_t)s[i];
        h *= 16777619u;
    }
    return h;
}

static ObjString *strset_find(StrSet *set, const char *s, size_t len, uint32_t hash)
{
    if (set->cap == 0)
        return NULL;
    uint32_t mask = set->cap - 1;
    for (uint32_t i = hash & mask;; i = (i + 1) & mask) {
        ObjString *e = set->slot[i];
        if (e == NULL)
            return NULL;
        if (e != TOMBSTONE && e->hash == hash && e->len == len &&
            memcmp(e->chars, s, len) == 0)
            return e;
    }
}

static void strset_put(StrSet *set, ObjString *str)
{
    uint32_t mask = set->cap - 1;
    uint32_t i = str->hash & mask;
    while (set->slot[i] != NULL && set->slot[i] != TOMBSTONE)
        i = (i + 1) & mask;
    if (set->slot[i] == NULL)
        set->used++;
    set->slot[i] = str;
    set->count++;
}

static void strset_grow(StrSet *set)
{
    ObjString **old = set->slot;
    uint32_t oldcap = set->cap;
    uint32_t ncap = oldcap ? oldcap * 2 : 256;
    while (set->count * 2 >= ncap)
        ncap *= 2;
    set->slot = calloc(ncap, sizeof *set->slot);
    if (!set->slot)
        abort();
    set->cap = ncap;
    set->count = set->used = 0;
    for (uint32_t i = 0; i < oldcap; i++)
        if (old[i] && old[i] != TOMBSTONE)
            strset_put(set, old[i]);
    free(old);
}

/* Drop strings that the current collection did not mark. */
static void strset_remove_white(StrSet *set)
{
    for (uint32_t i = 0; i < set->cap; i++) {
        ObjString *e = set->slot[i];
        if (e && e != TOMBSTONE && !e->h.marked) {
            set->slot[i] = TOMBSTONE;
            set->count--;
        }
    }
}

ObjString *str_new(VM *vm, const char *s, size_t len)
{
    uint32_t hash = hash_bytes(s, len);
    ObjString *str = strset_find(&vm->strings, s, len, hash);
    if (str)
        return str;
    str = (ObjString *)obj_alloc(vm, sizeof(ObjString) + len + 1, O_STRING);
    memcpy(str->chars, s, len);
    str->chars[len] = '\0';
    str->len = (uint32_t)len;
    str->hash = hash;
    if ((vm->strings.used + 1) * 4 >= vm->strings.cap * 3)
        strset_grow(&vm->strings);
    strset_put(&vm->strings, str);
    return str;
}

ObjString *str_concat(VM *vm, ObjString *a, ObjString *b)
{
    size_t len = (size_t)a->len + b->len;
    char small[256];
    char *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf)
        vm_fatal(vm, "out of memory");
    memcpy(buf, a->chars, a->len);
    memcpy(buf + a->len, b->chars, b->len);
    ObjString *r = str_new(vm, buf, len);
    if (buf != small)
        free(buf);
    return r;
}

/* ---- hash tables ------------------------------------------------------- */

static uint32_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (uint32_t)x;
}

bool value_hashable(Value v)
{
    return v.type == V_INT || v.type == V_BOOL || IS_OBJ_T(v, O_STRING);
}

static uint32_t value_hash(Value v)
{
    switch (v.type) {
    case V_INT:
        return mix64((uint64_t)v.as.i);
    case V_BOOL:
        return v.as.b ? 0x9e3779b9u : 0x7f4a7c15u;
    default:
        return AS_STR(v)->hash;
    }
}

bool values_equal(Value a, Value b)
{
    if (a.type != b.type)
        return false;
    switch (a.type) {
    case V_NIL:
        return true;
    case V_BOOL:
        return a.as.b == b.as.b;
    case V_INT:
        return a.as.i == b.as.i;
    default:
        return a.as.o == b.as.o; /* strings are interned */
    }
}

ObjTable *table_new(VM *vm)
{
    ObjTable *t = (ObjTable *)obj_alloc(vm, sizeof(ObjTable), O_TABLE);
    t->count = t->used = t->cap = 0;
    t->ent = NULL;
    return t;
}

static bool is_tombstone(const Entry *e)
{
    return e->key.type == V_NIL && e->val.type == V_BOOL;
}

/* Slot holding key, or the slot where it would be inserted. */
static Entry *table_slot(Entry *ent, uint32_t cap, Value key)
{
    uint32_t mask = cap - 1;
    Entry *tomb = NULL;
    for (uint32_t i = value_hash(key) & mask;; i = (i + 1) & mask) {
        Entry *e = &ent[i];
        if (e->key.type == V_NIL) {
            if (!is_tombstone(e))
                return tomb ? tomb : e;
            if (!tomb)
                tomb = e;
        } else if (values_equal(e->key, key)) {
            return e;
        }
    }
}

static void table_resize(VM *vm, ObjTable *t, uint32_t ncap)
{
    Entry *ne = vm_realloc(vm, NULL, 0, ncap * sizeof(Entry));
    for (uint32_t i = 0; i < ncap; i++) {
        ne[i].key = v_nil();
        ne[i].val = v_nil();
    }
    uint32_t live = 0;
    for (uint32_t i = 0; i < t->cap; i++) {
        Entry *e = &t->ent[i];
        if (e->key.type == V_NIL)
            continue;
        Entry *d = table_slot(ne, ncap, e->key);
        *d = *e;
        live++;
    }
    vm_realloc(vm, t->ent, t->cap * sizeof(Entry), 0);
    t->ent = ne;
    t->cap = ncap;
    t->count = t->used = live;
}

bool table_get(ObjTable *t, Value key, Value *out)
{
    if (t->count == 0)
        return false;
    Entry *e = table_slot(t->ent, t->cap, key);
    if (e->key.type == V_NIL)
        return false;
    *out = e->val;
    return true;
}

void table_set(VM *vm, ObjTable *t, Value key, Value val)
{
    if ((t->used + 1) * 4 > t->cap * 3) {
        uint32_t ncap = t->cap < 8 ? 8 : t->cap * 2;
        if (t->count * 2 < t->cap)
            ncap = t->cap; /* mostly tombstones: rehash in place */
        table_resize(vm, t, ncap);
    }
    Entry *e = table_slot(t->ent, t->cap, key);
    if (e->key.type == V_NIL) {
        t->count++;
        if (!is_tombstone(e))
            t->used++;
    }
    e->key = key;
    e->val = val;
}

bool table_delete(ObjTable *t, Value key)
{
    if (t->count == 0)
        return false;
    Entry *e = table_slot(t->ent, t->cap, key);
    if (e->key.type == V_NIL)
        return false;
    e->key = v_nil();
    e->val = v_bool(true);
    t->count--;
    return true;
}

/* ---- functions --------------------------------------------------------- */

ObjFunc *func_new(VM *vm)
{
    ObjFunc *f = (ObjFunc *)obj_alloc(vm, sizeof(ObjFunc), O_FUNC);
    f->arity = f->nupv = 0;
    f->len = f->cap = 0;
    f->code = NULL;
    f->nk = f->kcap = 0;
    f->k = NULL;
    f->name = NULL;
    return f;
}

ObjClosure *closure_new(VM *vm, ObjFunc *fn)
{
    ObjClosure *c = (ObjClosure *)obj_alloc(
        vm, sizeof(ObjClosure) + (size_t)fn->nupv * sizeof(Value), O_CLOSURE);
    c->fn = fn;
    c->nupv = fn->nupv;
    for (int i = 0; i < fn->nupv; i++)
        c->upv[i] = v_nil();
    return c;
}

ObjNative *native_new(VM *vm, NativeFn fn, int arity, const char *name)
{
    ObjNative *n = (ObjNative *)obj_alloc(vm, sizeof(ObjNative), O_NATIVE);
    n->fn = fn;
    n->arity = arity;
    n->name = name;
    return n;
}

/* ---- garbage collector ------------------------------------------------- */

static void mark_obj(VM *vm, Obj *o)
{
    if (o == NULL || o->marked)
        return;
    o->marked = true;
    if (vm->ngray == vm->graycap) {
        vm->graycap = vm->graycap ? vm->graycap * 2 : 1024;
        vm->gray = realloc(vm->gray, vm->graycap * sizeof(Obj *));
        if (!vm->gray)
            abort();
    }
    vm->gray[vm->ngray++] = o;
}

static void mark_value(VM *vm, Value v)
{
    if (v.type == V_OBJ)
        mark_obj(vm, v.as.o);
}

static void blacken(VM *vm, Obj *o)
{
    switch (o->type) {
    case O_STRING:
    case O_NATIVE:
        break;
    case O_TABLE: {
        ObjTable *t = (ObjTable *)o;
        for (uint32_t i = 0; i < t->cap; i++) {
            mark_value(vm, t->ent[i].key);
            mark_value(vm, t->ent[i].val);
        }
        break;
    }
    case O_FUNC: {
        ObjFunc *f = (ObjFunc *)o;
        mark_obj(vm, (Obj *)f->name);
        for (int i = 0; i < f->nk; i++)
            mark_value(vm, f->k[i]);
        break;
    }
    case O_CLOSURE: {
        ObjClosure *c = (ObjClosure *)o;
        mark_obj(vm, (Obj *)c->fn);
        for (int i = 0; i < c->nupv; i++)
            mark_value(vm, c->upv[i]);
        break;
    }
    }
}

static void mark_roots(VM *vm)
{
    for (Value *v = vm->stack; v < vm->sp; v++)
        mark_value(vm, *v);
    for (int i = 0; i < vm->nframes; i++)
        mark_obj(vm, (Obj *)vm->frames[i].cl);
    mark_obj(vm, (Obj *)vm->globals);
    mark_value(vm, vm->result);
}

static size_t obj_size(Obj *o)
{
    switch (o->type) {
    case O_STRING:
        return sizeof(ObjString) + ((ObjString *)o)->len + 1;
    case O_TABLE:
        return sizeof(ObjTable);
    case O_FUNC:
        return sizeof(ObjFunc);
    case O_CLOSURE:
        return sizeof(ObjClosure) + (size_t)((ObjClosure *)o)->nupv * sizeof(Value);
    case O_NATIVE:
        return sizeof(ObjNative);
    }
    return 0;
}

static void free_obj(VM *vm, Obj *o)
{
    if (o->type == O_TABLE) {
        ObjTable *t = (ObjTable *)o;
        vm_realloc(vm, t->ent, t->cap * sizeof(Entry), 0);
    } else if (o->type == O_FUNC) {
        ObjFunc *f = (ObjFunc *)o;
        vm_realloc(vm, f->code, (size_t)f->cap, 0);
        vm_realloc(vm, f->k, (size_t)f->kcap * sizeof(Value), 0);
    }
    vm_realloc(vm, o, obj_size(o), 0);
}

static void sweep(VM *vm)
{
    Obj **link = &vm->objects;
    while (*link) {
        Obj *o = *link;
        if (o->marked) {
            o->marked = false;
            link = &o->next;
        } else {
            *link = o->next;
            free_obj(vm, o);
        }
    }
}

void gc_collect(VM *vm)
{
    vm->gc_runs++;
    mark_roots(vm);
    while (vm->ngray > 0)
        blacken(vm, vm->gray[--vm->ngray]);
    strset_remove_white(&vm->strings);
    sweep(vm);
    vm->next_gc = vm->bytes * 2;
    if (vm->next_gc < (1u << 20))
        vm->next_gc = 1u << 20;
}

void heap_free_all(VM *vm)
{
    Obj *o = vm->objects;
    while (o) {
        Obj *next = o->next;
        free_obj(vm, o);
        o = next;
    }
    vm->objects = NULL;
    free(vm->strings.slot);
    vm->strings.slot = NULL;
    vm->strings.cap = vm->strings.count = vm->strings.used = 0;
    free(vm->gray);
    vm->gray = NULL;
    vm->ngray = vm->graycap = 0;
}
